import { correctionProvenanceSchema, insightProvenanceSchema, type CorrectionProvenance, type InsightProvenance } from "@/lib/domain/memory-store";
import { traceReflectionProvenanceSchema, type TraceReflectionProvenance } from "@/lib/domain/trace-reflection";

/**
 * The `memory_entries.provenance` column (JSON text, SQLite and PostgreSQL alike). It holds an ExpeL
 * insight's provenance as is, or `{ "reflectedOn": … }` for a reflection on an imported trace
 * (lib/domain/trace-reflection.ts), or `{ "correctedFrom": … }` for a reviewer's corrected reflection
 * (lib/domain/review-queue.ts), or null for a run's own reflection. Reading a value that no
 * longer parses gives `{}`: a damaged provenance never hides the entry itself.
 */
export function provenanceOf(column: string | null): { provenance?: InsightProvenance; reflectedOn?: TraceReflectionProvenance; correctedFrom?: CorrectionProvenance } {
  if (column === null) return {};
  try {
    const json: unknown = JSON.parse(column);
    if (json !== null && typeof json === "object" && "correctedFrom" in json) {
      const corrected = correctionProvenanceSchema.safeParse(json.correctedFrom);
      return corrected.success ? { correctedFrom: corrected.data } : {};
    }
    if (json !== null && typeof json === "object" && "reflectedOn" in json) {
      const reflected = traceReflectionProvenanceSchema.safeParse(json.reflectedOn);
      return reflected.success ? { reflectedOn: reflected.data } : {};
    }
    const parsed = insightProvenanceSchema.safeParse(json);
    return parsed.success ? { provenance: parsed.data } : {};
  } catch {
    return {};
  }
}

/** The column's value for an entry: its insight provenance, else its trace-reflection or correction provenance wrapped, else null. */
export function provenanceColumn(entry: { provenance?: InsightProvenance; reflectedOn?: TraceReflectionProvenance; correctedFrom?: CorrectionProvenance }): string | null {
  if (entry.provenance) return JSON.stringify(entry.provenance);
  if (entry.reflectedOn) return JSON.stringify({ reflectedOn: entry.reflectedOn });
  if (entry.correctedFrom) return JSON.stringify({ correctedFrom: entry.correctedFrom });
  return null;
}
