import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  fitReflectionInput,
  isShortened,
  OBSERVATION_TOKEN_LIMIT,
  OMITTED_OBSERVATION,
  REFLECTION_TOKEN_BUDGET,
  shortenedMarker,
  shortenLongObservations,
  shortenObservation,
  shrinkToFit,
} from "@/lib/domain/context-budget";
import { isContextLengthText, readContextLengthError } from "@/lib/domain/context-length";
import type { TrajectoryStep } from "@/lib/domain/environment";
import { environmentEntry } from "@/lib/environments/registry";
import { budgetTokens } from "@/lib/domain/tokenizer";
import { renderTrajectory } from "@/lib/environments/qa/prompts";
import { shrinkTarget } from "@/lib/engine/context-length-retry";

const sentence = (i: number) => `In its season ${i} the opera toured the valley towns and the chorus sang of frost on the kilns.`;
const article = Array.from({ length: 240 }, (_, i) => sentence(i + 1)).join(" ");
const step = (n: number, observation: string, thought = `Thought number ${n}.`): TrajectoryStep => ({ step: n, thought, actionText: `Search[Page ${n}]`, observation });

describe("shortenObservation", () => {
  it("leaves an observation within the limit alone", () => {
    const paragraph = article.slice(0, 1_500);
    expect(budgetTokens(paragraph)).toBeLessThanOrEqual(OBSERVATION_TOKEN_LIMIT);
    expect(shortenObservation(paragraph)).toBe(paragraph);
  });

  it("keeps the head of a long one, cut at a sentence end, within the limit, then the marker with the full size", () => {
    const short = shortenObservation(article);
    const marker = shortenedMarker(article.length, budgetTokens(article));
    expect(marker).toMatch(/^\[… observation shortened: [\d,]+ chars \/ ~[\d,]+ tokens; full text in the log\]$/);
    expect(short.endsWith(` ${marker}`)).toBe(true);
    const head = short.slice(0, -marker.length - 1);
    expect(article.startsWith(head)).toBe(true);
    expect(head.endsWith("kilns.")).toBe(true);
    expect(budgetTokens(head)).toBeLessThanOrEqual(OBSERVATION_TOKEN_LIMIT);
    expect(budgetTokens(head)).toBeGreaterThan(OBSERVATION_TOKEN_LIMIT * 0.7);
    expect(isShortened(short)).toBe(true);
    expect(shortenObservation(article)).toBe(short); // memoised, same result
  });

  it("shortenLongObservations returns the same array when nothing is long, and never modifies its input", () => {
    const steps = [step(1, "short"), step(2, "also short")];
    expect(shortenLongObservations(steps)).toBe(steps);
    const long = [step(1, article), step(2, "short")];
    const out = shortenLongObservations(long);
    expect(long[0]!.observation).toBe(article);
    expect(out[0]!.observation).toContain("[… observation shortened:");
    expect(out[1]).toBe(long[1]);
  });
});

describe("fitReflectionInput (reference §2.6)", () => {
  it("shrinks the longest observations first until the trajectory is within 1600 tokens", () => {
    const medium = article.slice(0, 1_900); // under the observation limit, so only the budget cuts it
    const steps = [step(1, medium), step(2, medium.slice(0, 1_800)), step(3, medium.slice(0, 1_700)), step(4, medium.slice(0, 1_600)), step(5, "Could not find [x].")];
    expect(budgetTokens(renderTrajectory(steps))).toBeGreaterThan(REFLECTION_TOKEN_BUDGET);
    const fitted = fitReflectionInput(steps, renderTrajectory);
    expect(budgetTokens(renderTrajectory(fitted))).toBeLessThanOrEqual(REFLECTION_TOKEN_BUDGET);
    // Longest first: the first (longest) observations went, the shorter ones stayed.
    expect(fitted[0]!.observation).toBe(OMITTED_OBSERVATION);
    expect(fitted.at(-1)!.observation).toBe("Could not find [x].");
    expect(fitted.map((s) => s.thought)).toEqual(steps.map((s) => s.thought));
  });

  it("applies per family as each reference does: QA 1600 tokens, household and code the whole trial (long observations still shortened)", () => {
    const budget = (id: string) => environmentEntry(id).family.reflectionTokenBudget;
    expect(budget("qa")).toBe(1_600);
    expect(budget("household")).toBeUndefined();
    expect(budget("code")).toBeUndefined();
    expect(budget("open")).toBeUndefined();
    const steps = [step(1, article.slice(0, 1_900)), step(2, article.slice(0, 1_900)), step(3, article.slice(0, 1_900)), step(4, article)];
    const whole = fitReflectionInput(steps, renderTrajectory, null);
    expect(whole.slice(0, 3)).toEqual(steps.slice(0, 3));
    expect(whole[3]!.observation).toContain("[… observation shortened:");
  });

  it("stops when nothing is left to shrink (pitfall 8): thoughts are never cut", () => {
    const steps = [step(1, "obs", "t".repeat(8_000))];
    expect(fitReflectionInput(steps, renderTrajectory)).toEqual(steps);
  });
});

