"use client";

import { useState } from "react";
import { FORK_GROUPS_MAX, type ClassReflectionGroup } from "@/lib/domain/class-session";
import { Button } from "@/components/ui/button";
import { cn } from "@/lib/utils/cn";

/**
 * The reflections students submitted at a practice step, as anonymised cards (near-duplicates
 * grouped by the server, with how many wrote each; the text shown as text, never Markdown).
 * With `onRun` (the teacher's console) each card can be picked, 1–4 of them, and
 * "Run trial N+1 with these" starts one fork per pick; without it (the projector) the cards are
 * read-only. Nicknames are shown only when the view carries them and `showNames` is on.
 */
export function ReflectionPicker({
  groups,
  trial,
  large,
  onRun,
  running,
  showNames,
}: {
  groups: readonly ClassReflectionGroup[];
  /** The trial the forks will run (the practice trial + 1). */
  trial: number;
  large: boolean;
  onRun?: (groupIds: string[]) => void;
  running?: boolean;
  showNames: boolean;
}) {
  const [picked, setPicked] = useState<string[]>([]);
  const live = picked.filter((id) => groups.some((group) => group.id === id));
  const toggle = (id: string) =>
    setPicked((current) => (current.includes(id) ? current.filter((entry) => entry !== id) : current.length >= FORK_GROUPS_MAX ? current : [...current, id]));
  return (
    <section aria-label="The class's reflections" className="mt-4" data-testid="class-reflections">
      <h3 className={cn("font-semibold text-slate-900", large ? "text-2xl" : "text-lg")}>
        {groups.length === 0 ? "No reflections yet: students write theirs on their phones" : `Reflections (${groups.reduce((sum, group) => sum + group.members, 0)})`}
      </h3>
      {onRun && groups.length > 0 ? <p className="text-base text-slate-700">Pick 1 to {FORK_GROUPS_MAX}: each runs trial {trial} on its own branch.</p> : null}
      <ul className="mt-2 grid grid-cols-1 gap-3 md:grid-cols-2">
        {groups.map((group) => {
          const on = live.includes(group.id);
          const body = (
            <>
              <span className={cn("block whitespace-pre-wrap break-words text-slate-900", large ? "text-xl" : "text-base")}>{group.text}</span>
              <span className="mt-1 block text-base text-slate-700">
                {group.members === 1 ? "1 student" : `${group.members} students wrote this`}
                {showNames && group.nicknames ? ` · ${group.nicknames.join(", ")}` : ""}
              </span>
            </>
          );
          return (
            <li key={group.id} data-testid="class-reflection" data-group-id={group.id} data-members={group.members}>
              {onRun ? (
                <label className={cn("block h-full cursor-pointer rounded-lg border bg-white p-3", on ? "border-violet-500 ring-2 ring-violet-300" : "border-slate-200")}>
                  <span className="mb-1 flex items-center gap-2 text-base font-medium text-slate-800">
                    <input type="checkbox" checked={on} onChange={() => toggle(group.id)} disabled={!on && live.length >= FORK_GROUPS_MAX} data-testid="class-reflection-pick" className="size-5" />
                    {on ? "Picked" : "Pick"}
                  </span>
                  {body}
                </label>
              ) : (
                <div className="h-full rounded-lg border border-slate-200 bg-white p-3">{body}</div>
              )}
            </li>
          );
        })}
      </ul>
      {onRun && groups.length > 0 ? (
        <Button
          variant="primary"
          className="mt-3 h-11 px-4 text-base"
          disabled={live.length === 0 || running}
          onClick={() => {
            onRun(live);
            setPicked([]);
          }}
          data-testid="class-run-forks"
        >
          {running ? "Starting…" : `Run trial ${trial} with ${live.length === 1 ? "this one" : "these"}${live.length > 0 ? ` (${live.length})` : ""}`}
        </Button>
      ) : null}
    </section>
  );
}
