"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import type { PriceRow } from "@/lib/domain/prices";
import { pricesQuery, useSetPrice } from "@/lib/query/cost-queries";
import { Button } from "@/components/ui/button";
import { formatShortTime } from "@/components/ui/format";
import { Notice } from "@/components/ui/notice";
import { Spinner } from "@/components/ui/spinner";

const input = "mt-0.5 h-8 rounded-md border border-slate-300 bg-white px-2 text-sm text-slate-900";

function rate(value: number | null): string {
  return value === null ? "unknown" : `$${value}`;
}

/** The add-a-price form: a dated row for `provider:model` (or `provider:*`); older rows stay as history. */
function AddPriceForm({ prefill }: { prefill: PriceRow | null }) {
  const [modelId, setModelId] = useState(prefill ? `${prefill.provider}:${prefill.model}` : "");
  const [inputRate, setInputRate] = useState(prefill ? String(prefill.inputUsdPerMTok) : "");
  const [outputRate, setOutputRate] = useState(prefill ? String(prefill.outputUsdPerMTok) : "");
  const [cachedRate, setCachedRate] = useState(prefill?.cachedInputUsdPerMTok != null ? String(prefill.cachedInputUsdPerMTok) : "");
  const [note, setNote] = useState("set by hand");
  const setPrice = useSetPrice();
  const numbers = [inputRate, outputRate].map(Number);
  const valid = /^[a-z]+:\S+$/.test(modelId.trim()) && inputRate.trim() !== "" && outputRate.trim() !== "" && numbers.every((n) => Number.isFinite(n) && n >= 0) && (cachedRate.trim() === "" || Number(cachedRate) >= 0);
  return (
    <form
      className="flex flex-wrap items-end gap-3 rounded-md border border-slate-200 bg-slate-50 p-3"
      data-testid="price-form"
      onSubmit={(event) => {
        event.preventDefault();
        if (!valid) return;
        setPrice.mutate({
          modelId: modelId.trim(),
          inputUsdPerMTok: Number(inputRate),
          outputUsdPerMTok: Number(outputRate),
          cachedInputUsdPerMTok: cachedRate.trim() === "" ? null : Number(cachedRate),
          note: note.trim() || "set by hand",
        });
      }}
    >
      <label className="flex flex-col text-xs text-slate-700">
        Model (provider:model or provider:*)
        <input className={`${input} w-64 max-w-full font-mono`} data-testid="price-model" value={modelId} onChange={(e) => setModelId(e.target.value)} placeholder="compatible:my-model" />
      </label>
      <label className="flex flex-col text-xs text-slate-700">
        Input, $ / 1M
        <input className={`${input} w-24`} inputMode="decimal" data-testid="price-input" value={inputRate} onChange={(e) => setInputRate(e.target.value)} />
      </label>
      <label className="flex flex-col text-xs text-slate-700">
        Output, $ / 1M
        <input className={`${input} w-24`} inputMode="decimal" data-testid="price-output" value={outputRate} onChange={(e) => setOutputRate(e.target.value)} />
      </label>
      <label className="flex flex-col text-xs text-slate-700">
        Cached input, $ / 1M
        <input className={`${input} w-24`} inputMode="decimal" data-testid="price-cached" value={cachedRate} onChange={(e) => setCachedRate(e.target.value)} placeholder="unknown" />
      </label>
      <label className="flex flex-col text-xs text-slate-700">
        Source
        <input className={`${input} w-48`} data-testid="price-note" value={note} onChange={(e) => setNote(e.target.value)} />
      </label>
      <Button type="submit" variant="primary" size="sm" disabled={!valid || setPrice.isPending} data-testid="price-save">
        Add price
      </Button>
      {setPrice.error ? (
        <p className="basis-full text-xs text-red-800" role="alert">
          {setPrice.error.message}
        </p>
      ) : null}
      {setPrice.isSuccess ? <p className="basis-full text-xs text-green-800">Saved: calls from now on are priced with it.</p> : null}
    </form>
  );
}

/**
 * The settings page's "Prices" section: the price table in force
 * (USD per 1M input / output / cached-input tokens, with the date each was entered
 * and its source), the older rows on request, and a form that adds a dated row.
 */
export function PriceTableSection() {
  const prices = useQuery(pricesQuery());
  const [showHistory, setShowHistory] = useState(false);
  const [prefill, setPrefill] = useState<PriceRow | null>(null);
  if (prices.isPending) {
    return (
      <p className="flex items-center gap-2 text-sm text-slate-600">
        <Spinner /> Reading the price table…
      </p>
    );
  }
  if (prices.isError) {
    return (
      <Notice tone="error" title="The price table could not be read">
        {prices.error.message} Reload the page; if it persists, check the server&apos;s log.
      </Notice>
    );
  }
  const current = new Set(prices.data.currentIds);
  const rows = [...prices.data.rows].filter((row) => showHistory || current.has(row.id)).sort((a, b) => a.provider.localeCompare(b.provider) || a.model.localeCompare(b.model) || b.enteredAt.localeCompare(a.enteredAt));
  return (
    <div className="min-w-0 space-y-3" data-testid="price-table-section">
      <p className="text-xs text-slate-600">
        Every model call is priced when it is recorded, with the row in force then: (input − cached) × input rate + cached × cached rate + output × output rate. A model with no row costs “unknown” (budgets in USD do not stop it; use a token budget). The demo model costs $0. Editing adds a dated row; the old one stays as history.
      </p>
      <AddPriceForm key={prefill?.id ?? "new"} prefill={prefill} />
      <label className="flex items-center gap-2 text-xs text-slate-700">
        <input type="checkbox" checked={showHistory} onChange={(e) => setShowHistory(e.target.checked)} data-testid="price-history-toggle" /> Show older rows
      </label>
      {/* The table scrolls sideways on a phone; the page does not. */}
      <div className="max-w-full overflow-x-auto" data-testid="price-table-scroll">
        <table className="w-full border-collapse text-xs" data-testid="price-table">
          <thead>
            <tr className="border-b border-slate-200 text-left text-slate-600">
              <th className="px-2 py-1 font-medium">Model</th>
              <th className="px-2 py-1 text-right font-medium">Input $/1M</th>
              <th className="px-2 py-1 text-right font-medium">Output $/1M</th>
              <th className="px-2 py-1 text-right font-medium">Cached input $/1M</th>
              <th className="px-2 py-1 font-medium">Entered</th>
              <th className="px-2 py-1 font-medium">Source</th>
              <th className="px-2 py-1" />
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.id} className={current.has(row.id) ? "border-b border-slate-100" : "border-b border-slate-100 text-slate-500"} data-testid="price-row" data-model={`${row.provider}:${row.model}`} data-current={current.has(row.id)}>
                <td className="px-2 py-1 font-mono">
                  {row.provider}:{row.model}
                </td>
                <td className="px-2 py-1 text-right tabular-nums">{rate(row.inputUsdPerMTok)}</td>
                <td className="px-2 py-1 text-right tabular-nums">{rate(row.outputUsdPerMTok)}</td>
                <td className="px-2 py-1 text-right tabular-nums">{rate(row.cachedInputUsdPerMTok)}</td>
                <td className="px-2 py-1">{formatShortTime(row.enteredAt)}</td>
                <td className="px-2 py-1 text-slate-600">{row.note}</td>
                <td className="px-2 py-1 text-right">
                  {current.has(row.id) ? (
                    <Button size="sm" variant="ghost" onClick={() => setPrefill(row)} aria-label={`Edit the price of ${row.provider}:${row.model}`}>
                      Edit
                    </Button>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
