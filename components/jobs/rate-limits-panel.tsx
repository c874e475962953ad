"use client";

import { useQuery } from "@tanstack/react-query";
import { adaptiveLimitText } from "@/lib/domain/adaptive-limit-text";
import type { RateLimitEntry, RateLimitView } from "@/lib/domain/rate-limit-view";
import { Badge } from "@/components/ui/badge";
import { Notice } from "@/components/ui/notice";
import { PageSection } from "@/components/ui/page-section";
import { Spinner } from "@/components/ui/spinner";
import { rateLimitsQuery } from "./dead-letters-query";

const COUNTERS: Record<RateLimitView["counters"], { badge: string; tone: "green" | "amber" | "neutral"; text: string }> = {
  shared: {
    badge: "shared through PostgreSQL",
    tone: "green",
    text: "Every worker and app server on this database counts against the same limits, and a 429 blocks its provider + model for all of them.",
  },
  process: {
    badge: "this process only",
    tone: "amber",
    text: "Without REFLEXION_DATABASE_URL each process (this server, each cli command) keeps its own counters: two processes may together send twice the limit.",
  },
  off: {
    badge: "off",
    tone: "neutral",
    text: "No limits are configured and there is no shared database, so calls go out as the providers allow (adapting to their 429s, below).",
  },
};

/**
 * The provider limits, read-only (`GET /api/jobs/rate-limits`): per pattern of
 * `REFLEXION_RATE_LIMITS` the requests/min, tokens/min, calls in flight and the counting window;
 * whether the counters are shared through PostgreSQL or per process; and in shared mode every
 * provider + model a 429's `Retry-After` blocks now, with until when; and the adaptive limits learnt
 * per provider + model (rate now, the learnt rate, calls in flight). API keys never appear (the
 * server sends provider + model only). Set by environment only: the text says where.
 */
export function RateLimitsPanel() {
  const query = useQuery(rateLimitsQuery());
  return (
    <PageSection title="Provider rate limits" id="rate-limits">
      {query.isPending ? (
        <p className="flex items-center gap-2 text-sm text-slate-600">
          <Spinner className="size-4" /> Reading the rate limits…
        </p>
      ) : query.error ? (
        <Notice tone="error" title="Could not read the rate limits">
          {query.error.message} Reload the page; if it persists, check the server&apos;s log.
        </Notice>
      ) : (
        <RateLimitsView view={query.data} />
      )}
    </PageSection>
  );
}

