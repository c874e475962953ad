import { readFileSync } from "node:fs";
import path from "node:path";

/**
 * The ReAct ALFWorld few-shot transcripts (24 entries) from the shared data
 * folder next to the repository. Read in place; never copied into the repo.
 */
export const REACT_ALFWORLD_PATH = path.resolve(process.cwd(), "../shared/data/alfworld/react-alfworld.json");

/** The transcripts file's raw text. */
export function readReactAlfworld(): string {
  return readFileSync(REACT_ALFWORLD_PATH, "utf8");
}

/** The transcripts by name. */
export function reactAlfworldTranscripts(): Record<string, string> {
  return JSON.parse(readReactAlfworld()) as Record<string, string>;
}
