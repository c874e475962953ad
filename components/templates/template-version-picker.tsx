"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useEffect } from "react";
import type { EnvironmentId, Strategy } from "@/lib/domain/config";
import { versionOptions } from "@/lib/query/template-picker";
import { templateListQuery } from "@/lib/query/template-queries";
import { cn } from "@/lib/utils/cn";

const ROLE_NAME = { actor: "Actor", reflector: "Self-Reflection" } as const;

/**
 * A select of template versions for one role of a family under a strategy
 * (the library's templates that fit it), the first option being the
 * family's built-in (value ""). `value` is a version id or "".
 */
export function TemplateVersionSelect({
  family,
  role,
  strategy,
  value,
  onChange,
  className,
  ariaLabel,
  testId,
}: {
  family: EnvironmentId;
  role: "actor" | "reflector";
  strategy: Strategy;
  value: string;
  onChange: (versionId: string) => void;
  className?: string;
  ariaLabel?: string;
  testId?: string;
}) {
  const list = useQuery(templateListQuery(family));
  const options = versionOptions(list.data?.templates ?? [], family, role, strategy);
  const known = value === "" || options.some((option) => option.versionId === value);
  // Another family or strategy was chosen and the picked version does not fit it: back to the built-in.
  const stale = list.isSuccess && !known;
  useEffect(() => {
    if (stale) onChange("");
  }, [stale, onChange]);
  return (
    <select
      aria-label={ariaLabel ?? `${ROLE_NAME[role]} template version`}
      data-testid={testId ?? `template-version-${role}`}
      data-role={role}
      className={className}
      value={value}
      onChange={(event) => onChange(event.target.value)}
    >
      <option value="">Built-in (the family&apos;s default)</option>
      {!known ? <option value={value}>{value}</option> : null}
      {options.map((option) => (
        <option key={option.versionId} value={option.versionId}>
          {option.label}
        </option>
      ))}
      {list.error ? (
        <option value="" disabled>
          Could not load the template library
        </option>
      ) : null}
    </select>
  );
}

/**
 * The new-run form's template pickers: one select per role (Actor,
 * Self-Reflection), default the family's built-in; a link to the library.
 */
export function TemplateVersionPickers({
  family,
  strategy,
  value,
  onChange,
  inputClass,
}: {
  family: EnvironmentId;
  strategy: Strategy;
  value: Partial<Record<"actor" | "reflector", string>>;
  onChange: (value: Partial<Record<"actor" | "reflector", string>>) => void;
  inputClass: string;
}) {
  return (
    <fieldset className="space-y-1.5" data-testid="template-pickers">
      <legend className="text-xs font-medium text-slate-700">
        Prompt templates{" "}
        <Link href="/templates" className="font-normal text-sky-800 hover:underline">
          (library)
        </Link>
      </legend>
      <div className="grid grid-cols-2 gap-3">
        {(["actor", "reflector"] as const).map((role) => (
          <label key={role} className="space-y-1 text-[11px] text-slate-600">
            <span>{ROLE_NAME[role]}</span>
            <TemplateVersionSelect
              family={family}
              role={role}
              strategy={strategy}
              value={value[role] ?? ""}
              onChange={(versionId) => onChange({ ...value, [role]: versionId })}
              className={cn(inputClass)}
            />
          </label>
        ))}
      </div>
    </fieldset>
  );
}
