/**
 * The optimiser's meta-prompt (GEPA's reflective mutation, Agrawal et al. 2025 §3.2): a versioned,
 * editable template of role `optimiser` (one built-in per family, `<family>/optimise`) that shows a
 * model the template being optimised and failed trials — an excerpt of each trajectory, the
 * Evaluator's feedback and the reflection written — and asks for a mutated template between
 * `<template>` and `</template>`.
 *
 * Placeholders ({@link META_PROMPT_VARIABLES}): `{role}` (actor or reflector), `{family}` (qa, code,
 * household, open), `{template}` (the current text, verbatim) and `{failures}` ({@link formatFailures}).
 * Only these four are filled; any other `{name}` reaches the model as written, so the template's own
 * placeholders can be named in the instructions.
 */

/** The id of a family's built-in meta-prompt template, e.g. `qa/optimise`. */
export function metaPromptTemplateId(family: string): string {
  return `${family}/optimise`;
}

/** What the engine fills in a meta-prompt template; `template` and `failures` are required. */
export const META_PROMPT_VARIABLES = ["family", "failures", "role", "template"] as const;
export const META_PROMPT_REQUIRED = ["failures", "template"] as const;

/** The built-in meta-prompt (ours; the structure follows GEPA's reflection prompt, none of its wording). */
export const BUILT_IN_META_PROMPT = [
  "You improve a prompt template used by a Reflexion agent on {family} tasks. The template is the {role}'s prompt.",
  "",
  "The current template is between <template> and </template>:",
  "<template>",
  "{template}",
  "</template>",
  "",
  "Below are failed trials of agents that used this template. Each shows the memory the Actor had, an excerpt of the trajectory, the Evaluator's feedback and the reflection written after the trial.",
  "",
  "{failures}",
  "",
  "Work out what the failed trials have in common and what the template could tell the agent so that it does not fail that way again: facts it missed, steps it should take, mistakes to avoid. Write the improved template. Keep every placeholder in curly braces exactly as it is in the current template, and keep its format instructions.",
  "Reply with the whole improved template between <template> and </template>.",
].join("\n");

/** One failed trial as the meta-prompt shows it. */
export interface FailedTrialExcerpt {
  /** `runId#trial`. */
  id: string;
  family: string;
  taskId: string;
  strategy: string;
  trial: number;
  /** The reflections the Actor had in memory during the trial (oldest first). */
  memory: string[];
  /** The trajectory's steps, one per line (thought, action, observation), cut to {@link TRAJECTORY_EXCERPT_CHARS}. */
  trajectory: string;
  feedback: string;
  /** The reflection written after the trial; null when none was (the last trial, or `none`). */
  reflection: string | null;
}

/** How much of a trajectory a failure shows, in characters (its end is kept: that is where it failed). */
export const TRAJECTORY_EXCERPT_CHARS = 1_500;

/** The heading of each failure in `{failures}`: `=== Failed trial 2: qa/qa-builtin-03 (strategy reflexion, trial 1, run …) ===`. */
export const FAILURE_HEADING = /^=== Failed trial \d+: ([a-z]+)\/(\S+) \(strategy ([a-z-]+), trial (\d+), run (\S+)\) ===$/;

/** The `{failures}` text: one block per failure, headed as {@link FAILURE_HEADING} reads it. */
export function formatFailures(failures: readonly FailedTrialExcerpt[]): string {
  if (failures.length === 0) return "(no failed trials)";
  return failures
    .map((failure, index) => {
      const [runId] = failure.id.split("#");
      const trajectory = failure.trajectory.length > TRAJECTORY_EXCERPT_CHARS ? `…${failure.trajectory.slice(-TRAJECTORY_EXCERPT_CHARS)}` : failure.trajectory;
      return [
        `=== Failed trial ${index + 1}: ${failure.family}/${failure.taskId} (strategy ${failure.strategy}, trial ${failure.trial}, run ${runId}) ===`,
        "Memory the Actor had:",
        failure.memory.length === 0 ? "(none)" : failure.memory.map((text) => `- ${text}`).join("\n"),
        "Trajectory (excerpt):",
        trajectory || "(no steps)",
        `Evaluator feedback: ${failure.feedback || "(none)"}`,
        `Reflection written: ${failure.reflection ?? "(none)"}`,
      ].join("\n");
    })
    .join("\n\n");
}

/** A reflection people marked as good (a reviewer's correction in a gold-reflection store), shown to the meta-prompt. */
export interface GoldReflection {
  taskId: string;
  text: string;
}

/** At most this many gold reflections one proposal shows (the newest). */
export const GOLD_REFLECTIONS_PER_PROPOSAL = 5;

/**
 * The gold reflections' block, appended to `{failures}` (so every meta-prompt version shows it, and
 * the placeholders stay four): one line per reflection with its task; empty when there are none.
 */
export function formatGoldReflections(gold: readonly GoldReflection[]): string {
  if (gold.length === 0) return "";
  return [
    "=== Examples of good reflections (written or corrected by people reviewing this agent) ===",
    "A template that leads the agent to reflections like these is better:",
    ...gold.map((entry) => `- ${entry.taskId}: ${entry.text.replace(/\s+/g, " ").trim()}`),
  ].join("\n");
}

/** Fills the four meta-prompt placeholders; every other `{name}` stays as written. */
export function renderMetaPrompt(text: string, values: Record<(typeof META_PROMPT_VARIABLES)[number], string>): string {
  return text.replace(/\{(family|failures|role|template)\}/g, (_, name: keyof typeof values) => values[name]);
}

/**
 * The template a meta-prompt reply proposes: the text of its last `<template>` … `</template>`
 * block, without the newline after the opening tag and before the closing one.
 * @throws Error saying the reply has no template (or an empty one), with the reply's start.
 */
export function parseProposedTemplate(reply: string): string {
  const blocks = [...reply.matchAll(/<template>\n?([\s\S]*?)\n?<\/template>/g)];
  const text = blocks.at(-1)?.[1];
  if (text === undefined) {
    const start = reply.trim().slice(0, 120);
    throw new Error(`The model's reply has no template between <template> and </template> (it begins "${start}${reply.trim().length > 120 ? "…" : ""}"). Check the meta-prompt asks for that format.`);
  }
  if (text.trim() === "") throw new Error("The model's reply has an empty <template></template> block.");
  return text;
}
