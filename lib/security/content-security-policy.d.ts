/** Types of content-security-policy.js (plain JavaScript so next.config.js can import it). */
export declare function contentSecurityPolicy(options?: { dev?: boolean }): string;
export declare function securityHeaders(options?: { dev?: boolean }): Array<{ key: string; value: string }>;
/** The script-free policy for the help pages' images (`/help/images/…`), SVG among them. */
export declare function imageContentSecurityPolicy(): string;
