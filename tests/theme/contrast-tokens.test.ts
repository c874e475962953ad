import { readFileSync } from "node:fs";
import Color from "colorjs.io";
import { describe, expect, it } from "vitest";

/**
 * The colour tokens meet WCAG 2.1 contrast (1.4.3: 4.5:1 for text; 1.4.11:
 * 3:1 for the focus ring) in both themes, computed from the CSS itself:
 * Tailwind 4's default palette (node_modules/tailwindcss/theme.css), the
 * app's `@theme` overrides and the dark theme's `html.dark` block
 * (app/globals.css). The pairs are the ones the components use: secondary and
 * body text on the page surfaces, coloured text (badges, notices, verdicts)
 * on its own tint. Ratios by the WCAG 2.1 relative-luminance formula
 * (colorjs.io `contrast(…, "WCAG21")`).
 */

const TOKEN = /--color-([a-z]+(?:-\d+)?):\s*([^;]+);/g;

function tokens(css: string): Record<string, string> {
  const found: Record<string, string> = {};
  for (const match of css.matchAll(TOKEN)) if (match[1] && match[2]) found[match[1]] = match[2].trim();
  return found;
}

/** The CSS between `start` and its matching closing brace. */
function block(css: string, start: string): string {
  const from = css.indexOf(start);
  if (from < 0) throw new Error(`no ${start} in app/globals.css`);
  let depth = 0;
  for (let index = css.indexOf("{", from); index < css.length; index += 1) {
    if (css[index] === "{") depth += 1;
    if (css[index] === "}" && (depth -= 1) === 0) return css.slice(from, index);
  }
  throw new Error(`${start} is not closed`);
}

const globals = readFileSync("app/globals.css", "utf8");
const tailwind = tokens(readFileSync("node_modules/tailwindcss/theme.css", "utf8"));
const light = { ...tailwind, ...tokens(block(globals, "@theme")) };
const dark = { ...light, ...tokens(block(globals, "html.dark {")) };
const THEMES = { light, dark } as const;

/** WCAG 2.1 contrast ratio of two tokens of a theme. */
function ratio(theme: Record<string, string>, foreground: string, background: string): number {
  const fg = theme[foreground];
  const bg = theme[background];
  if (!fg || !bg) throw new Error(`unknown token ${fg ? background : foreground}`);
  return new Color(fg).contrast(new Color(bg), "WCAG21");
}

const SURFACES = ["white", "slate-50", "slate-100"] as const;
const HUES = ["sky", "red", "amber", "green", "violet", "rose", "orange", "teal", "emerald"] as const;

/** [text, background] pairs that must reach 4.5:1. */
const TEXT_PAIRS: Array<[string, string]> = [
  // Body and secondary text on the page, card and panel surfaces.
  ...["slate-500", "slate-600", "slate-700", "slate-800", "slate-900"].flatMap((text) => SURFACES.map((surface): [string, string] => [text, surface])),
  // Secondary text inside a selected or tinted row (a picked task, a notice).
  ...HUES.map((hue): [string, string] => ["slate-500", `${hue}-50`]),
  // Coloured text: on the surfaces and its own -50 tint (700 and darker), on its -100 tint (800 and darker: badges).
  ...HUES.flatMap((hue) => ["700", "800", "900"].flatMap((shade) => [...SURFACES, `${hue}-50`].map((surface): [string, string] => [`${hue}-${shade}`, surface]))),
  ...HUES.flatMap((hue) => ["800", "900"].map((shade): [string, string] => [`${hue}-${shade}`, `${hue}-100`])),
  ...["slate-700", "slate-800"].map((text): [string, string] => [text, "slate-100"]),
  // Primary buttons and the active phone tab: white on slate-900.
  ["white", "slate-900"],
  // A trial's lane header is slate-900: its light texts (memory, evicted count, code verdicts).
  ...["slate-300", "slate-400", "amber-200", "red-300", "green-300"].map((text): [string, string] => [text, "slate-900"]),
];

describe.each(Object.keys(THEMES) as Array<keyof typeof THEMES>)("%s theme", (name) => {
  const theme = THEMES[name];

  it("every text token reaches 4.5:1 on the backgrounds it is used on", () => {
    const failing = TEXT_PAIRS.map(([text, background]) => ({ pair: `${text} on ${background}`, ratio: Number(ratio(theme, text, background).toFixed(2)) })).filter((entry) => entry.ratio < 4.5);
    expect(failing).toEqual([]);
  });

  it("the focus ring (sky-600) reaches 3:1 against the surfaces", () => {
    for (const surface of SURFACES) expect(ratio(theme, "sky-600", surface), `sky-600 on ${surface}`).toBeGreaterThanOrEqual(3);
  });
});

describe("the measured ratios that motivated the overrides", () => {
  it("Tailwind's slate-500 fails where the app's passes", () => {
    // Secondary text in the dark theme: Tailwind's slate-500 (the swap keeps 500 as it is) on the dark surface.
    expect(ratio({ ...dark, "tw-slate-500": tailwind["slate-500"]! }, "tw-slate-500", "white")).toBeLessThan(4.5);
    expect(ratio(dark, "slate-500", "white")).toBeGreaterThanOrEqual(4.5);
    // …and in the light theme on slate-100.
    expect(ratio({ ...light, "tw-slate-500": tailwind["slate-500"]! }, "tw-slate-500", "slate-100")).toBeLessThan(4.5);
    expect(ratio(light, "slate-500", "slate-100")).toBeGreaterThanOrEqual(4.5);
  });
});
