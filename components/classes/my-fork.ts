import { stringSimilarity } from "string-similarity-js";
import type { ClassFork } from "@/lib/domain/class-session";

/** Similarity (string-similarity-js, 0..1) at which the server groups two reflections together. */
const SAME_GROUP = 0.8;

function normalise(text: string): string {
  return text.toLowerCase().replace(/\s+/g, " ").trim();
}

/**
 * The fork that ran the student's own reflection (or a near-duplicate the server grouped with it:
 * same normalised text, or similarity ≥ 0.8), or null. The student view carries forks' texts but
 * not which group the student is in, so this finds it by the text they submitted. Pure.
 */
export function myFork(forks: readonly ClassFork[], myReflection: string | null): ClassFork | null {
  if (!myReflection) return null;
  const mine = normalise(myReflection);
  let best: { fork: ClassFork; score: number } | null = null;
  for (const fork of forks) {
    const text = normalise(fork.text);
    const score = text === mine ? 1 : stringSimilarity(text, mine);
    if (score >= SAME_GROUP && (!best || score > best.score)) best = { fork, score };
  }
  return best?.fork ?? null;
}
