/**
 * Line numbers for errors in JSON files (the importers name file and line).
 */

/** 1-based line of a character offset in `text`. */
export function lineOfOffset(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i += 1) if (text.charCodeAt(i) === 10) line += 1;
  return line;
}

/** The offset a `JSON.parse` error message points at (V8: "… at position N" or "(line L column C)"), or null. */
export function jsonErrorLine(text: string, error: unknown): number | null {
  const message = error instanceof Error ? error.message : String(error);
  const lineColumn = /line (\d+) column \d+/.exec(message);
  if (lineColumn) return Number(lineColumn[1]);
  const position = /position (\d+)/.exec(message);
  if (position) return lineOfOffset(text, Number(position[1]));
  return null;
}

/** 1-based lines where each element of a top-level JSON array starts (a small scanner; strings and nesting respected). */
export function arrayElementLines(text: string): number[] {
  const lines: number[] = [];
  let depth = 0;
  let inString = false;
  let line = 1;
  let expectElement = false;
  for (let i = 0; i < text.length; i += 1) {
    const ch = text[i];
    if (ch === "\n") line += 1;
    if (inString) {
      if (ch === "\\") i += 1;
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === " " || ch === "\t" || ch === "\r" || ch === "\n") continue;
    if (depth === 1 && expectElement && ch !== "]") {
      lines.push(line);
      expectElement = false;
    }
    if (ch === '"') inString = true;
    else if (ch === "[" || ch === "{") {
      depth += 1;
      if (depth === 1 && ch === "[") expectElement = true;
    } else if (ch === "]" || ch === "}") depth -= 1;
    else if (ch === "," && depth === 1) expectElement = true;
  }
  return lines;
}