/** The view itself (exported for render tests). */
export function RateLimitsView({ view }: { view: RateLimitView }) {
  const counters = COUNTERS[view.counters];
  return (
    <div className="space-y-3 text-sm">
      <p className="text-slate-700">
        Counters: <Badge tone={counters.tone}>{counters.badge}</Badge> <span className="text-slate-600">{counters.text}</span>
      </p>
      {view.problem ? (
        <Notice tone="error" title="Rate-limit problem">
          {view.problem}
        </Notice>
      ) : null}
      {view.limits.length === 0 ? (
        <p className="text-slate-600" data-testid="rate-limits-empty">
          No limits configured. Set REFLEXION_RATE_LIMITS in every process&apos;s environment, e.g.{" "}
          <code className="font-mono text-xs">{`{"openai": {"requestsPerMinute": 500, "concurrent": 8}}`}</code> (docs/shared-mode.md).
        </p>
      ) : (
        <div className="overflow-x-auto">
          <table className="w-full text-left" data-testid="rate-limits">
            <thead className="text-xs text-slate-500">
              <tr>
                <th scope="col" className="py-1 pr-3 font-medium">Applies to</th>
                <th scope="col" className="py-1 pr-3 font-medium">Requests/min</th>
                <th scope="col" className="py-1 pr-3 font-medium">Tokens/min</th>
                <th scope="col" className="py-1 pr-3 font-medium">Calls in flight</th>
                <th scope="col" className="py-1 font-medium">Window</th>
              </tr>
            </thead>
            <tbody>
              {view.limits.map((limit) => (
                <LimitRow key={limit.pattern} limit={limit} />
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Blocks view={view} />
      <Adaptive view={view} />
    </div>
  );
}

function Adaptive({ view }: { view: RateLimitView }) {
  const { mode, models } = view.adaptive;
  if (mode === "off") {
    return (
      <p className="text-xs text-slate-500" data-testid="adaptive-limits">
        Adaptive limits are off (REFLEXION_ADAPTIVE_LIMITS=off): calls follow the configured limits only.
      </p>
    );
  }
  return (
    <div data-testid="adaptive-limits">
      <p className="text-xs font-medium text-slate-700">
        Adaptive limits, learnt from 429s, Retry-After and latency{view.counters === "shared" ? " (every worker's reports, each adapting within its share)" : " (this server's calls)"}:
      </p>
      {models.length === 0 ? (
        <p className="text-xs text-slate-500">No provider called yet.</p>
      ) : (
        <ul className="mt-1 space-y-0.5 text-xs tabular-nums">
          {models.map((model) => (
            <li key={model.modelId} data-testid="adaptive-limit">
              <span className="font-mono">{adaptiveLimitText(model)}</span>
              <span className="text-slate-500">
                {" "}
                · {model.rateLimited.toLocaleString()} of {model.started.toLocaleString()} requests answered 429
                {model.pausedUntil ? ` · paused by Retry-After until ${new Date(model.pausedUntil).toLocaleTimeString()}` : ""}
                {model.processes > 1 ? ` · ${model.processes} processes` : ""}
              </span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function LimitRow({ limit }: { limit: RateLimitEntry }) {
  const scope = limit.scope === "all" ? "every model" : limit.scope === "provider" ? "every model of the provider" : "this model";
  const each = (value: number | null, perWindow: number | null) =>
    value === null ? <span className="text-slate-500">no limit</span> : <span className="tabular-nums">{`${value.toLocaleString()}${perWindow !== null && limit.windowSeconds !== 60 ? ` (${perWindow.toLocaleString()} per ${limit.windowSeconds} s)` : ""}`}</span>;
  return (
    <tr className="border-t border-slate-100 align-top">
      <td className="py-1.5 pr-3">
        <span className="font-mono text-xs">{limit.pattern}</span> <span className="text-xs text-slate-500">({scope})</span>
      </td>
      <td className="py-1.5 pr-3">{each(limit.requestsPerMinute, limit.requestsPerWindow)}</td>
      <td className="py-1.5 pr-3">{each(limit.tokensPerMinute, limit.tokensPerWindow)}</td>
      <td className="py-1.5 pr-3 tabular-nums">{limit.concurrent ?? <span className="text-slate-500">no limit</span>}</td>
      <td className="py-1.5 tabular-nums">{limit.windowSeconds} s</td>
    </tr>
  );
}

function Blocks({ view }: { view: RateLimitView }) {
  if (view.blocked === null) {
    return view.counters === "off" ? null : (
      <p className="text-xs text-slate-500">A 429&apos;s Retry-After blocks are kept in each process&apos;s memory here, so they are not shown.</p>
    );
  }
  if (view.blocked.length === 0) return <p className="text-xs text-slate-500" data-testid="rate-limit-blocks">No provider + model is blocked by a 429 now.</p>;
  return (
    <div data-testid="rate-limit-blocks">
      <p className="text-xs font-medium text-slate-700">Blocked by a 429 (Retry-After), for every worker:</p>
      <ul className="mt-1 space-y-0.5 text-xs">
        {view.blocked.map((block) => (
          <li key={block.modelId}>
            <span className="font-mono">{block.modelId}</span> until {new Date(block.until).toLocaleTimeString()}
            {block.keys > 1 ? <span className="text-slate-500"> ({block.keys} API keys)</span> : null}
          </li>
        ))}
      </ul>
    </div>
  );
}
