import { describe, expect, it } from "vitest";
import { contentSecurityPolicy, imageContentSecurityPolicy, securityHeaders } from "@/lib/security/content-security-policy.js";
import nextConfig from "@/next.config.js";

/** Every response carries a Content-Security-Policy that keeps pages on their own origin. */

function directives(policy: string): Map<string, string[]> {
  return new Map(policy.split("; ").map((part) => { const [name, ...values] = part.split(" "); return [name!, values]; }));
}

describe("Content-Security-Policy", () => {
  it("allows nothing from another origin: no network, frames, plugins or form targets", () => {
    const csp = directives(contentSecurityPolicy());
    expect(csp.get("default-src")).toEqual(["'self'"]);
    expect(csp.get("connect-src")).toEqual(["'self'"]);
    expect(csp.get("object-src")).toEqual(["'none'"]);
    expect(csp.get("frame-ancestors")).toEqual(["'none'"]);
    expect(csp.get("base-uri")).toEqual(["'self'"]);
    expect(csp.get("form-action")).toEqual(["'self'"]);
    for (const values of csp.values()) for (const value of values) expect(value).not.toMatch(/^https?:|\*/);
  });

  it("allows eval only for the development server", () => {
    expect(directives(contentSecurityPolicy()).get("script-src")).not.toContain("'unsafe-eval'");
    expect(directives(contentSecurityPolicy({ dev: true })).get("script-src")).toContain("'unsafe-eval'");
  });

  it("is sent on every path by next.config.js, with nosniff and no referrer", async () => {
    const rules = await nextConfig.headers!();
    expect(rules).toEqual([
      { source: "/:path*", headers: securityHeaders({ dev: false }) },
      { source: "/help/images/:path*", headers: [{ key: "Content-Security-Policy", value: imageContentSecurityPolicy() }] },
    ]);
    expect(securityHeaders().map((header) => header.key)).toEqual(["Content-Security-Policy", "X-Content-Type-Options", "Referrer-Policy"]);
  });

  it("gives the help pages' images (SVG among them) a policy with no script and a sandbox", () => {
    const csp = directives(imageContentSecurityPolicy());
    expect(csp.get("default-src")).toEqual(["'none'"]);
    expect(csp.has("script-src")).toBe(false);
    expect(csp.get("sandbox")).toEqual([]);
    expect(csp.get("frame-ancestors")).toEqual(["'none'"]);
  });
});
