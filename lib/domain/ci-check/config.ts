import { stringSimilarity } from "string-similarity-js";
import { parse as parseYaml } from "yaml";
import { z } from "zod";
import { environmentIdSchema, modelIdSchema, strategySchema } from "../config";
import { DEMO_MODEL_ID } from "../model-id";

/**
 * The checked-in configuration of `cli check` (`reflexion.check.json`, or YAML; docs/template-checks.md):
 * which task sets to run, which arms (strategy, model, template versions), how many repeats and
 * trials, and the assertions that gate CI. Parsed with {@link parseCheckConfig}, which names the
 * bad field of a broken file.
 */

/** A template for one role of an arm: a library reference (`tv-…` version id or `template@label`), or a checked-in text file. */
export const checkTemplateSchema = z.union([
  z.string().trim().regex(/^\S+$/, { message: "a template reference has no spaces: a version id (tv-…) or template@label, e.g. qa/reflect@v1" }),
  z.object({ file: z.string().min(1, { message: "file: the path of a template text file, relative to the config" }) }).strict(),
]);
export type CheckTemplate = z.infer<typeof checkTemplateSchema>;

/** One arm: what a run of each task is made with. */
export const checkArmSchema = z
  .object({
    label: z.string().trim().min(1).max(60),
    strategy: strategySchema,
    /** Model id of every role (`demo`, `openai:gpt-4o-mini`, …); default `demo`. */
    model: modelIdSchema.default(DEMO_MODEL_ID),
    templates: z.object({ actor: checkTemplateSchema.optional(), reflector: checkTemplateSchema.optional() }).strict().optional(),
    /** Sampling temperature of every role (default 0, the paper's). */
    temperature: z.number().min(0).max(2).optional(),
  })
  .strict();
export type CheckArm = z.infer<typeof checkArmSchema>;

/** One task set: a family and a dataset (`builtin` or a file relative to the config), optionally a subset of its task ids. */
export const checkTaskSetSchema = z
  .object({
    /** Names the task set in assertions and reports; default the family. */
    label: z.string().trim().min(1).max(60).optional(),
    family: environmentIdSchema,
    dataset: z.string().min(1),
    taskIds: z.array(z.string().min(1)).min(1).max(2_000).optional(),
  })
  .strict();
export type CheckTaskSet = z.infer<typeof checkTaskSetSchema>;

/** Comparison operators of a threshold assertion. */
export const checkOpSchema = z.enum([">=", ">", "<=", "<"]);
export type CheckOp = z.infer<typeof checkOpSchema>;

const taskSetRef = z.string().trim().min(1).optional();

/**
 * An assertion. Rates are shares in [0, 1] over the arm's runs (tasks × repeats); cost is USD.
 * - `final-success`: share of runs solved by the last trial (the arm's success-by-trial at T);
 * - `success-at-trial`: the same at trial `trial`;
 * - `false-positive-rate`: share of code runs whose last trial passed the internal tests and failed the hidden ones;
 * - `cost-per-solved`: the arm's USD over its solved runs (unpriced or nothing solved: the assertion fails);
 * - `paired`: `candidate` against `baseline` by the exact McNemar test on final success (lib/domain/paired-test.ts)
 *   at `alpha` (default 0.05): `>=` fails only when the candidate is significantly worse, `>` passes only
 *   when it is significantly better.
 */
export const checkAssertionSchema = z.discriminatedUnion("metric", [
  z.object({ metric: z.literal("final-success"), arm: z.string().min(1), op: checkOpSchema, value: z.number().min(0).max(1), taskSet: taskSetRef }).strict(),
  z.object({ metric: z.literal("success-at-trial"), arm: z.string().min(1), trial: z.number().int().min(1).max(50), op: checkOpSchema, value: z.number().min(0).max(1), taskSet: taskSetRef }).strict(),
  z.object({ metric: z.literal("false-positive-rate"), arm: z.string().min(1), op: checkOpSchema, value: z.number().min(0).max(1), taskSet: taskSetRef }).strict(),
  z.object({ metric: z.literal("cost-per-solved"), arm: z.string().min(1), op: checkOpSchema, value: z.number().min(0), taskSet: taskSetRef }).strict(),
  z
    .object({
      metric: z.literal("paired"),
      candidate: z.string().min(1),
      baseline: z.string().min(1),
      op: z.enum([">=", ">"]).default(">="),
      alpha: z.number().gt(0).lt(1).default(0.05),
      taskSet: taskSetRef,
    })
    .strict(),
]);
export type CheckAssertion = z.infer<typeof checkAssertionSchema>;

