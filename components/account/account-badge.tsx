"use client";

import Link from "next/link";
import { useQuery } from "@tanstack/react-query";
import { sessionQuery, signOut } from "@/lib/query/account-queries";
import { Button } from "@/components/ui/button";

/** The header's "who am I": name and role linking to /account, and Sign out — only when sign-in is on and someone is signed in. */
export function AccountBadge() {
  const state = useQuery(sessionQuery());
  if (state.data?.signIn !== "on" || !state.data.session) return null;
  const { user } = state.data.session;
  return (
    <span className="flex items-center gap-2 text-xs text-slate-700" data-testid="account-badge">
      <Link href="/account" className="rounded px-1 hover:bg-slate-100" data-testid="account-name">
        {user.name} <span className="text-slate-500">({user.role})</span>
      </Link>
      <Button size="sm" variant="ghost" onClick={() => void signOut()} data-testid="sign-out">
        Sign out
      </Button>
    </span>
  );
}
