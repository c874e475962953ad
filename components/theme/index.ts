export { THEME_INIT_SCRIPT, THEME_STORAGE_KEY, applyTheme, parseThemePreference, resolveTheme, type ResolvedTheme, type ThemePreference } from "./theme-script";
export { ThemeToggle } from "./theme-toggle";
export { useResolvedTheme, useThemePreference } from "./use-theme";
