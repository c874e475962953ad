"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { roles, type Role } from "@/lib/domain/roles";
import { sessionQuery, usersQuery, useUserMutations } from "@/lib/query/account-queries";
import { Button } from "@/components/ui/button";
import { formatShortTime } from "@/components/ui/format";
import { Notice } from "@/components/ui/notice";

const input = "mt-0.5 h-8 rounded-md border border-slate-300 bg-white px-2 text-sm text-slate-900";

/**
 * The settings page's "Users" section (admins, shared mode with sign-in on): every account with
 * its role, a form to add one, a role picker and Remove. Others see why it is not theirs to change.
 * The server checks the role on every request; hiding here is only a convenience.
 */
export function UsersSection() {
  const state = useQuery(sessionQuery());
  if (state.data?.signIn === "off") return <p className="text-sm text-slate-600">Accounts exist only in shared mode with sign-in on (docs/shared-mode.md, &quot;Security&quot;).</p>;
  if (state.data?.signIn === "on" && state.data.session?.user.role !== "admin") return <p className="text-sm text-slate-600">Only admins manage accounts.</p>;
  if (!state.data) return null;
  return <UsersAdmin me={state.data.session?.user.id ?? null} />;
}

function UsersAdmin({ me }: { me: string | null }) {
  const users = useQuery(usersQuery());
  const { add, setRole, remove } = useUserMutations();
  const [email, setEmail] = useState("");
  const [name, setName] = useState("");
  const [password, setPassword] = useState("");
  const [role, setNewRole] = useState<Role>("viewer");
  const error = add.error ?? setRole.error ?? remove.error;
  return (
    <div className="space-y-3" data-testid="users-section">
      <form
        className="flex flex-wrap items-end gap-3"
        onSubmit={(event) => {
          event.preventDefault();
          add.mutate({ email: email.trim(), name: name.trim(), password, role }, { onSuccess: () => (setEmail(""), setName(""), setPassword("")) });
        }}
      >
        <label className="flex flex-col text-xs text-slate-700">
          Email
          <input className={`${input} w-56`} type="email" value={email} onChange={(e) => setEmail(e.target.value)} data-testid="user-email" />
        </label>
        <label className="flex flex-col text-xs text-slate-700">
          Name
          <input className={`${input} w-40`} value={name} onChange={(e) => setName(e.target.value)} data-testid="user-name" />
        </label>
        <label className="flex flex-col text-xs text-slate-700">
          First password (8+ characters)
          <input className={`${input} w-44`} type="password" autoComplete="new-password" value={password} onChange={(e) => setPassword(e.target.value)} data-testid="user-password" />
        </label>
        <label className="flex flex-col text-xs text-slate-700">
          Role
          <select className={input} value={role} onChange={(e) => setNewRole(e.target.value as Role)} data-testid="user-role">
            {roles.map((r) => (
              <option key={r}>{r}</option>
            ))}
          </select>
        </label>
        <Button type="submit" size="sm" variant="primary" disabled={!email.trim() || !name.trim() || password.length < 8 || add.isPending} data-testid="user-add">
          Add account
        </Button>
      </form>
      {error ? <Notice tone="error">{error.message}</Notice> : null}
      {users.isError ? <Notice tone="error" title="The accounts could not be read">{users.error.message}</Notice> : null}
      {users.data ? (
        <table className="w-full border-collapse text-xs" data-testid="users-table">
          <thead>
            <tr className="border-b border-slate-200 text-left text-slate-600">
              <th className="px-2 py-1 font-medium">Name</th>
              <th className="px-2 py-1 font-medium">Email</th>
              <th className="px-2 py-1 font-medium">Role</th>
              <th className="px-2 py-1 font-medium">Added</th>
              <th className="px-2 py-1" />
            </tr>
          </thead>
          <tbody>
            {users.data.users.map((user) => (
              <tr key={user.id} className="border-b border-slate-100" data-testid="user-row">
                <td className="px-2 py-1">{user.name}</td>
                <td className="px-2 py-1">{user.email}</td>
                <td className="px-2 py-1">
                  <select aria-label={`Role of ${user.name}`} className="h-7 rounded border border-slate-300 bg-white px-1" value={user.role} disabled={setRole.isPending} onChange={(e) => setRole.mutate({ id: user.id, role: e.target.value as Role })}>
                    {roles.map((r) => (
                      <option key={r}>{r}</option>
                    ))}
                  </select>
                </td>
                <td className="px-2 py-1">{formatShortTime(user.createdAt)}</td>
                <td className="px-2 py-1 text-right">
                  {user.id === me ? (
                    <span className="text-slate-500">you</span>
                  ) : (
                    <Button
                      size="sm"
                      variant="danger"
                      disabled={remove.isPending}
                      onClick={() => {
                        if (window.confirm(`Remove ${user.name}? Their sessions and API tokens stop working at once.`)) remove.mutate(user.id);
                      }}
                    >
                      Remove
                    </Button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </div>
  );
}
