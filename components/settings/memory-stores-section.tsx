"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { memoryStoresQuery, usePutMemoryStore } from "@/lib/query/cost-queries";
import { Button } from "@/components/ui/button";
import { formatShortTime } from "@/components/ui/format";
import { Notice } from "@/components/ui/notice";
import { Spinner } from "@/components/ui/spinner";

const input = "mt-0.5 h-8 rounded-md border border-slate-300 bg-white px-2 text-sm text-slate-900";

/**
 * The settings page's "Memory stores" section: each named store
 * with its retention and how many unexpired reflections (and tasks) it holds, and
 * a form to create one or change its retention. Runs write to a store with
 * "Remember reflections in" and read it with "Warm start from" (new-run form,
 * experiment arms).
 */
export function MemoryStoresSection() {
  const stores = useQuery(memoryStoresQuery());
  const put = usePutMemoryStore();
  const [name, setName] = useState("");
  const [days, setDays] = useState("30");
  if (stores.isPending) {
    return (
      <p className="flex items-center gap-2 text-sm text-slate-600">
        <Spinner /> Reading the memory stores…
      </p>
    );
  }
  if (stores.isError) {
    return (
      <Notice tone="error" title="The memory stores could not be read">
        {stores.error.message} Reload the page; if it persists, check the server&apos;s log.
      </Notice>
    );
  }
  const valid = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(name.trim()) && Number(days) > 0;
  return (
    <div className="space-y-3" data-testid="memory-stores-section">
      <p className="text-xs text-slate-600">
        A memory store keeps reflections per task across runs. A run that remembers into a store adds each reflection; a warm-started run carries the task&apos;s newest ones into trial 1 (recorded in its log). Entries are deleted when their retention period ends.
      </p>
      <form
        className="flex flex-wrap items-end gap-3"
        onSubmit={(event) => {
          event.preventDefault();
          if (valid) put.mutate({ name: name.trim(), retentionDays: Number(days) });
        }}
      >
        <label className="flex flex-col text-xs text-slate-700">
          Store name
          <input className={`${input} w-48 font-mono`} value={name} onChange={(e) => setName(e.target.value)} placeholder="team-qa" data-testid="memory-store-name" />
        </label>
        <label className="flex flex-col text-xs text-slate-700">
          Retention, days
          <input className={`${input} w-24`} inputMode="decimal" value={days} onChange={(e) => setDays(e.target.value)} data-testid="memory-store-days" />
        </label>
        <Button type="submit" size="sm" variant="primary" disabled={!valid || put.isPending} data-testid="memory-store-save">
          Create or update
        </Button>
        {put.error ? (
          <span className="text-xs text-red-800" role="alert">
            {put.error.message}
          </span>
        ) : null}
      </form>
      {stores.data.stores.length === 0 ? (
        <p className="text-sm text-slate-600" data-testid="memory-stores-empty">
          No memory store yet. Create one here, or start a run with &quot;Remember reflections in&quot; a new store name (it is created with a 30-day retention).
        </p>
      ) : (
        <div className="overflow-x-auto">
        <table className="w-full border-collapse text-xs" data-testid="memory-stores-table">
          <thead>
            <tr className="border-b border-slate-200 text-left text-slate-600">
              <th className="px-2 py-1 font-medium">Store</th>
              <th className="px-2 py-1 text-right font-medium">Reflections</th>
              <th className="px-2 py-1 text-right font-medium">Tasks</th>
              <th className="px-2 py-1 text-right font-medium">Retention</th>
              <th className="px-2 py-1 font-medium">Created</th>
            </tr>
          </thead>
          <tbody>
            {stores.data.stores.map((store) => (
              <tr key={store.name} className="border-b border-slate-100" data-testid="memory-store-row" data-store={store.name} data-entries={store.entryCount}>
                <td className="px-2 py-1 font-mono">{store.name}</td>
                <td className="px-2 py-1 text-right tabular-nums">{store.entryCount}</td>
                <td className="px-2 py-1 text-right tabular-nums">{store.taskCount}</td>
                <td className="px-2 py-1 text-right tabular-nums">{store.retentionDays} days</td>
                <td className="px-2 py-1">{formatShortTime(store.createdAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        </div>
      )}
    </div>
  );
}