/** The whole file. */
export const checkConfigSchema = z
  .object({
    $schema: z.string().optional(),
    name: z.string().trim().min(1).max(100).default("template check"),
    taskSets: z.array(checkTaskSetSchema).min(1).max(8),
    arms: z.array(checkArmSchema).min(1).max(8),
    repeats: z.number().int().min(1).max(20).default(1),
    maxTrials: z.number().int().min(1).max(50).default(3),
    assertions: z.array(checkAssertionSchema).min(1),
  })
  .strict()
  .superRefine((config, ctx) => {
    const arms = config.arms.map((arm) => arm.label);
    if (new Set(arms).size !== arms.length) ctx.addIssue({ code: "custom", path: ["arms"], message: "arm labels must be unique" });
    const sets = config.taskSets.map(taskSetLabel);
    if (new Set(sets).size !== sets.length) ctx.addIssue({ code: "custom", path: ["taskSets"], message: "task sets need unique labels (two of one family: give each a label)" });
    config.assertions.forEach((assertion, index) => {
      const named = assertion.metric === "paired" ? ([["candidate", assertion.candidate], ["baseline", assertion.baseline]] as const) : ([["arm", assertion.arm]] as const);
      for (const [field, label] of named) {
        if (!arms.includes(label)) ctx.addIssue({ code: "custom", path: ["assertions", index, field], message: `no arm "${label}" (the arms are ${arms.map((a) => `"${a}"`).join(", ")})` });
      }
      if (assertion.metric === "paired" && assertion.candidate === assertion.baseline) ctx.addIssue({ code: "custom", path: ["assertions", index, "baseline"], message: "candidate and baseline must be two different arms" });
      if (assertion.taskSet !== undefined && !sets.includes(assertion.taskSet)) {
        ctx.addIssue({ code: "custom", path: ["assertions", index, "taskSet"], message: `no task set "${assertion.taskSet}" (the task sets are ${sets.map((s) => `"${s}"`).join(", ")})` });
      }
      if (assertion.metric === "success-at-trial" && assertion.trial > config.maxTrials) {
        ctx.addIssue({ code: "custom", path: ["assertions", index, "trial"], message: `trial ${assertion.trial} is past maxTrials (${config.maxTrials})` });
      }
    });
  });
export type CheckConfig = z.infer<typeof checkConfigSchema>;

/**
 * The config's JSON Schema (draft 2020-12, zod's `toJSONSchema` of the input shape), for editors:
 * a config may point at it with `"$schema"`. Shipped as docs/reflexion.check.schema.json
 * (`npm run cli -- check --print-schema`). The cross-field rules (known arm labels, unique labels)
 * are checked by {@link parseCheckConfig} alone; whether a family reports hidden tests (for a
 * false-positive rate) by the runner, which knows the families (lib/server/ci-check.ts).
 */
export function checkConfigJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(checkConfigSchema, { io: "input" }) as Record<string, unknown>;
}

/** A task set's name in assertions and reports: its `label`, else its family. */
export function taskSetLabel(set: Pick<CheckTaskSet, "label" | "family">): string {
  return set.label ?? set.family;
}

/** Why a config file could not be used (a JSON syntax error or a schema issue); `cli check` exits 2 on it. */
export class CheckConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "CheckConfigError";
  }
}

/** True for a config file read as YAML (`.yaml`, `.yml`); any other name is read as JSON. */
export function isYamlConfig(source: string): boolean {
  return /\.ya?ml$/i.test(source);
}

/**
 * Parses and validates a config's text: JSON, or YAML when `source` ends in `.yaml` / `.yml` (the
 * same fields; the `yaml` package, YAML 1.2).
 * @param source the file's name, for messages and to choose the syntax.
 * @throws CheckConfigError naming the file and, for each problem, the field's path (e.g. `assertions[0].value: …`).
 */
export function parseCheckConfig(text: string, source: string): CheckConfig {
  let raw: unknown;
  const yaml = isYamlConfig(source);
  try {
    raw = yaml ? parseYaml(text) : JSON.parse(text);
  } catch (error) {
    throw new CheckConfigError(`${source} is not valid ${yaml ? "YAML" : "JSON"}: ${(error as Error).message}`);
  }
  const parsed = checkConfigSchema.safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${fieldPath(issue.path) || "the file"}: ${issue.message}${missingFieldHint(raw, issue.path)}`);
    throw new CheckConfigError(`${source}: ${problems.join("; ")} (see docs/template-checks.md for the config reference)`);
  }
  return parsed.data;
}

/**
 * When an issue is about a field the object does not have at all (e.g. `metric` misspelt `metrc`, which
 * zod reports as an invalid discriminator), the keys the object does have and the closest one to the
 * expected name (Dice similarity of character bigrams, `string-similarity-js`); "" otherwise.
 */
function missingFieldHint(raw: unknown, path: ReadonlyArray<PropertyKey>): string {
  const field = path.at(-1);
  if (typeof field !== "string") return "";
  let parent: unknown = raw;
  for (const part of path.slice(0, -1)) parent = parent !== null && typeof parent === "object" ? (parent as Record<PropertyKey, unknown>)[part] : undefined;
  if (parent === null || typeof parent !== "object" || Array.isArray(parent) || field in parent) return "";
  const keys = Object.keys(parent);
  const closest = keys.map((key) => ({ key, score: stringSimilarity(key, field) })).sort((a, b) => b.score - a.score)[0];
  const guess = closest && closest.score >= 0.5 ? `; did you mean "${field}" instead of "${closest.key}"?` : "";
  return ` (there is no "${field}" field: found ${keys.map((key) => `"${key}"`).join(", ") || "none"}${guess})`;
}

/** `["assertions", 0, "value"]` → `assertions[0].value`. */
export function fieldPath(path: ReadonlyArray<PropertyKey>): string {
  return path.reduce<string>((text, part) => (typeof part === "number" ? `${text}[${part}]` : text === "" ? String(part) : `${text}.${String(part)}`), "");
}
