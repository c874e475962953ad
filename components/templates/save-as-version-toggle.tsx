"use client";

import { useId } from "react";

/** The Steer tab's "also save as a new version" choice: null = off, else the version's message. */
export type SaveAsVersion = { message: string } | null;

/**
 * A checkbox and a message field under a mid-run prompt edit: when ticked, the
 * edit also saves its text as a new version of the run's template in the
 * library (`saveAsVersion` of the prompt edit), so the wording can be reused
 * in other runs and compared (A/B). Built-ins are read-only: an edit of one
 * goes into a new template whose first version's parent is the built-in's.
 */
export function SaveAsVersionToggle({ role, value, onChange, disabled }: { role: "actor" | "reflector"; value: SaveAsVersion; onChange: (value: SaveAsVersion) => void; disabled?: boolean }) {
  const id = useId();
  return (
    <div className="space-y-1 text-[11px] text-slate-700" data-testid={`prompt-save-as-version-${role}`}>
      <label className="flex items-center gap-1.5">
        <input type="checkbox" className="accent-sky-700" checked={value !== null} disabled={disabled} onChange={(event) => onChange(event.target.checked ? { message: "" } : null)} data-testid={`save-as-version-${role}`} />
        Also save as a new version in the template library
      </label>
      {value !== null ? <p className="text-slate-500">A built-in template stays as it is: your text becomes the first version of a new template edited from it.</p> : null}
      {value !== null ? (
        <input
          id={id}
          aria-label="Version message"
          data-testid={`save-as-version-message-${role}`}
          value={value.message}
          maxLength={500}
          disabled={disabled}
          placeholder="Message: what changed and why"
          onChange={(event) => onChange({ message: event.target.value })}
          className="block w-full rounded-md border border-slate-300 bg-white px-2 py-1 text-xs text-slate-900 focus:border-sky-600 focus:outline-none focus:ring-1 focus:ring-sky-600"
        />
      ) : null}
    </div>
  );
}
