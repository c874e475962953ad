"use client";

import { useId } from "react";
import type { ModelsResponse } from "@/lib/domain/api";
import { EMPTY_ROLE_DRAFT, ROLE_LABELS, type FormRole, type RoleModelDraft, type RoleModelDrafts } from "@/lib/query/role-models";
import { cn } from "@/lib/utils/cn";
import { modelOptionLabel } from "@/lib/domain/model-id";

const ROLE_HINTS: Record<FormRole, string> = {
  actor: "Writes each Thought and Action.",
  evaluator: "The judge model (an opinion, not an oracle).",
  reflector: "Writes the lesson after a failed trial.",
};

/**
 * "Advanced: a model per role", a disclosure under the form's one
 * model picker: per role a model ("same as the run's model" by default), a temperature
 * (empty = 0, the paper's) and max output tokens (empty = the family's default). The
 * Evaluator row appears only when the family's Evaluator is a model. Used by the
 * new-run form and by each experiment arm.
 */
export function RoleModelFields({
  roles,
  models,
  value,
  onChange,
  inputClass,
  testIdPrefix = "role",
  summaryLabel = "Advanced: a model per role",
}: {
  roles: readonly FormRole[];
  models: ModelsResponse | undefined;
  value: RoleModelDrafts;
  onChange: (next: RoleModelDrafts) => void;
  inputClass: string;
  testIdPrefix?: string;
  summaryLabel?: string;
}) {
  const base = useId();
  const set = (role: FormRole, change: Partial<RoleModelDraft>) => onChange({ ...value, [role]: { ...EMPTY_ROLE_DRAFT, ...value[role], ...change } });
  const changed = roles.filter((role) => {
    const d = value[role];
    return d !== undefined && (d.modelId !== "" || d.temperature !== "" || d.maxOutputTokens !== "");
  });
  return (
    <details className="rounded-md border border-slate-200 px-3 py-2" data-testid={`${testIdPrefix}-models`} open={changed.length > 0 ? true : undefined}>
      <summary className="cursor-pointer text-xs font-medium text-slate-700">
        {summaryLabel}
        {changed.length > 0 ? <span className="ml-1 font-normal text-slate-500">({changed.map((r) => ROLE_LABELS[r]).join(", ")} set)</span> : null}
      </summary>
      <table className="mt-2 w-full text-xs">
        <thead>
          <tr className="text-left text-slate-500">
            <th className="pb-1 pr-2 font-medium">Role</th>
            <th className="pb-1 pr-2 font-medium">Model</th>
            <th className="pb-1 pr-2 font-medium">Temperature</th>
            <th className="pb-1 font-medium">Max output tokens</th>
          </tr>
        </thead>
        <tbody>
          {roles.map((role) => {
            const draft = value[role] ?? EMPTY_ROLE_DRAFT;
            const id = `${base}-${role}`;
            return (
              <tr key={role} data-testid={`${testIdPrefix}-${role}`}>
                <th scope="row" className="py-1 pr-2 text-left align-top font-medium text-slate-800">
                  <label htmlFor={`${id}-model`}>{ROLE_LABELS[role]}</label>
                  <span className="block text-[11px] font-normal text-slate-500">{ROLE_HINTS[role]}</span>
                </th>
                <td className="py-1 pr-2 align-top">
                  <select
                    id={`${id}-model`}
                    data-testid={`${testIdPrefix}-${role}-model`}
                    className={cn(inputClass, "min-w-40")}
                    value={draft.modelId}
                    disabled={!models}
                    onChange={(e) => set(role, { modelId: e.target.value })}
                  >
                    <option value="">Same as the run&apos;s model</option>
                    {models?.models.map((m) => (
                      <option key={m.id} value={m.id}>
                        {modelOptionLabel(m)}
                      </option>
                    ))}
                  </select>
                </td>
                <td className="py-1 pr-2 align-top">
                  <input
                    type="number"
                    min={0}
                    max={2}
                    step={0.1}
                    aria-label={`${ROLE_LABELS[role]} temperature`}
                    data-testid={`${testIdPrefix}-${role}-temperature`}
                    className={cn(inputClass, "w-20")}
                    placeholder="0"
                    value={draft.temperature}
                    onChange={(e) => set(role, { temperature: e.target.value })}
                  />
                </td>
                <td className="py-1 align-top">
                  <input
                    type="number"
                    min={1}
                    max={8192}
                    inputMode="numeric"
                    aria-label={`${ROLE_LABELS[role]} max output tokens`}
                    data-testid={`${testIdPrefix}-${role}-max-tokens`}
                    className={cn(inputClass, "w-24")}
                    placeholder="default"
                    value={draft.maxOutputTokens}
                    onChange={(e) => set(role, { maxOutputTokens: e.target.value })}
                  />
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <p className="mt-1 text-[11px] text-slate-500">
        Empty fields follow the reference defaults: temperature 0 and the family&apos;s token limits; stop sequences are the family&apos;s (e.g. the Actor stops
        before <code>Observation</code>). A cheap Evaluator with a strong Actor and Self-Reflection keeps five trials affordable.
      </p>
    </details>
  );
}
