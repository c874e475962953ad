import { insightProvenanceSchema, type InsightProvenance } from "@/lib/domain/memory-store";

/**
 * Reads the `memory_entries.provenance` column (JSON text, SQLite and PostgreSQL alike): `{ provenance }`
 * for an ExpeL insight, `{}` for a reflection (null column) or for a value that no longer parses —
 * a damaged provenance never hides the entry itself.
 */
export function provenanceOf(column: string | null): { provenance?: InsightProvenance } {
  if (column === null) return {};
  try {
    const parsed = insightProvenanceSchema.safeParse(JSON.parse(column));
    return parsed.success ? { provenance: parsed.data } : {};
  } catch {
    return {};
  }
}
