import { InvalidArgumentError, Option } from "commander";
import type { AdaptiveTrials } from "@/lib/domain/adaptive-trials";
import type { Budget } from "@/lib/domain/budget";
import type { WarmStart, WriteMemory } from "@/lib/domain/memory-store";

/**
 * The flags of `cli run`, `cli resume` and experiment arms: budgets
 * (`--budget-usd`, `--budget-tokens`), adaptive trials (`--adaptive-repeat k`,
 * `--adaptive-threshold x`, `--task-cost-ceiling usd`) and memory stores
 * (`--warm-start store[:n]`, `--write-memory store`).
 */

/** A positive number (USD). */
export function positiveNumber(value: string): number {
  const parsed = Number(value);
  if (!Number.isFinite(parsed) || parsed <= 0) throw new InvalidArgumentError("must be a number above 0 (e.g. 0.5).");
  return parsed;
}

/** A positive whole number (tokens). */
function positiveWhole(value: string): number {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed <= 0) throw new InvalidArgumentError("must be a whole number above 0 (e.g. 20000).");
  return parsed;
}

/** A similarity between 0 and 1. */
function unitInterval(value: string): number {
  const parsed = Number(value);
  if (!Number.isFinite(parsed) || parsed < 0 || parsed > 1) throw new InvalidArgumentError("must be between 0 and 1 (e.g. 0.85).");
  return parsed;
}

/** `store` or `store:n` (n newest entries, default 3). */
function warmStartArg(value: string): WarmStart {
  const match = /^([A-Za-z0-9][A-Za-z0-9._-]{0,63})(?::(\d+))?$/.exec(value.trim());
  if (!match?.[1]) throw new InvalidArgumentError("must be a store name, optionally with :n (e.g. team-qa:3).");
  return { store: match[1], maxEntries: match[2] ? Number(match[2]) : 3 };
}

/** The budget options (`run`, `resume`, `experiment` arms share them). */
export function budgetOptions(): [Option, Option] {
  return [
    new Option("--budget-usd <usd>", "stop cleanly at a step boundary once the run's live calls cost this much (status budget-exhausted; resume with a higher one)").argParser(positiveNumber),
    new Option("--budget-tokens <n>", "stop cleanly at a step boundary once the run's live calls used this many tokens (input + output)").argParser(positiveWhole),
  ];
}

/** Adaptive trial and memory store options of `run`. */
export function adaptiveAndMemoryOptions(): [Option, Option, Option, Option, Option] {
  return [
    new Option("--adaptive-repeat <k>", "end the run early when the last k (≥ 2) reflections repeat each other").argParser(positiveWhole),
    new Option("--adaptive-threshold <x>", "similarity (0–1, Dice over bigrams) at which two reflections count as the same (default 0.85)").argParser(unitInterval),
    new Option("--task-cost-ceiling <usd>", "end the run early once the task has cost this much (USD)").argParser(positiveNumber),
    new Option("--warm-start <store[:n]>", "carry the task's n newest reflections (default 3) from a memory store into trial 1").argParser(warmStartArg),
    new Option("--write-memory <store>", "write each reflection of the run into a memory store (created with a 30-day retention if missing)"),
  ];
}

/** The flags' values as parsed by commander. */
export interface BudgetFlags {
  budgetUsd?: number;
  budgetTokens?: number;
  adaptiveRepeat?: number;
  adaptiveThreshold?: number;
  taskCostCeiling?: number;
  warmStart?: WarmStart;
  writeMemory?: string;
}

/** The budget the flags ask for, or undefined when none was given. */
export function budgetFromFlags(flags: BudgetFlags): Budget | undefined {
  if (flags.budgetUsd === undefined && flags.budgetTokens === undefined) return undefined;
  return { ...(flags.budgetUsd !== undefined ? { usd: flags.budgetUsd } : {}), ...(flags.budgetTokens !== undefined ? { tokens: flags.budgetTokens } : {}) };
}

/** The create-run fields the flags ask for (budget, adaptive trials, warm start, memory writes). */
export function runExtrasFromFlags(flags: BudgetFlags): { budget?: Budget; adaptiveTrials?: AdaptiveTrials; warmStart?: WarmStart; writeMemory?: WriteMemory } {
  const adaptive =
    flags.adaptiveRepeat !== undefined || flags.taskCostCeiling !== undefined
      ? {
          similarityThreshold: flags.adaptiveThreshold ?? 0.85,
          ...(flags.adaptiveRepeat !== undefined ? { repeatWindow: flags.adaptiveRepeat } : {}),
          ...(flags.taskCostCeiling !== undefined ? { taskCostCeilingUsd: flags.taskCostCeiling } : {}),
        }
      : undefined;
  return {
    budget: budgetFromFlags(flags),
    adaptiveTrials: adaptive,
    warmStart: flags.warmStart,
    writeMemory: flags.writeMemory ? { store: flags.writeMemory } : undefined,
  };
}
