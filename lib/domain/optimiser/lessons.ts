/**
 * Lessons in a template: a block headed {@link LESSONS_HEADER}, one `- ` line per lesson, ending at
 * the first blank line. The offline demo model's answer to the meta-prompt writes one (it adds the
 * key facts the failed trials missed, lib/environments/demo-optimiser-book.ts), and the demo reads
 * it back: an Actor template's block sits before `{memory}`, inside the memory block the QA demo
 * Actor reads its key facts from; a Self-Reflection prompt carrying one makes the demo's reflection
 * restate its lessons (lib/llm/demo-model.ts), so they reach the Actor's memory. A person may write
 * such a block by hand with the same effect. Real models read it as any other instruction.
 */

/** The first line of a lessons block. */
export const LESSONS_HEADER = "Lessons from earlier failed trials:";

/** The lesson lines of the last lessons block in `text` (without `- `), [] when there is none. */
export function lessonsOf(text: string): string[] {
  const start = text.lastIndexOf(LESSONS_HEADER);
  if (start === -1) return [];
  const lines: string[] = [];
  for (const line of text.slice(start + LESSONS_HEADER.length).split("\n").slice(1)) {
    const match = /^- (.+)$/.exec(line.trim());
    if (!match) break;
    lines.push(match[1]!.trim());
  }
  return lines;
}

function block(lines: readonly string[]): string {
  return `${LESSONS_HEADER}\n${lines.map((line) => `- ${line}`).join("\n")}\n\n`;
}

/**
 * `template` with `lessons` added to its lessons block (lessons it has already are not repeated).
 * A template without a block gets one: before `{memory}` when it has that placeholder (the Actor's
 * memory slot), else before its last line (a Self-Reflection template's closing cue stays last).
 * Returns the text unchanged when there is nothing new.
 */
export function withLessons(template: string, lessons: readonly string[]): string {
  const existing = lessonsOf(template);
  const fresh = [...new Set(lessons.map((line) => line.trim()).filter((line) => line !== "" && !existing.includes(line)))];
  if (fresh.length === 0) return template;
  const start = template.lastIndexOf(LESSONS_HEADER);
  if (start !== -1) {
    const old = block(existing);
    const at = template.indexOf(old.trimEnd(), start);
    if (at === start) return `${template.slice(0, start)}${block([...existing, ...fresh]).trimEnd()}${template.slice(start + old.trimEnd().length)}`;
  }
  const memory = template.indexOf("{memory}");
  if (memory !== -1) return `${template.slice(0, memory)}${block(fresh)}${template.slice(memory)}`;
  const trimmed = template.trimEnd();
  const lastBreak = trimmed.lastIndexOf("\n");
  if (lastBreak === -1) return `${block(fresh)}${template}`;
  return `${template.slice(0, lastBreak + 1)}${block(fresh)}${template.slice(lastBreak + 1)}`;
}
