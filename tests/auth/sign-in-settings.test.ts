import { describe, expect, it } from "vitest";
import { createBetterAuth } from "@/lib/auth/better-auth";
import { authSecret, oidcSettings, publicUrl, sessionSeconds, signInMode } from "@/lib/auth/sign-in-settings";
import type { PgDb } from "@/lib/db/pg/database";

describe("sign-in setting", () => {
  it("is on by default in shared mode only, refused on without it, and rejects other values", () => {
    const url = { REFLEXION_DATABASE_URL: "postgres://u@h/db" };
    expect(signInMode(url)).toBe("on");
    expect(signInMode({ ...url, REFLEXION_SIGN_IN: "off" })).toBe("off");
    expect(signInMode({})).toBe("off");
    expect(signInMode(url, false)).toBe("off");
    expect(signInMode({}, true)).toBe("off");
    expect(signInMode({ REFLEXION_SIGN_IN: "on" }, true)).toBe("on");
    expect(() => signInMode({ REFLEXION_SIGN_IN: "on" })).toThrow(/needs shared mode/);
    expect(() => signInMode({ ...url, REFLEXION_SIGN_IN: "yes" })).toThrow(/must be "on" or "off"/);
  });
});

describe("sign-in settings", () => {
  it("requires a secret of 32+ characters and says how to make one", () => {
    expect(() => authSecret({})).toThrow(/BETTER_AUTH_SECRET is not set.*openssl rand -base64 32/);
    expect(() => authSecret({ BETTER_AUTH_SECRET: "short" })).toThrow(/shorter than 32 characters/);
    expect(authSecret({ BETTER_AUTH_SECRET: "x".repeat(32) })).toBe("x".repeat(32));
  });

  it("reads the public URL, the session length and the OIDC provider", () => {
    expect(publicUrl({ REFLEXION_PUBLIC_URL: "https://lab.example/playground/" })).toBe("https://lab.example");
    expect(publicUrl({ BETTER_AUTH_URL: "http://10.0.0.5:3000" })).toBe("http://10.0.0.5:3000");
    expect(() => publicUrl({ REFLEXION_PUBLIC_URL: "lab" })).toThrow(/REFLEXION_PUBLIC_URL must be the URL people open/);
    expect(sessionSeconds({})).toBe(7 * 24 * 3600);
    expect(sessionSeconds({ REFLEXION_SESSION_DAYS: "0.5" })).toBe(12 * 3600);
    expect(() => sessionSeconds({ REFLEXION_SESSION_DAYS: "0" })).toThrow(/positive number of days/);
    expect(oidcSettings({})).toBeNull();
    expect(() => oidcSettings({ REFLEXION_OIDC_ISSUER: "https://sso.lab.example/realms/lab" })).toThrow(/also set REFLEXION_OIDC_CLIENT_ID and REFLEXION_OIDC_CLIENT_SECRET/);
    expect(oidcSettings({ REFLEXION_OIDC_ISSUER: "https://sso.lab.example/realms/lab/", REFLEXION_OIDC_CLIENT_ID: "rp", REFLEXION_OIDC_CLIENT_SECRET: "s" })).toEqual({
      discoveryUrl: "https://sso.lab.example/realms/lab/.well-known/openid-configuration",
      clientId: "rp",
      clientSecret: "s",
      name: "single sign-on",
    });
  });

  it("adds the OIDC provider to Better Auth only when configured", () => {
    const db = {} as PgDb;
    const base = { BETTER_AUTH_SECRET: "s".repeat(40) };
    expect(createBetterAuth(db, base).options.plugins.map((plugin) => plugin.id)).toEqual([]);
    // Discovery is fetched at start-up: a closed loopback port keeps the test off the network (the failure is logged, not thrown).
    const withOidc = createBetterAuth(db, { ...base, REFLEXION_OIDC_ISSUER: "http://127.0.0.1:9", REFLEXION_OIDC_CLIENT_ID: "rp", REFLEXION_OIDC_CLIENT_SECRET: "s", REFLEXION_OIDC_NAME: "Lab SSO" });
    expect(withOidc.options.plugins.map((plugin) => plugin.id)).toEqual(["generic-oauth"]);
  });
});
