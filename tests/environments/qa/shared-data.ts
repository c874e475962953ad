import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/**
 * The Reflexion HotpotQA sample (100 dev questions, HF layout) from the shared
 * data folder next to the repository. Read in place; never copied into the repo.
 */
export const HOTPOTQA_SAMPLE_PATH = fileURLToPath(
  new URL("../../../../shared/data/hotpotqa/hotpotqa-distractor-reflexion-sample100.json", import.meta.url),
);

/** The sample's raw text. */
export function readHotpotQaSample(): string {
  return readFileSync(HOTPOTQA_SAMPLE_PATH, "utf8");
}
