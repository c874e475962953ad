import type { CallPricer, ModelPort } from "@/lib/engine/ports";
import { formatFailures, formatGoldReflections, parseProposedTemplate, renderMetaPrompt, type FailedTrialExcerpt, type GoldReflection } from "@/lib/domain/optimiser/meta-prompt";
import type { OptimisedRole } from "@/lib/domain/optimiser/types";

/** What one meta-prompt call gave: the proposed text, or why there is none; and what it cost. */
export interface Proposal {
  text: string | null;
  error: string | null;
  tokens: number;
  usd: number;
}

/** Longest reply asked of the meta-prompt model, tokens (a template is at most 64 KB; most are far shorter). */
export const META_PROMPT_MAX_OUTPUT_TOKENS = 8192;

/**
 * Asks `modelId` for a mutated template: renders the meta-prompt with the current template and the
 * failures (lib/domain/optimiser/meta-prompt.ts) — followed by the gold reflections, if any — calls the model once (live, temperature 0) and
 * reads the `<template>` block of its reply. A reply without one, or a model error, is a proposal
 * with `error` set (the optimisation records it as a failed candidate and goes on); tokens are
 * counted either way when the model answered.
 */
export async function proposeTemplate(
  deps: { model: ModelPort; pricing?: CallPricer },
  input: { metaPrompt: string; role: OptimisedRole; family: string; template: string; failures: readonly FailedTrialExcerpt[]; gold?: readonly GoldReflection[]; modelId: string },
): Promise<Proposal> {
  const gold = formatGoldReflections(input.gold ?? []);
  const failures = gold === "" ? formatFailures(input.failures) : `${formatFailures(input.failures)}\n\n${gold}`;
  const prompt = renderMetaPrompt(input.metaPrompt, { role: input.role, family: input.family, template: input.template, failures });
  let response;
  try {
    response = await deps.model.generate(
      {
        role: "reflector",
        settings: { modelId: input.modelId, temperature: 0, maxOutputTokens: META_PROMPT_MAX_OUTPUT_TOKENS },
        messages: [{ role: "user", content: prompt }],
        stopSequences: [],
      },
      { replay: "live" },
    );
  } catch (error) {
    return { text: null, error: `The meta-prompt call failed: ${error instanceof Error ? error.message : String(error)}`, tokens: 0, usd: 0 };
  }
  const tokens = response.usage.inputTokens + response.usage.outputTokens;
  const usd = response.costUsd ?? (deps.pricing ? ((await deps.pricing.price(input.modelId, response.usage, new Date().toISOString())).costUsd ?? 0) : 0);
  try {
    return { text: parseProposedTemplate(response.text), error: null, tokens, usd };
  } catch (error) {
    return { text: null, error: error instanceof Error ? error.message : String(error), tokens, usd };
  }
}
