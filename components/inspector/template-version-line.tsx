"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useParams } from "next/navigation";
import { templateInForce } from "@/lib/graph/template-in-force";
import type { RunEventsCache } from "@/lib/query/merge-events";
import { TEMPLATE_ROLE_NAME } from "@/lib/query/template-library-view";
import { templateHref, templateVersionQuery } from "@/lib/query/template-queries";

/**
 * The line above a prompt in the inspector naming the template version that
 * produced it: the library version (linked to its template's page) or, for a
 * text that is no saved version (an unsaved prompt edit), that fact. Reads the
 * branch path's events from the query cache (the run page has them loaded).
 */
export function TemplateVersionLine({ callEventId }: { callEventId: string }) {
  const params = useParams<{ runId?: string }>();
  const runId = params?.runId ? decodeURIComponent(params.runId) : null;
  const client = useQueryClient();
  // Any cached branch path holding the call has the same events before it (the shared prefix up to the fork).
  const cached = runId ? client.getQueriesData<RunEventsCache>({ queryKey: ["run-events", runId] }) : [];
  const events = cached.map(([, data]) => data?.events).find((list) => list?.some((event) => event.id === callEventId));
  const inForce = events ? templateInForce(events, callEventId) : null;
  const versionId = inForce?.template.versionId ?? null;
  const version = useQuery({ ...templateVersionQuery(versionId ?? ""), enabled: versionId !== null });
  if (!inForce) return null;
  const { template, purpose, edits } = inForce;
  const role = TEMPLATE_ROLE_NAME[purpose];
  return (
    <p className="mb-1.5 text-[11px] text-slate-600" data-testid="inspector-template-version" data-version-id={versionId ?? ""} data-purpose={purpose}>
      {role} template:{" "}
      {versionId === null ? (
        <>
          <code className="font-mono">{template.id}</code> v{template.version} — {edits > 0 ? "a prompt edit of this run, not saved as a library version" : "not a library version"}
        </>
      ) : version.data ? (
        <>
          <Link href={templateHref(version.data.template.id)} className="font-medium text-sky-800 hover:underline" data-testid="inspector-template-link">
            {version.data.template.name} v{version.data.version.number}
          </Link>{" "}
          <code className="font-mono text-[10px] text-slate-500">{versionId}</code>
          {version.data.template.builtIn ? " (built-in)" : ""}
          {edits > 0 ? ` — set by a prompt edit during the run` : ""}
        </>
      ) : (
        <>
          <code className="font-mono">{template.id}</code> <code className="font-mono text-[10px]">{versionId}</code>
          {version.error ? " (not in this library)" : ""}
        </>
      )}
    </p>
  );
}
