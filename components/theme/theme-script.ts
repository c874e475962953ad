/**
 * The colour theme (decision 0022): `light`, `dark`, or
 * `system` (follows `prefers-color-scheme`, the default). The choice is kept in
 * localStorage under {@link THEME_STORAGE_KEY}; the resolved theme is the class
 * `dark` on <html> (app/globals.css swaps the colour scales under it).
 *
 * {@link THEME_INIT_SCRIPT} runs inline in <head> before the first paint, so a
 * dark page never flashes light. The CSP allows it: `script-src` has
 * `'unsafe-inline'` for Next's own inline hydration scripts
 * (lib/security/content-security-policy.js). A hash would not help: with a
 * hash in the list, browsers ignore `'unsafe-inline'` and Next's scripts stop.
 */

/** The user's choice. */
export type ThemePreference = "light" | "dark" | "system";
/** What is on screen. */
export type ResolvedTheme = "light" | "dark";

/** localStorage key of the {@link ThemePreference}. */
export const THEME_STORAGE_KEY = "reflexion-theme";

/** Reads a stored value: anything but `light` / `dark` (missing, garbage) is `system`. */
export function parseThemePreference(value: string | null | undefined): ThemePreference {
  return value === "light" || value === "dark" ? value : "system";
}

/** The theme to draw for a preference, given whether the system prefers dark. */
export function resolveTheme(preference: ThemePreference, systemPrefersDark: boolean): ResolvedTheme {
  if (preference === "system") return systemPrefersDark ? "dark" : "light";
  return preference;
}

/**
 * Plain ES5, inlined in <head>: reads the stored preference (a blocked
 * localStorage counts as `system`), resolves it against the media query and
 * sets `dark` on <html> and its `color-scheme`. Mirrors {@link resolveTheme}
 * (tests/reflection-practice/theme-script.test.ts runs it against both).
 */
export const THEME_INIT_SCRIPT = `(function(){try{var p=null;try{p=localStorage.getItem(${JSON.stringify(THEME_STORAGE_KEY)})}catch(e){}var d=p==="dark"||(p!=="light"&&window.matchMedia("(prefers-color-scheme: dark)").matches);var r=document.documentElement;r.classList.toggle("dark",d);r.style.colorScheme=d?"dark":"light"}catch(e){}})();`;

/** Applies a resolved theme to <html> (the same two effects as the init script). */
export function applyTheme(theme: ResolvedTheme, root: HTMLElement = document.documentElement): void {
  root.classList.toggle("dark", theme === "dark");
  root.style.colorScheme = theme;
}
