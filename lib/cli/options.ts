import fs from "node:fs";
import { InvalidArgumentError } from "commander";
import { decodeBuffer } from "@/lib/environments/code";

/** A commander parser for a positive integer. */
export function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError("expected a positive integer");
  return n;
}

/** A commander parser for a whole number ≥ 0. */
export function nonNegativeInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError("expected a whole number ≥ 0");
  return n;
}

/** A commander parser for an integer in [min, max], so a bad value names its flag. */
export function rangedInt(min: number, max: number) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < min || n > max) throw new InvalidArgumentError(`expected a whole number from ${min} to ${max}`);
    return n;
  };
}

/**
 * Reads a dataset file, with messages a person can act on; `.gz` files (e.g.
 * HumanEval.jsonl.gz) are gunzipped, everything else is read as UTF-8.
 * @throws Error for a missing file or a folder.
 */
export function readDatasetFile(file: string): string {
  if (!fs.existsSync(file)) throw new Error(`No such file: ${file}. Pass a dataset file path or "builtin".`);
  if (fs.statSync(file).isDirectory()) throw new Error(`${file} is a folder; pass a dataset file (a HotpotQA .json, a HumanEval .jsonl.gz, …).`);
  return decodeBuffer(fs.readFileSync(file));
}
