"use client";

import { useQuery } from "@tanstack/react-query";
import { sessionQuery, signOut } from "@/lib/query/account-queries";
import { Button } from "@/components/ui/button";
import { Notice } from "@/components/ui/notice";
import { PageSection } from "@/components/ui/page-section";
import { TokensPanel } from "./tokens-panel";

/** `/account`: who you are, your role, sign out, and your API tokens. With sign-in off there is no account: it says so. */
export function AccountPage() {
  const state = useQuery(sessionQuery());
  return (
    <main className="mx-auto w-full min-w-0 max-w-4xl flex-1 space-y-4 px-4 py-6" data-testid="account-page">
      <h1 className="text-lg font-semibold text-slate-900">Your account</h1>
      {state.isError ? <Notice tone="error">{state.error.message}</Notice> : null}
      {state.data?.signIn === "off" ? (
        <Notice title="Sign-in is off">This playground runs without accounts (embedded mode, or REFLEXION_SIGN_IN=off): everyone who opens it is the local admin, and the CLI needs no token.</Notice>
      ) : null}
      {state.data?.signIn === "on" && !state.data.session ? (
        <Notice tone="warning" title="You are not signed in">
          <a className="underline" href="/sign-in?next=/account">Sign in</a> to see your account.
        </Notice>
      ) : null}
      {state.data?.signIn === "on" && state.data.session ? (
        <>
          <PageSection id="who" title="Who you are">
            <dl className="grid grid-cols-[8rem_1fr] gap-y-1 text-sm" data-testid="account-who">
              <dt className="text-slate-600">Name</dt>
              <dd>{state.data.session.user.name}</dd>
              <dt className="text-slate-600">Email</dt>
              <dd>{state.data.session.user.email}</dd>
              <dt className="text-slate-600">Role</dt>
              <dd data-testid="account-role">{state.data.session.user.role}</dd>
              <dt className="text-slate-600">Session ends</dt>
              <dd>{new Date(state.data.session.session.expiresAt).toLocaleString()}</dd>
            </dl>
            <Button className="mt-3" size="sm" onClick={() => void signOut()} data-testid="account-sign-out">
              Sign out
            </Button>
          </PageSection>
          <PageSection id="tokens" title="API tokens">
            <TokensPanel />
          </PageSection>
        </>
      ) : null}
    </main>
  );
}
