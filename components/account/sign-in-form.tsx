"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Notice } from "@/components/ui/notice";

const input = "mt-0.5 h-9 w-full rounded-md border border-slate-300 bg-white px-2 text-sm text-slate-900";

/** Only a same-site path may be the target after sign-in (never another origin). */
function safeNext(next: string | undefined): string {
  return next && next.startsWith("/") && !next.startsWith("//") ? next : "/";
}

/**
 * The sign-in form: email + password through Better Auth (`POST /api/auth/sign-in/email`), and a
 * button for the lab's OIDC provider when one is configured. Errors say what to do; too many
 * attempts say how long to wait.
 */
export function SignInForm({ next, oidcName }: { next?: string; oidcName: string | null }) {
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const target = safeNext(next);

  async function submit() {
    setBusy(true);
    setError(null);
    try {
      const response = await fetch("/api/auth/sign-in/email", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email: email.trim(), password }) });
      if (response.ok) {
        window.location.assign(target);
        return;
      }
      if (response.status === 429) {
        const wait = Number(response.headers.get("x-retry-after")) || 60;
        setError(`Too many attempts, wait ${wait} s before trying again.`);
      } else if (response.status === 401) {
        setError("That email and password do not match an account. Check them, or ask an admin to add you or to set a new password (`cli users set-password`).");
      } else if (response.status === 404) {
        setError("Sign-in is off on this server (embedded mode or REFLEXION_SIGN_IN=off): open the playground directly.");
      } else {
        setError(`Sign-in failed (${response.status}). Try again; if it persists, ask an admin to check the server's log.`);
      }
    } catch {
      setError("Could not reach the server. Is it running?");
    } finally {
      setBusy(false);
    }
  }

  async function oidc() {
    setBusy(true);
    const response = await fetch("/api/auth/sign-in/oauth2", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ providerId: "oidc", callbackURL: target }) });
    const body = (await response.json().catch(() => null)) as { url?: string } | null;
    if (response.ok && body?.url) window.location.assign(body.url);
    else {
      setBusy(false);
      setError(`Single sign-on could not start (${response.status}). Ask an admin to check REFLEXION_OIDC_* settings.`);
    }
  }

  return (
    <form
      className="space-y-3"
      data-testid="sign-in-form"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <label className="block text-xs text-slate-700">
        Email
        <input className={input} type="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} data-testid="sign-in-email" />
      </label>
      <label className="block text-xs text-slate-700">
        Password
        <input className={input} type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} data-testid="sign-in-password" />
      </label>
      {error ? (
        <Notice tone="error" data-testid="sign-in-error">
          {error}
        </Notice>
      ) : null}
      <Button type="submit" variant="primary" disabled={busy || !email || !password} className="w-full" data-testid="sign-in-submit">
        Sign in
      </Button>
      {oidcName ? (
        <Button variant="secondary" disabled={busy} className="w-full" onClick={() => void oidc()} data-testid="sign-in-oidc">
          Sign in with {oidcName}
        </Button>
      ) : null}
    </form>
  );
}
