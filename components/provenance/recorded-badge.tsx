import type { Provenance } from "@/lib/domain/provenance";
import { Badge } from "@/components/ui/badge";
import { cn } from "@/lib/utils/cn";

/** The badge's words: "Recorded by the authors, 2023" (the year as logged). */
export function recordedLabel(provenance: Pick<Provenance, "year">): string {
  return `Recorded by the authors, ${provenance.year}`;
}

/**
 * The tooltip of the badge: the model as the authors logged it, the source file
 * and every caveat of the import (e.g. "trajectories were not published"), one
 * per line.
 */
export function provenanceTitle(provenance: Pick<Provenance, "model" | "source" | "notes" | "label">): string {
  return [
    `${provenance.label} — imported from the Reflexion authors' published logs (read-only; fork to continue live).`,
    `Model: ${provenance.model}`,
    `Source: ${provenance.source}`,
    ...provenance.notes.map((note) => `Note: ${note}`),
  ].join("\n");
}

/**
 * "Recorded by the authors, 2023": marks a run or experiment imported from the
 * paper's own logs (lib/domain/provenance.ts) wherever it is shown. Renders
 * nothing for runs made here (`provenance` null or undefined).
 */
export function RecordedBadge({ provenance, className, showModel = false }: { provenance: Provenance | null | undefined; className?: string; showModel?: boolean }) {
  if (!provenance) return null;
  return (
    <Badge
      tone="amber"
      className={cn("ring-1 ring-inset ring-amber-300", className)}
      data-testid="recorded-badge"
      data-source={provenance.source}
      title={provenanceTitle(provenance)}
      aria-label={`${recordedLabel(provenance)}: ${provenance.model}, from ${provenance.source}`}
    >
      <span aria-hidden>●</span>
      {recordedLabel(provenance)}
      {showModel ? <span className="font-normal">· {provenance.model}</span> : null}
    </Badge>
  );
}
