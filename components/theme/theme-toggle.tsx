"use client";

import { cn } from "@/lib/utils/cn";
import type { ThemePreference } from "./theme-script";
import { useThemePreference } from "./use-theme";

const OPTIONS: Array<{ id: ThemePreference; label: string; icon: string }> = [
  { id: "light", label: "Light theme", icon: "☀" },
  { id: "dark", label: "Dark theme", icon: "☾" },
  { id: "system", label: "Follow the system setting", icon: "◐" },
];

/** Light / dark / system, as three small radio buttons in the site header. Persisted in localStorage. */
export function ThemeToggle({ className }: { className?: string }) {
  const [preference, setPreference] = useThemePreference();
  return (
    <div role="radiogroup" aria-label="Colour theme" className={cn("flex flex-none items-center rounded-md border border-slate-200 p-0.5", className)} data-testid="theme-toggle">
      {OPTIONS.map((option) => (
        <button
          key={option.id}
          type="button"
          role="radio"
          aria-checked={preference === option.id}
          aria-label={option.label}
          title={option.label}
          data-testid={`theme-${option.id}`}
          onClick={() => setPreference(option.id)}
          className={cn(
            "h-6 w-6 rounded text-xs leading-none",
            preference === option.id ? "bg-slate-200 text-slate-900" : "text-slate-500 hover:text-slate-900",
          )}
        >
          <span aria-hidden>{option.icon}</span>
        </button>
      ))}
    </div>
  );
}
