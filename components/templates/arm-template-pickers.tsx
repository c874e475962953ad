"use client";

import type { EnvironmentId, Strategy } from "@/lib/domain/config";
import { cn } from "@/lib/utils/cn";
import { TemplateVersionSelect } from "./template-version-picker";

/**
 * An experiment arm's template versions: one compact select per role (Actor,
 * Self-Reflection), default the family's built-in (""), in the arm row of
 * the "New experiment" form.
 */
export function ArmTemplatePickers({
  family,
  strategy,
  index,
  value,
  onChange,
  inputClass,
}: {
  family: EnvironmentId;
  strategy: Strategy;
  /** The arm's position (for the accessible names). */
  index: number;
  value: Partial<Record<"actor" | "reflector", string>>;
  onChange: (value: Partial<Record<"actor" | "reflector", string>>) => void;
  inputClass: string;
}) {
  return (
    <span className="flex min-w-48 flex-col gap-1" data-testid="arm-templates">
      {(["actor", "reflector"] as const).map((role) => (
        <TemplateVersionSelect
          key={role}
          family={family}
          role={role}
          strategy={strategy}
          value={value[role] ?? ""}
          onChange={(versionId) => onChange({ ...value, [role]: versionId })}
          className={cn(inputClass, "py-1 text-xs")}
          ariaLabel={`Arm ${index + 1} ${role === "actor" ? "Actor" : "Self-Reflection"} template version`}
          testId={`arm-template-${role}`}
        />
      ))}
    </span>
  );
}
