import { traceProvenanceLabel, type Provenance } from "@/lib/domain/provenance";
import { Badge } from "@/components/ui/badge";
import { cn } from "@/lib/utils/cn";

/** The badge's words: "Recorded by the authors, 2023" (the year as logged); on a fork branch "Forked from the authors' 2023 run"; an imported trace's "Imported trace (OTLP, file x.jsonl)". */
export function recordedLabel(provenance: Pick<Provenance, "year"> & Partial<Pick<Provenance, "kind" | "traceFormat" | "source">>, forked = false): string {
  // An outside agent's trace: "Imported trace (OTLP, file agent.jsonl)".
  if (provenance.kind === "external-trace") return traceProvenanceLabel({ traceFormat: provenance.traceFormat, source: provenance.source ?? "unknown" });
  // A run that came in a bundle file.
  if (provenance.kind === "bundle") return forked ? "Forked from an imported bundle" : `Imported bundle · recorded ${provenance.year}`;
  return forked ? `Forked from the authors' ${provenance.year} run` : `Recorded by the authors, ${provenance.year}`;
}

/** Words for an upload the importer could not match to the published log (`verified === false`; a missing field is unknown: nothing said). */
export const UNVERIFIED_NOTE = "uploaded copy — not verified against the published log";

/** Whether the provenance says it was not verified against the published log (`verified === false`; absent on older records means unknown: nothing is claimed either way). */
export function isUnverified(provenance: Pick<Provenance, "verified">): boolean {
  return provenance.verified === false;
}

/**
 * The tooltip of the badge: the model as the authors logged it, the source file
 * and every caveat of the import (e.g. "trajectories were not published"), one
 * per line.
 */
export function provenanceTitle(provenance: Pick<Provenance, "model" | "source" | "notes" | "label" | "verified"> & Partial<Pick<Provenance, "kind" | "traceFormat" | "traceId">>): string {
  if (provenance.kind === "external-trace") {
    return [
      `${traceProvenanceLabel(provenance)} — an outside agent's recorded attempt, read-only (no world here to continue it in).`,
      ...(provenance.traceId ? [`Trace: ${provenance.traceId}`] : []),
      `Model: ${provenance.model}`,
      ...provenance.notes.map((note) => `Note: ${note}`),
    ].join("\n");
  }
  if (provenance.kind === "bundle") {
    return [`${provenance.label} — read-only; replay it recorded (zero model calls) or fork to continue live.`, `Model: ${provenance.model}`, `File: ${provenance.source}`, ...provenance.notes.map((note) => `Note: ${note}`)].join("\n");
  }
  return [
    `${provenance.label} — imported from the Reflexion authors' published logs (read-only; fork to continue live).`,
    ...(isUnverified(provenance) ? [`Caution: ${UNVERIFIED_NOTE}.`] : []),
    `Model: ${provenance.model}`,
    `Source: ${provenance.source}`,
    ...provenance.notes.map((note) => `Note: ${note}`),
  ].join("\n");
}

/**
 * "Recorded by the authors, 2023": marks a run or experiment imported from the
 * paper's own logs (lib/domain/provenance.ts) wherever it is shown. Renders
 * nothing for runs made here (`provenance` null or undefined). `forked`: the
 * branch shown is a fork of the recorded one (it runs here, with the model
 * picked at the fork): "Forked from the authors' 2023 run", without the logged model.
 */
export function RecordedBadge({
  provenance,
  className,
  showModel = false,
  forked = false,
}: {
  provenance: Provenance | null | undefined;
  className?: string;
  showModel?: boolean;
  forked?: boolean;
}) {
  if (!provenance) return null;
  const unverified = isUnverified(provenance);
  const label = recordedLabel(provenance, forked);
  return (
    <Badge
      tone="amber"
      className={cn("ring-1 ring-inset ring-amber-300", className)}
      data-testid="recorded-badge"
      data-source={provenance.source}
      data-forked={forked}
      data-verified={unverified ? "false" : undefined}
      title={provenanceTitle(provenance)}
      aria-label={`${label}${forked ? "" : `: ${provenance.model}`}, from ${provenance.source}${unverified ? ` (${UNVERIFIED_NOTE})` : ""}`}
    >
      <span aria-hidden>●</span>
      {label}
      {showModel && !forked ? <span className="font-normal">· {provenance.model}</span> : null}
      {unverified ? <span className="font-normal">· {UNVERIFIED_NOTE}</span> : null}
    </Badge>
  );
}
