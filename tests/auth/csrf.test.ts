import { describe, expect, it } from "vitest";
import { crossSiteRefusal } from "@/lib/auth/csrf";

const request = (method: string, headers: Record<string, string>) => new Request("http://127.0.0.1:3000/api/runs", { method, headers: { host: "127.0.0.1:3000", ...headers } });

describe("crossSiteRefusal", () => {
  it("refuses a state-changing request the browser marks cross-site, or whose Origin is another host", () => {
    for (const method of ["POST", "PUT", "PATCH", "DELETE"]) {
      expect(crossSiteRefusal(request(method, { "sec-fetch-site": "cross-site" }))).toMatch(/^cross-site request refused \(CSRF\)/);
      expect(crossSiteRefusal(request(method, { origin: "http://evil.example" }))).toMatch(/Origin "http:\/\/evil.example" is not this server/);
    }
    expect(crossSiteRefusal(request("POST", { origin: "null" }))).toMatch(/CSRF/);
    // Same host, another port: another origin.
    expect(crossSiteRefusal(request("POST", { origin: "http://127.0.0.1:4000" }))).toMatch(/CSRF/);
  });

  it("lets same-origin requests, reads, and requests with neither header through", () => {
    expect(crossSiteRefusal(request("POST", { origin: "http://127.0.0.1:3000", "sec-fetch-site": "same-origin" }))).toBeNull();
    expect(crossSiteRefusal(request("POST", {}))).toBeNull();
    expect(crossSiteRefusal(request("GET", { origin: "http://evil.example", "sec-fetch-site": "cross-site" }))).toBeNull();
  });

  it("accepts the public URL's host when a proxy rewrites Host", () => {
    const proxied = request("POST", { host: "app:3000", origin: "https://lab.example.org" });
    expect(crossSiteRefusal(proxied)).toMatch(/CSRF/);
    expect(crossSiteRefusal(proxied, "https://lab.example.org/")).toBeNull();
  });

  it("exempts a bearer-token request without cookies, not one that also carries a cookie", () => {
    expect(crossSiteRefusal(request("POST", { authorization: "Bearer abc", origin: "http://evil.example" }))).toBeNull();
    expect(crossSiteRefusal(request("POST", { authorization: "Bearer abc", cookie: "session=1", origin: "http://evil.example" }))).toMatch(/CSRF/);
  });
});