describe("shrinkToFit", () => {
  const question = "Which river runs through the town where the opera The Glass Orchard was first staged?";
  const memory = "Reflections:\n- Search the opera first, then the town it names.";
  const renderPrompt = (steps: readonly TrajectoryStep[]) => `Examples…\n${memory}\nQuestion: ${question}${renderTrajectory(steps)}\nThought ${steps.length + 1}:`;

  it("omits the longest observations first, then leaves out the oldest steps and says which", () => {
    const steps = [step(1, article.slice(0, 2_000)), step(2, article.slice(0, 400)), step(3, "Could not find [Dunmere River].")];
    const first = shrinkToFit(steps, renderPrompt, budgetTokens(renderPrompt(steps)) - 100, budgetTokens);
    expect(first).toMatchObject({ omittedObservations: 1, droppedSteps: 0, fits: true });
    expect(first.steps[0]!.observation).toBe(OMITTED_OBSERVATION);
    // Room for the newest step (and the note) only.
    const tight = shrinkToFit(steps, renderPrompt, budgetTokens(renderPrompt([{ ...steps[2]!, observation: OMITTED_OBSERVATION }])) + 20, budgetTokens);
    expect(tight).toMatchObject({ droppedSteps: 2, fits: true });
    expect(tight.steps.map((s) => s.step)).toEqual([3]);
    expect(tight.steps[0]!.thought).toBe("[steps 1–2 left out to fit the context window] Thought number 3.");
    expect(renderPrompt(tight.steps)).toContain(`Question: ${question}`);
  });

  const stepsArb = fc.array(
    fc.record({
      thought: fc.string({ maxLength: 200 }),
      actionText: fc.string({ maxLength: 40 }),
      observation: fc.oneof(fc.string({ maxLength: 300 }), fc.integer({ min: 0, max: 6_000 }).map((n) => article.slice(0, n))),
    }),
    { maxLength: 8 },
  );

  it("property: never throws, never touches the question or the memory, and fits whenever the fixed part does", () => {
    fc.assert(
      fc.property(stepsArb, fc.integer({ min: 0, max: 4_000 }), (raw, target) => {
        const steps = raw.map((s, i) => ({ ...s, step: i + 1 }));
        const result = shrinkToFit(steps, renderPrompt, target, budgetTokens);
        const prompt = renderPrompt(result.steps);
        expect(prompt.startsWith(`Examples…\n${memory}\nQuestion: ${question}`)).toBe(true);
        expect(result.tokens).toBe(budgetTokens(prompt));
        if (budgetTokens(renderPrompt([])) <= target) expect(result.fits).toBe(true);
        expect(result.fits).toBe(result.tokens <= target);
        // Steps kept are the newest ones, in order.
        expect(result.steps.map((s) => s.step)).toEqual(steps.slice(result.droppedSteps).map((s) => s.step));
      }),
      { numRuns: 60 },
    );
  });
});

describe("context-length errors as providers word them", () => {
  it.each([
    ["OpenAI", "This model's maximum context length is 4097 tokens. However, your messages resulted in 9812 tokens. Please reduce the length of the messages.", 4_097, 9_812],
    ["OpenAI with completion", "This model's maximum context length is 128000 tokens. However, you requested 130500 tokens (130244 in the messages, 256 in the completion).", 128_000, 130_244],
    ["Anthropic", "prompt is too long: 215234 tokens > 200000 maximum", 200_000, 215_234],
    ["Anthropic with max_tokens", "input length and `max_tokens` exceed context limit: 197000 + 8192 > 200000, decrease input length or `max_tokens` and try again", 200_000, 197_000],
    ["vLLM", "This model's maximum context length is 4096 tokens and your request has 3500 input tokens (1000 > 4096 - 3500).", 4_096, 3_500],
    ["vLLM decoder", "The decoder prompt (length 5000) is longer than the maximum model length of 4096.", 4_096, 5_000],
    ["llama.cpp", '{"error":{"code":400,"message":"the request exceeds the available context size, try increasing it","type":"exceed_context_size_error","n_prompt_tokens":5120,"n_ctx":4096}}', 4_096, 5_120],
    ["LM Studio", "Trying to keep the first 5000 tokens when context the overflows. However, the model is loaded with context length of only 4096 tokens, which is not enough.", 4_096, 5_000],
    ["OpenAI Responses", "Your input exceeds the context window of this model. Please adjust your input and try again.", null, null],
  ])("%s", (_who, text, maxTokens, promptTokens) => {
    expect(readContextLengthError(text)).toEqual({ maxTokens, promptTokens });
  });

  it("other 400s are not context-length errors", () => {
    for (const text of ["model 'nope' does not exist", "Unsupported parameter: 'stop' is not supported with this model.", "max_tokens is too large: 100000"]) {
      expect(isContextLengthText(text)).toBe(false);
    }
  });
});

describe("shrinkTarget", () => {
  const window = { tokens: 128_000, source: "table" as const };
  it("fits the stated window minus the completion, with a margin, in our count", () => {
    // Provider and we agree on the count: 95 % of (4,097 − 256).
    expect(shrinkTarget(9_812, { maxTokens: 4_097, promptTokens: 9_812 }, 256, window)).toBe(Math.floor(0.95 * (4_097 - 256)));
    // The provider counts twice as many: our budget is half.
    expect(shrinkTarget(5_000, { maxTokens: 8_000, promptTokens: 10_000 }, 0, window)).toBe(Math.floor((0.95 * 8_000) / 2));
  });
  it("without numbers: the model's window, or half the prompt when the window says it fits", () => {
    expect(shrinkTarget(200_000, { maxTokens: null, promptTokens: null }, 1_000, window)).toBe(Math.floor(0.95 * 127_000));
    expect(shrinkTarget(6_000, { maxTokens: null, promptTokens: null }, 256, window)).toBe(3_000);
  });
});
