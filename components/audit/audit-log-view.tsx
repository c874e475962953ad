"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState, type FormEvent } from "react";
import { auditPageSchema, type AuditEntry } from "@/lib/domain/audit";
import { fetchJson } from "@/lib/query/fetch-json";
import { Button } from "@/components/ui/button";
import { EmptyState, Notice } from "@/components/ui/notice";
import { Spinner } from "@/components/ui/spinner";
import { auditTargetParts } from "./audit-target";

/** Entries per page. */
const PAGE = 50;

interface Filters {
  user: string;
  action: string;
  since: string;
  until: string;
}
const NO_FILTERS: Filters = { user: "", action: "", since: "", until: "" };

/** The `GET /api/audit` URL of a page with these filters (empty ones left out). */
export function auditUrl(filters: Filters, offset: number): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) if (value.trim()) params.set(key, value.trim());
  params.set("limit", String(PAGE));
  params.set("offset", String(offset));
  return `/api/audit?${params.toString()}`;
}

function statusTone(status: number): string {
  if (status >= 500) return "text-red-800";
  if (status >= 400) return "text-amber-800";
  return "text-green-800";
}

function Row({ entry }: { entry: AuditEntry }) {
  return (
    <tr className="border-t border-slate-200 align-top" data-testid="audit-row">
      <td className="whitespace-nowrap py-1.5 pr-3 font-mono text-[11px] text-slate-600">{entry.at.slice(0, 19).replace("T", " ")}</td>
      <td className="py-1.5 pr-3">
        <span className="font-medium text-slate-900">{entry.actor.name}</span>
        <span className="ml-1 text-[11px] text-slate-500">{entry.actor.kind}</span>
      </td>
      <td className="py-1.5 pr-3 font-mono text-[11px] text-slate-800">{entry.action}</td>
      <td className="py-1.5 pr-3 text-[11px] text-slate-700">
        {auditTargetParts(entry.target).map((part) => (
          <span key={part.key} className="mr-2 inline-block">
            {part.key}=
            {part.href ? (
              <Link href={part.href} className="text-sky-800 underline">
                {part.value}
              </Link>
            ) : (
              part.value
            )}
          </span>
        ))}
      </td>
      <td className={`py-1.5 font-mono text-[11px] ${statusTone(entry.status)}`} title={entry.detail ?? undefined}>
        {entry.status}
      </td>
    </tr>
  );
}

/**
 * The audit log for admins (`GET /api/audit`, docs/audit.md): who did what, newest first, filtered by
 * person, action prefix and time (UTC), 50 to a page. Times are UTC; a refused request's reason is
 * the status cell's tooltip.
 */
export function AuditLogView() {
  const [draft, setDraft] = useState<Filters>(NO_FILTERS);
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const [offset, setOffset] = useState(0);
  const query = useQuery({
    queryKey: ["audit", filters, offset],
    queryFn: ({ signal }) => fetchJson(auditUrl(filters, offset), auditPageSchema, { signal }),
    placeholderData: keepPreviousData,
    retry: 1,
  });
  const apply = (event: FormEvent) => {
    event.preventDefault();
    setFilters(draft);
    setOffset(0);
  };
  const field = (key: keyof Filters, label: string, placeholder: string, type = "text") => (
    <label className="flex flex-col gap-0.5 text-[11px] text-slate-700">
      {label}
      <input
        type={type}
        value={draft[key]}
        placeholder={placeholder}
        onChange={(event) => setDraft({ ...draft, [key]: event.target.value })}
        className="h-7 rounded-md border border-slate-300 px-2 text-xs"
        data-testid={`audit-filter-${key}`}
      />
    </label>
  );
  const filtered = Object.values(filters).some((value) => value.trim() !== "");
  return (
    <div className="space-y-3">
      <form onSubmit={apply} className="flex flex-wrap items-end gap-2" aria-label="Filter the audit log">
        {field("user", "Person (name or account id)", "alice")}
        {field("action", "Action starts with", "POST /api/runs")}
        {field("since", "From (UTC)", "", "date")}
        {field("until", "Before (UTC)", "", "date")}
        <Button size="sm" type="submit" data-testid="audit-apply">
          Filter
        </Button>
        {filtered ? (
          <Button
            size="sm"
            variant="ghost"
            onClick={() => {
              setDraft(NO_FILTERS);
              setFilters(NO_FILTERS);
              setOffset(0);
            }}
          >
            Clear
          </Button>
        ) : null}
      </form>
      {query.isPending ? (
        <p className="flex items-center gap-2 text-sm text-slate-600">
          <Spinner className="size-4" /> Loading the audit log…
        </p>
      ) : query.error ? (
        <Notice tone="error" title="Could not read the audit log">
          {query.error.message}
        </Notice>
      ) : query.data.total === 0 ? (
        <EmptyState title={filtered ? "No entries match these filters" : "Nothing recorded yet"}>
          {filtered
            ? "Widen the time range or clear a filter."
            : "Every request that changes something (start, steer, fork, edit, settings) and every audited CLI command is recorded here, with who made it and how it went."}
        </EmptyState>
      ) : (
        <>
          <table className="w-full text-left text-xs" data-testid="audit-table">
            <thead className="text-[11px] uppercase tracking-wide text-slate-500">
              <tr>
                <th className="pb-1 pr-3 font-semibold">Time (UTC)</th>
                <th className="pb-1 pr-3 font-semibold">Who</th>
                <th className="pb-1 pr-3 font-semibold">Action</th>
                <th className="pb-1 pr-3 font-semibold">Target</th>
                <th className="pb-1 font-semibold">Status</th>
              </tr>
            </thead>
            <tbody>
              {query.data.entries.map((entry) => (
                <Row key={entry.id} entry={entry} />
              ))}
            </tbody>
          </table>
          <div className="flex items-center justify-between text-xs text-slate-600">
            <span data-testid="audit-range">
              {offset + 1}–{offset + query.data.entries.length} of {query.data.total}
            </span>
            <span className="flex gap-2">
              <Button size="sm" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - PAGE))}>
                Newer
              </Button>
              <Button size="sm" disabled={offset + PAGE >= query.data.total} onClick={() => setOffset(offset + PAGE)} data-testid="audit-older">
                Older
              </Button>
            </span>
          </div>
        </>
      )}
    </div>
  );
}
