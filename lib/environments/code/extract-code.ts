import type { CodeLanguage } from "./task";

/**
 * Pulls the program out of an Actor completion, the way the reference's
 * `parse_code_block` does (shared/docs/reflexion-reference.md §4.2): the first
 * fenced block tagged with the task's language, else the first untagged fenced
 * block, else any fenced block, else the whole completion when it looks like
 * code. Whatever is outside the block is returned as `prose` (shown as the step's
 * thought; chat models often add a sentence).
 */

/** Fence tags accepted per language (lower case). */
const TAGS: Record<CodeLanguage, readonly string[]> = {
  python: ["python", "py", "python3"],
  javascript: ["javascript", "js", "node", "jsx"],
  typescript: ["typescript", "ts", "tsx"],
};

/** What {@link extractCode} found. */
export interface ExtractedCode {
  /** The program, without fences; empty when the completion holds no code. */
  code: string;
  /** Text outside the code block, trimmed (empty when there is none). */
  prose: string;
}

const FENCE = /```([^\n`]*)\n([\s\S]*?)(?:```|$)/g;

/** Extracts the code of a completion for `language` (any of ours when absent). Never throws. */
export function extractCode(completion: string, language?: CodeLanguage): ExtractedCode {
  const tags = language ? TAGS[language] : Object.values(TAGS).flat();
  const blocks = [...completion.matchAll(FENCE)].map((match) => ({
    tag: (match[1] ?? "").trim().toLowerCase(),
    body: match[2] ?? "",
    start: match.index ?? 0,
    end: (match.index ?? 0) + match[0].length,
  }));
  const chosen =
    blocks.find((block) => tags.includes(block.tag)) ?? blocks.find((block) => block.tag === "") ?? blocks[0];
  if (chosen) {
    const prose = (completion.slice(0, chosen.start) + completion.slice(chosen.end)).trim();
    return { code: chosen.body.replace(/\s+$/, ""), prose };
  }
  const trimmed = completion.trim();
  return looksLikeCode(trimmed, language) ? { code: trimmed, prose: "" } : { code: "", prose: trimmed };
}

/** A fence-less completion counts as code when its first line starts like a program would. */
function looksLikeCode(text: string, language: CodeLanguage | undefined): boolean {
  const first = text.split("\n", 1)[0] ?? "";
  const python = /^(def |class |import |from |assert |@|#|[A-Za-z_]\w*\s*=)/;
  const js = /^(function |export |const |let |var |class |import |assert|console\.|\/\/|\/\*|[A-Za-z_$][\w$]*\s*=)/;
  if (language === "python") return python.test(first);
  if (language) return js.test(first);
  return python.test(first) || js.test(first);
}
