"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { tokensQuery, useCreateToken, useRevokeToken } from "@/lib/query/account-queries";
import { Button } from "@/components/ui/button";
import { formatShortTime } from "@/components/ui/format";
import { Notice } from "@/components/ui/notice";

const input = "mt-0.5 h-8 rounded-md border border-slate-300 bg-white px-2 text-sm text-slate-900";

/**
 * Your API tokens: create one (its secret is shown once, with a copy button), see when each was
 * last used, revoke one. The CLI takes a token as `REFLEXION_TOKEN`; scripts send `Authorization: Bearer`.
 */
export function TokensPanel() {
  const tokens = useQuery(tokensQuery());
  const create = useCreateToken();
  const revoke = useRevokeToken();
  const [name, setName] = useState("");
  const [copied, setCopied] = useState(false);
  const secret = create.data?.secret ?? null;
  return (
    <div className="space-y-3" data-testid="tokens-panel">
      <form
        className="flex flex-wrap items-end gap-3"
        onSubmit={(event) => {
          event.preventDefault();
          setCopied(false);
          if (name.trim()) create.mutate({ name: name.trim() }, { onSuccess: () => setName("") });
        }}
      >
        <label className="flex flex-col text-xs text-slate-700">
          Token name (what it is for)
          <input className={`${input} w-56`} value={name} onChange={(e) => setName(e.target.value)} placeholder="laptop, ci" data-testid="token-name" />
        </label>
        <Button type="submit" size="sm" variant="primary" disabled={!name.trim() || create.isPending} data-testid="token-create">
          Create token
        </Button>
      </form>
      {create.error ? <Notice tone="error">{create.error.message}</Notice> : null}
      {secret ? (
        <Notice tone="warning" title="Your new token — you will not see it again" data-testid="token-secret-notice">
          <p className="text-xs">Copy it now and keep it like a password. For the CLI: <code>export REFLEXION_TOKEN=…</code></p>
          <div className="mt-1 flex items-center gap-2">
            <code className="break-all rounded bg-white px-2 py-1 font-mono text-xs" data-testid="token-secret">
              {secret}
            </code>
            <Button
              size="sm"
              onClick={() => {
                void navigator.clipboard?.writeText(secret).then(() => setCopied(true));
              }}
              data-testid="token-copy"
            >
              {copied ? "Copied" : "Copy"}
            </Button>
          </div>
        </Notice>
      ) : null}
      {tokens.isError ? <Notice tone="error" title="Your tokens could not be read">{tokens.error.message}</Notice> : null}
      {tokens.data && tokens.data.tokens.length === 0 ? <p className="text-sm text-slate-600">No API token yet.</p> : null}
      {tokens.data && tokens.data.tokens.length > 0 ? (
        <table className="w-full border-collapse text-xs" data-testid="tokens-table">
          <thead>
            <tr className="border-b border-slate-200 text-left text-slate-600">
              <th className="px-2 py-1 font-medium">Name</th>
              <th className="px-2 py-1 font-medium">Starts with</th>
              <th className="px-2 py-1 font-medium">Created</th>
              <th className="px-2 py-1 font-medium">Last used</th>
              <th className="px-2 py-1 font-medium">State</th>
              <th className="px-2 py-1" />
            </tr>
          </thead>
          <tbody>
            {tokens.data.tokens.map((token) => (
              <tr key={token.id} className="border-b border-slate-100" data-testid="token-row">
                <td className="px-2 py-1">{token.name}</td>
                <td className="px-2 py-1 font-mono">{token.prefix}…</td>
                <td className="px-2 py-1">{formatShortTime(token.createdAt)}</td>
                <td className="px-2 py-1">{token.lastUsedAt ? formatShortTime(token.lastUsedAt) : "never"}</td>
                <td className="px-2 py-1">{token.revokedAt ? "revoked" : "active"}</td>
                <td className="px-2 py-1 text-right">
                  {token.revokedAt ? null : (
                    <Button size="sm" variant="danger" disabled={revoke.isPending} onClick={() => revoke.mutate(token.id)} data-testid="token-revoke">
                      Revoke
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
