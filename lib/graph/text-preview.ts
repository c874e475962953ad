/**
 * How the UI shows large model and environment text:
 * observations, completions, reflections and prompts above a size are shown
 * collapsed with "show more", and base64 payloads and data URIs are shown as
 * placeholders with their size. Pure functions over strings: the log keeps the
 * full text; nothing here is ever rendered as HTML (the components render the
 * segments as React text nodes).
 */

/** Text longer than this many characters is collapsed at first. */
export const COLLAPSE_CHARS = 4_000;
/** Text with more lines than this is collapsed at first. */
export const COLLAPSE_LINES = 60;
/** How much of a collapsed text is shown: characters… */
export const PREVIEW_CHARS = 1_500;
/** …and lines, whichever ends first. */
export const PREVIEW_LINES = 20;
/** Graph nodes show at most this many characters (they clamp to a few lines anyway). */
export const NODE_TEXT_CHARS = 600;

/** A run of base64 this long or longer (without a data URI around it) is treated as binary. */
const BARE_BASE64_MIN = 200;

/** A piece of text to show: plain text, or a binary payload replaced by a placeholder. */
export type TextSegment =
  | { kind: "text"; text: string }
  | {
      kind: "binary";
      /** What the payload is: `data URI image/png` or `base64`. */
      label: string;
      /** Decoded size in bytes (base64: 3 bytes per 4 characters, less padding). */
      bytes: number;
      /** Characters of the original text the placeholder stands for. */
      chars: number;
    };

// data:[<media type>][;param=value]*;base64,<payload>   (RFC 2397); bare runs of the base64 alphabet.
const BINARY = new RegExp(
  String.raw`data:([a-z0-9.+-]+/[a-z0-9.+-]+)?((?:;[a-z0-9.+-]+=[^;,\s]*)*);base64,([A-Za-z0-9+/=]+)` + "|" + String.raw`[A-Za-z0-9+/]{${BARE_BASE64_MIN},}={0,2}`,
  "gi",
);

/** Decoded size of a base64 payload, in bytes. */
export function base64Bytes(payload: string): number {
  const clean = payload.replace(/[^A-Za-z0-9+/=]/g, "");
  const padding = clean.endsWith("==") ? 2 : clean.endsWith("=") ? 1 : 0;
  return Math.max(0, Math.floor((clean.length * 3) / 4) - padding);
}

/** `512 B`, `48.2 KB`, `1.3 MB` (1 KB = 1,024 bytes). */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** The placeholder text of a binary segment, e.g. `[data URI image/png · 48.2 KB]`. */
export function placeholderText(segment: Extract<TextSegment, { kind: "binary" }>): string {
  return `[${segment.label} · ${formatBytes(segment.bytes)}]`;
}

/**
 * Splits `text` into plain text and binary payloads (data URIs with `;base64,`
 * and bare base64 runs of at least 200 characters). Bare runs that are plain
 * words (no digit, `+` or `/`) are left as text, so a long identifier is not
 * mistaken for binary.
 */
export function segmentText(text: string): TextSegment[] {
  const segments: TextSegment[] = [];
  let last = 0;
  for (const match of text.matchAll(BINARY)) {
    const whole = match[0];
    const start = match.index;
    const isDataUri = whole.toLowerCase().startsWith("data:");
    if (!isDataUri && !/[0-9+/]/.test(whole)) continue;
    if (start > last) segments.push({ kind: "text", text: text.slice(last, start) });
    const payload = isDataUri ? (match[3] ?? "") : whole;
    segments.push({
      kind: "binary",
      label: isDataUri ? `data URI${match[1] ? ` ${match[1].toLowerCase()}` : ""}` : "base64",
      bytes: base64Bytes(payload),
      chars: whole.length,
    });
    last = start + whole.length;
  }
  if (last < text.length) segments.push({ kind: "text", text: text.slice(last) });
  return segments;
}

/** `text` with every binary payload replaced by its placeholder (for one-line previews and editors). */
export function withPlaceholders(text: string): string {
  return segmentText(text)
    .map((segment) => (segment.kind === "text" ? segment.text : placeholderText(segment)))
    .join("");
}

/** Whether the UI shows `text` collapsed at first. */
export function isLongText(text: string): boolean {
  if (text.length > COLLAPSE_CHARS) return true;
  let lines = 1;
  for (let index = text.indexOf("\n"); index !== -1; index = text.indexOf("\n", index + 1)) {
    lines += 1;
    if (lines > COLLAPSE_LINES) return true;
  }
  return false;
}

/**
 * The start of a long text: at most {@link PREVIEW_CHARS} characters and
 * {@link PREVIEW_LINES} lines, cut at a line end when one is near, and how
 * much is left out (in characters, of the text given).
 */
export function textPreview(text: string): { preview: string; hiddenChars: number } {
  let end = Math.min(text.length, PREVIEW_CHARS);
  let lines = 0;
  for (let index = text.indexOf("\n"); index !== -1 && index < end; index = text.indexOf("\n", index + 1)) {
    lines += 1;
    if (lines >= PREVIEW_LINES) {
      end = index;
      break;
    }
  }
  if (end < text.length && lines < PREVIEW_LINES) {
    const lineEnd = text.lastIndexOf("\n", end);
    if (lineEnd > end * 0.6) end = lineEnd;
  }
  return { preview: text.slice(0, end), hiddenChars: text.length - end };
}

/** What a graph node shows of a text: binary payloads as placeholders, at most {@link NODE_TEXT_CHARS} characters. */
export function nodeText(text: string): string {
  const shown = text.length > NODE_TEXT_CHARS * 4 ? withPlaceholders(text.slice(0, NODE_TEXT_CHARS * 4)) : withPlaceholders(text);
  return shown.length > NODE_TEXT_CHARS ? `${shown.slice(0, NODE_TEXT_CHARS)}…` : shown;
}
