import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { THEME_INIT_SCRIPT, THEME_STORAGE_KEY, parseThemePreference, resolveTheme } from "@/components/theme/theme-script";

/** Runs the inline <head> script against a stub browser and returns what it set on <html>. */
function runInit(stored: string | null, systemDark: boolean, storageThrows = false) {
  const classes = new Set<string>();
  const root = {
    classList: { toggle: (name: string, on: boolean) => (on ? classes.add(name) : classes.delete(name)) },
    style: { colorScheme: "" },
  };
  runInNewContext(THEME_INIT_SCRIPT, {
    localStorage: {
      getItem: (key: string) => {
        if (storageThrows) throw new Error("blocked");
        return key === THEME_STORAGE_KEY ? stored : null;
      },
    },
    window: { matchMedia: (query: string) => ({ matches: query === "(prefers-color-scheme: dark)" && systemDark }) },
    document: { documentElement: root },
  });
  return { dark: classes.has("dark"), colorScheme: root.style.colorScheme };
}

describe("the theme init script", () => {
  it.each([
    [null, false],
    [null, true],
    ["light", true],
    ["dark", false],
    ["system", true],
    ["garbage", false],
  ] as const)("stored %s, system dark %s: the same theme as resolveTheme", (stored, systemDark) => {
    const expected = resolveTheme(parseThemePreference(stored), systemDark);
    expect(runInit(stored, systemDark)).toEqual({ dark: expected === "dark", colorScheme: expected });
  });

  it("blocked storage follows the system", () => {
    expect(runInit("light", true, true)).toEqual({ dark: true, colorScheme: "dark" });
  });

  it("parses only light and dark; anything else is system", () => {
    expect(["light", "dark", "system", "", null, "DARK"].map(parseThemePreference)).toEqual(["light", "dark", "system", "system", "system", "system"]);
  });
});
