/**
 * The Content-Security-Policy (and companion headers) every page and API
 * response carries. Plain JavaScript with JSDoc types so
 * next.config.js can import it as it is.
 *
 * Why this policy (decision 0017):
 * - Model text is never rendered as HTML (React text nodes only); the policy is
 *   the second line of defence should that ever break: no script, frame, form
 *   target or network request may reach another origin (`connect-src 'self'`
 *   means a prompt-injected page could not send anything out), no plugins
 *   (`object-src 'none'`), no `<base>` rewriting, no framing (`frame-ancestors`).
 * - `script-src 'self' 'unsafe-inline'`: Next.js App Router pages inline their
 *   hydration data as scripts; without per-request nonces (which would force
 *   every page to be rendered dynamically) inline scripts must be allowed.
 *   `'unsafe-eval'` only in development (React Refresh needs it).
 * - `style-src 'self' 'unsafe-inline'`: React Flow and Monaco set inline styles.
 * - `worker-src 'self' blob:`: Monaco's editor worker (bundled, same origin).
 * - `img-src 'self' data: blob:` and `font-src 'self' data:`: Monaco's icon font
 *   and React Flow's minimap; all bundled, nothing from a CDN.
 *
 * @param {{ dev?: boolean }} [options] `dev`: the development server (`next dev`).
 * @returns {string} the header value, directives separated by `; `.
 */
export function contentSecurityPolicy(options = {}) {
  const directives = {
    "default-src": ["'self'"],
    "script-src": ["'self'", "'unsafe-inline'", ...(options.dev ? ["'unsafe-eval'"] : [])],
    "style-src": ["'self'", "'unsafe-inline'"],
    "img-src": ["'self'", "data:", "blob:"],
    "font-src": ["'self'", "data:"],
    "connect-src": ["'self'"],
    "worker-src": ["'self'", "blob:"],
    "object-src": ["'none'"],
    "base-uri": ["'self'"],
    "form-action": ["'self'"],
    "frame-ancestors": ["'none'"],
  };
  return Object.entries(directives)
    .map(([name, values]) => `${name} ${values.join(" ")}`)
    .join("; ");
}

/**
 * The security headers for `next.config.js` `headers()`: the CSP, no MIME
 * sniffing, no referrer to other sites.
 *
 * @param {{ dev?: boolean }} [options]
 * @returns {Array<{ key: string, value: string }>}
 */
export function securityHeaders(options = {}) {
  return [
    { key: "Content-Security-Policy", value: contentSecurityPolicy(options) },
    { key: "X-Content-Type-Options", value: "nosniff" },
    { key: "Referrer-Policy", value: "no-referrer" },
  ];
}

/**
 * The policy for the help pages' images (`/help/images/…`, files of docs/): an image needs no
 * script, request, frame or form. It matters for an SVG opened on its own (not through `<img>`,
 * where SVG never runs scripts): no script at all, inline styles only, and `sandbox` so the
 * document gets an opaque origin. Replaces {@link contentSecurityPolicy} on those paths, whose
 * `'unsafe-inline'` scripts an SVG must not inherit.
 *
 * @returns {string} the header value, directives separated by `; `.
 */
export function imageContentSecurityPolicy() {
  return "default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-ancestors 'none'; sandbox";
}
