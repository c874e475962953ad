"use client";

import { useQuery, type QueryClient } from "@tanstack/react-query";
import type { EditRequest } from "@/lib/domain/api";
import { runQuery } from "@/lib/query";
import { templateVersionQuery } from "@/lib/query/template-queries";
import { TemplateVersionSelect } from "./template-version-picker";

/** Picked library version ids per role ("" or missing = keep the branch's template). */
export type ForkTemplateChoice = Partial<Record<"actor" | "reflector", string>>;

const ROLE_NAME = { actor: "Actor", reflector: "Self-Reflection" } as const;
const selectClass =
  "block w-full rounded-md border border-slate-300 bg-white px-2 py-1 text-xs text-slate-900 focus:border-sky-600 focus:outline-none focus:ring-1 focus:ring-sky-600";

/**
 * "Fork with another version" ("same checkpoint, template B"): per role, a
 * library version the new branch uses from the checkpoint on (default: keep
 * the branch's template). The run's family and strategy pick which templates fit.
 */
export function ForkTemplateChoiceFields({ runId, value, onChange }: { runId: string; value: ForkTemplateChoice; onChange: (value: ForkTemplateChoice) => void }) {
  const run = useQuery(runQuery(runId));
  const detail = run.data?.run;
  if (!detail) return null;
  return (
    <fieldset className="space-y-1.5" data-testid="fork-templates">
      <legend className="text-xs font-medium text-slate-700">Templates on the new branch</legend>
      <div className="grid grid-cols-2 gap-2">
        {(["actor", "reflector"] as const).map((role) => (
          <label key={role} className="space-y-0.5 text-[11px] text-slate-600">
            <span>{ROLE_NAME[role]}</span>
            <TemplateVersionSelect
              family={detail.environment}
              role={role}
              strategy={detail.strategy}
              value={value[role] ?? ""}
              onChange={(versionId) => onChange({ ...value, [role]: versionId })}
              className={selectClass}
              ariaLabel={`${ROLE_NAME[role]} template on the new branch`}
              testId={`fork-template-${role}`}
            />
          </label>
        ))}
      </div>
      <p className="text-[11px] text-slate-500">
        &ldquo;Built-in&rdquo; keeps this branch&apos;s template. A version picked here is a prompt edit right after the fork: the same checkpoint, another template.
      </p>
    </fieldset>
  );
}

/** Whether any role has a version picked. */
export function hasTemplateChoice(choice: ForkTemplateChoice): boolean {
  return Boolean(choice.actor || choice.reflector);
}

/**
 * The fork's `prompt` edits for the picked versions: each with the version's
 * text (fetched, cached for good) and its id, so the branch records which
 * version it switched to.
 */
export async function templateEditsOf(client: QueryClient, choice: ForkTemplateChoice): Promise<EditRequest[]> {
  const edits: EditRequest[] = [];
  for (const role of ["actor", "reflector"] as const) {
    const versionId = choice[role];
    if (!versionId) continue;
    const { version } = await client.fetchQuery(templateVersionQuery(versionId));
    edits.push({ kind: "prompt", role, text: version.text, versionId: version.id, note: `fork with template version ${version.id}` });
  }
  return edits;
}
