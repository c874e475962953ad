"use client";

import type { ReactNode } from "react";
import type { RunState } from "@/lib/domain/fold-run";
import { Badge } from "@/components/ui/badge";
import { formatInteger, formatMs, formatUsd } from "@/components/ui/format";
import { Facts, Section, TextBlock } from "./blocks";
import { MemoryInPrompt } from "./memory-in-prompt";
import { PromptViewer } from "./prompt-viewer";
import { TemplateVersionLine } from "./template-version-line";
import { isDemoModel } from "@/lib/domain/model-id";
import { DemoModelBadge } from "@/components/ui/scripted-stand-in";

/** One recorded model call as the run's fold holds it. */
export type ModelCall = RunState["calls"][string];

/** Model, tokens, latency, cost and source of one call, then its exact prompt and raw completion. */
export function ModelCallDetails({ call, state, title = "Model call", byPerson = false }: { call: ModelCall | undefined; state: RunState; title?: string; byPerson?: boolean }) {
  if (byPerson) {
    return (
      <Section title={title}>
        <p className="text-xs text-slate-500" data-testid="inspector-no-call">
          Written by a person (an action edit): no model was called for this step.
        </p>
      </Section>
    );
  }
  if (!call) {
    return (
      <Section title={title}>
        <p className="text-xs text-slate-500">
          {state.config?.provenance?.kind === "external-trace"
            ? "The trace records no LLM call for this turn (no LLM span before its tool call): only what the agent did."
            : state.config?.provenance
              ? "The authors' published log has no model call record (prompt, settings, tokens) for this: only what the agent wrote."
              : "The model call for this step is not in the log (yet)."}
        </p>
      </Section>
    );
  }
  // The demo model answers from a script: never let "live" suggest a real LLM answered.
  const demo = isDemoModel(call.settings.modelId);
  // A call of an imported trace was made by the outside agent: the trace records its messages, tokens and cost, not its settings.
  const fromTrace = state.config?.provenance?.kind === "external-trace" && state.fork === null;
  const source = call.source === "cache" ? "cache" : demo ? "scripted" : "live";
  const actorMemory = call.role === "actor" ? state.trials.find((trial) => trial.trial === call.trial)?.memory : undefined;
  return (
    <>
      {call.role === "actor" ? <MemoryInPrompt call={call} state={state} /> : null}
      <Section
        title={title}
        right={
          <Badge tone={call.source === "cache" || demo ? "violet" : "sky"} data-testid="inspector-source" data-source={call.source}>
            {source}
          </Badge>
        }
      >
        <div data-testid="inspector-call">
          <Facts
            rows={[
              [
                "Model",
                <span key="m" className="inline-flex flex-wrap items-center gap-1.5">
                  <code data-testid="inspector-model" className="font-mono">
                    {call.settings.modelId}
                  </code>
                  {demo ? (
                    <DemoModelBadge prefix="demo" testId="inspector-demo-badge" className="whitespace-normal" />
                  ) : null}
                </span>,
              ],
              ["Role", call.role === "actor" ? "Actor" : call.role === "reflector" ? "Self-Reflection" : "Evaluator (a model's opinion)"],
              [
                "Tokens",
                <span key="t" data-testid="inspector-tokens">
                  {formatInteger(call.usage.inputTokens)} in
                  {call.usage.cachedInputTokens ? <span data-testid="inspector-cached-tokens"> ({formatInteger(call.usage.cachedInputTokens)} from the prompt cache)</span> : null}
                  {call.usage.cacheWriteInputTokens ? ` (${formatInteger(call.usage.cacheWriteInputTokens)} written to the cache)` : ""} · {formatInteger(call.usage.outputTokens)} out
                </span>,
              ],
              ["Latency", <span key="l" data-testid="inspector-latency">{formatMs(call.latencyMs)}</span>],
              ["Cost", <span key="c" data-testid="inspector-cost">{call.costUsd === null ? "unknown price" : formatUsd(call.costUsd)}</span>],
              [
                "Source",
                fromTrace
                  ? "recorded in the imported trace (the outside agent called the model; this app did not)"
                  : call.source === "cache"
                  ? "cache (replayed from the response cache: no new model call, no cost)"
                  : demo
                    ? "live — the demo model's script answered (no LLM was called)"
                    : "live (the model was called)",
              ],
              ["Settings", fromTrace ? "not recorded in the trace" : `temperature ${call.settings.temperature} · max ${call.settings.maxOutputTokens} tokens`],
              ["Finish", fromTrace ? "not recorded in the trace" : call.finishReason],
              ...(call.adjustments.length > 0
                ? [["Adjusted", <span key="a" data-testid="inspector-adjustments">{call.adjustments.join("; ")}</span>] as [string, ReactNode]]
                : []),
              ["Request hash", <code key="h" className="font-mono text-[11px]" title={call.requestHash}>{call.requestHash.slice(0, 16)}…</code>],
            ]}
          />
        </div>
      </Section>
      <Section title={`Prompt · ${call.messages.length} ${call.messages.length === 1 ? "message" : "messages"}`}>
        <TemplateVersionLine callEventId={call.eventId} />
        <PromptViewer messages={call.messages} memory={actorMemory} contextUse={call.contextUse} />
      </Section>
      <Section title="Raw completion">
        <TextBlock testId="inspector-completion" mono>
          {call.outputText}
        </TextBlock>
      </Section>
    </>
  );
}

/** The recorded step behind a node (for what the node data does not carry: reasoning, ignored text, truncation). */
