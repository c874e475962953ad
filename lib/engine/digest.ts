import { createHash } from "node:crypto";
import type { MemoryItem } from "@/lib/domain/events";
import type { RunState, TrialView } from "@/lib/domain/fold-run";

/**
 * JSON of one trial's part of the digest, per folded trial object. The engine
 * folds incrementally and writes two checkpoints per trial, so without this
 * every checkpoint re-serialised every earlier trial (O(trials) per checkpoint).
 * Each entry keeps the values it was made from and is used only while they are
 * unchanged, so the digest is always that of the state as it is now.
 */
const trialJson = new WeakMap<TrialView, { outcome: TrialView["outcome"]; answer: string | null; steps: number; reflection: string | null; json: string }>();

/** JSON of one memory item's part of the digest (`[id, text]`), per item object, checked the same way. */
const memoryJson = new WeakMap<MemoryItem, { id: string; text: string; json: string }>();

function trialPart(trial: TrialView): string {
  const reflection = trial.reflection?.text ?? null;
  const cached = trialJson.get(trial);
  if (cached && cached.outcome === trial.outcome && cached.answer === trial.answer && cached.steps === trial.steps.length && cached.reflection === reflection) {
    return cached.json;
  }
  // Same keys in the same order as before the cache existed: digests of existing logs stay valid.
  const json = JSON.stringify({ trial: trial.trial, outcome: trial.outcome, answer: trial.answer, steps: trial.steps.length, reflection });
  trialJson.set(trial, { outcome: trial.outcome, answer: trial.answer, steps: trial.steps.length, reflection, json });
  return json;
}

function memoryPart(item: MemoryItem): string {
  const cached = memoryJson.get(item);
  if (cached && cached.id === item.id && cached.text === item.text) return cached.json;
  const json = JSON.stringify([item.id, item.text]);
  memoryJson.set(item, { id: item.id, text: item.text, json });
  return json;
}

/**
 * A digest of the parts of a folded state that later trials depend on: each
 * trial's outcome, answer, step count and reflection, and the episodic memory
 * (ids and texts). Written into `checkpoint` events; folding the log up to a
 * checkpoint must reproduce it.
 *
 * The hashed text is `JSON.stringify({ trials: [{ trial, outcome, answer, steps,
 * reflection }, …], memory: [[id, text], …] })`, assembled from per-trial and
 * per-item pieces that are cached on the folded objects (see `trialJson`).
 *
 * @returns a SHA-256 hex string.
 */
export function digestState(state: RunState): string {
  const text = `{"trials":[${state.trials.map(trialPart).join(",")}],"memory":[${state.memory.map(memoryPart).join(",")}]}`;
  return createHash("sha256").update(text).digest("hex");
}
