"use client";

import { useSyncExternalStore } from "react";

const noSubscription = () => () => undefined;

/**
 * How the outside agent reads the reflections back: the HTTP route (the server's own origin) and
 * the CLI command, for a store. The guide with a 30-line example is docs/external-agents.md.
 */
export function HandBack({ store }: { store: string }) {
  // The page's own origin in the browser; the default port's URL while rendering on the server.
  const origin = useSyncExternalStore(noSubscription, () => window.location.origin, () => "http://localhost:3000");
  const encoded = encodeURIComponent(store);
  const url = `${origin}/api/memory-stores/${encoded}/reflections?format=text`;
  return (
    <div className="space-y-1 rounded-md bg-slate-50 p-2 text-xs text-slate-700" data-testid="hand-back">
      <p className="font-medium text-slate-800">Hand the lessons back to your agent</p>
      <p>
        Put these reflections into its next prompt. Add <code>&amp;task=&lt;task id&gt;</code> for one task&apos;s, <code>format=json</code> for their
        provenance:
      </p>
      <pre className="overflow-x-auto rounded bg-white p-1.5 font-mono text-[11px]">{`curl '${url}'\nnpm run cli -- memory export --store ${store} --format text`}</pre>
      <p>
        A 30-line example for a LangGraph or plain-Python loop is in <code>docs/external-agents.md</code>.
      </p>
    </div>
  );
}
