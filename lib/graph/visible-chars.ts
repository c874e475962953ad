/**
 * Makes invisible and confusable characters in answers visible
 * (decision 0020). EM and F1 compare answers after the official normalisation
 * (lib/environments/qa/exact-match.ts), which keeps every non-ASCII character:
 * a zero-width space, a no-break space or a Unicode dash or quote makes two
 * answers that look alike differ. The inspector draws each such character as a
 * marker naming its code point, so a researcher sees why an answer that reads
 * right scored 0.
 */

/** A run of ordinary text, or one character drawn as a marker. */
export type VisibleSegment =
  | { kind: "text"; text: string }
  | {
      kind: "mark";
      /** The character itself. */
      char: string;
      /** `U+200B`. */
      code: string;
      /** A short name: `zero-width space`. */
      name: string;
      /** `invisible` (draws nothing or like a space) or `confusable` (looks like an ASCII character it is not). */
      why: "invisible" | "confusable";
    };

/** Names of the characters we flag, by code point. */
const NAMED: Readonly<Record<number, [name: string, why: "invisible" | "confusable"]>> = {
  0x00a0: ["no-break space", "invisible"],
  0x00ad: ["soft hyphen", "invisible"],
  0x034f: ["combining grapheme joiner", "invisible"],
  0x061c: ["Arabic letter mark", "invisible"],
  0x115f: ["Hangul choseong filler", "invisible"],
  0x1160: ["Hangul jungseong filler", "invisible"],
  0x1680: ["Ogham space mark", "invisible"],
  0x180e: ["Mongolian vowel separator", "invisible"],
  0x200b: ["zero-width space", "invisible"],
  0x200c: ["zero-width non-joiner", "invisible"],
  0x200d: ["zero-width joiner", "invisible"],
  0x200e: ["left-to-right mark", "invisible"],
  0x200f: ["right-to-left mark", "invisible"],
  0x2028: ["line separator", "invisible"],
  0x2029: ["paragraph separator", "invisible"],
  0x202f: ["narrow no-break space", "invisible"],
  0x205f: ["medium mathematical space", "invisible"],
  0x2060: ["word joiner", "invisible"],
  0x3000: ["ideographic space", "invisible"],
  0x3164: ["Hangul filler", "invisible"],
  0xfeff: ["zero-width no-break space (BOM)", "invisible"],
  0xffa0: ["halfwidth Hangul filler", "invisible"],
  0x2010: ["hyphen", "confusable"],
  0x2011: ["non-breaking hyphen", "confusable"],
  0x2012: ["figure dash", "confusable"],
  0x2013: ["en dash", "confusable"],
  0x2014: ["em dash", "confusable"],
  0x2212: ["minus sign", "confusable"],
  0x2018: ["left single quote", "confusable"],
  0x2019: ["right single quote", "confusable"],
  0x201a: ["low single quote", "confusable"],
  0x201c: ["left double quote", "confusable"],
  0x201d: ["right double quote", "confusable"],
  0x201e: ["low double quote", "confusable"],
  0x2032: ["prime", "confusable"],
  0x2033: ["double prime", "confusable"],
  0xff0c: ["fullwidth comma", "confusable"],
  0xff0e: ["fullwidth full stop", "confusable"],
};

/**
 * Cyrillic and Greek letters that look like Latin ones (a homoglyph in a Latin
 * word is a different token to EM and F1): flagged only in text that also has a
 * Latin letter, so a Russian or Greek answer is left alone.
 */
const HOMOGLYPHS: ReadonlySet<string> = new Set([..."АВЕКМНОРСТХаеорсухіјѕԁһӏΑΒΕΖΗΙΚΜΝΟΡΤΥΧον"]);

function codeOf(char: string): string {
  return `U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}`;
}

/** The flag for one character, or null when it is ordinary. */
function flag(char: string, latinText: boolean): Omit<Extract<VisibleSegment, { kind: "mark" }>, "kind" | "char" | "code"> | null {
  const point = char.codePointAt(0) ?? 0;
  const named = NAMED[point];
  if (named) return { name: named[0], why: named[1] };
  if ((point < 0x20 && char !== "\n" && char !== "\t") || (point >= 0x7f && point < 0xa0)) return { name: "control character", why: "invisible" };
  if (point >= 0x2000 && point <= 0x200a) return { name: "typographic space", why: "invisible" };
  if ((point >= 0x202a && point <= 0x202e) || (point >= 0x2066 && point <= 0x2069)) return { name: "bidirectional control", why: "invisible" };
  if (point >= 0xfe00 && point <= 0xfe0f) return { name: "variation selector", why: "invisible" };
  if (point >= 0xe0000 && point <= 0xe007f) return { name: "tag character", why: "invisible" };
  if (latinText && HOMOGLYPHS.has(char)) return { name: point < 0x0400 ? "Greek letter like a Latin one" : "Cyrillic letter like a Latin one", why: "confusable" };
  return null;
}

/**
 * Splits `text` into ordinary runs and marked characters (by code point, so an
 * astral character is one). Ordinary text — ASCII, accented letters, CJK, `\n`,
 * `\t` — stays in text runs; joining every segment's `text` / `char` gives
 * `text` back.
 *
 * @example revealInvisible("a\u200Bb") → [{text "a"}, {mark U+200B zero-width space}, {text "b"}]
 */
export function revealInvisible(text: string): VisibleSegment[] {
  const latinText = /[A-Za-z]/.test(text);
  const segments: VisibleSegment[] = [];
  let run = "";
  for (const char of text) {
    const found = flag(char, latinText);
    if (found === null) {
      run += char;
      continue;
    }
    if (run !== "") segments.push({ kind: "text", text: run });
    run = "";
    segments.push({ kind: "mark", char, code: codeOf(char), ...found });
  }
  if (run !== "") segments.push({ kind: "text", text: run });
  return segments;
}

/** True when `text` has a character {@link revealInvisible} marks. */
export function hasHiddenCharacters(text: string): boolean {
  return revealInvisible(text).some((segment) => segment.kind === "mark");
}

/**
 * A plain-text rendering with markers, for titles, exports and tests:
 * `a⟦U+200B⟧b`.
 */
export function visibleText(text: string): string {
  return revealInvisible(text)
    .map((segment) => (segment.kind === "text" ? segment.text : `⟦${segment.code}⟧`))
    .join("");
}
