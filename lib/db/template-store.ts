import { createHash } from "node:crypto";
import type { EnvironmentId } from "@/lib/domain/config";
import type { Template, TemplateRole, TemplateVersion } from "@/lib/domain/template-library";

/**
 * Storage of the template library (lib/domain/template-library.ts,
 * docs/decisions/0018-template-library.md). Versions are immutable: the
 * interface has no way to change or delete one, and the SQLite adapter also
 * refuses an UPDATE or DELETE of a version row with a trigger. Adapters:
 * SQLite (lib/db/sqlite-templates.ts) and in-memory (lib/db/memory-templates.ts);
 * contract in tests/templates/template-store-contract.ts.
 */
export interface TemplateStore {
  /** Every template matching the filter, built-ins first, then by name. */
  listTemplates(filter?: { family?: EnvironmentId; role?: TemplateRole }): Promise<Template[]>;
  getTemplate(id: string): Promise<Template | null>;
  /**
   * Stores a new template (no versions yet).
   * @throws AppError("conflict") when the id is taken.
   */
  createTemplate(template: Template): Promise<Template>;
  /** A template's versions, newest (highest number) first. */
  listVersions(templateId: string): Promise<TemplateVersion[]>;
  getVersion(versionId: string): Promise<TemplateVersion | null>;
  /**
   * Appends a version with the next number; returns the stored version. When a
   * version with the same id (same template, same text) exists, nothing is
   * written and that version is returned with `created: false`.
   * @throws AppError("not-found") for an unknown template or parent.
   */
  addVersion(input: NewVersion): Promise<{ version: TemplateVersion; created: boolean }>;
  /**
   * Points `label` at `versionId` (a version of the same template).
   * @throws AppError("not-found") for an unknown template or a version of another template.
   */
  setLabel(templateId: string, label: string, versionId: string): Promise<Template>;
}

/** What a caller gives to {@link TemplateStore.addVersion}; the id and number are the store's. */
export interface NewVersion {
  templateId: string;
  parentId: string | null;
  text: string;
  message: string;
  builtIn: boolean;
  /** ISO-8601; default now. */
  createdAt?: string;
}

/**
 * The content-addressed id of a template's version: `tv-` + the first 16 hex
 * digits of SHA-256 over the template id, a NUL and the text. The same text of
 * the same template gets the same id in every database, so files exported from
 * one clone import into another with the ids its runs recorded.
 */
export function templateVersionId(templateId: string, text: string): string {
  return `tv-${createHash("sha256").update(templateId).update("\0").update(text).digest("hex").slice(0, 16)}`;
}

/** Sort order of {@link TemplateStore.listTemplates}: built-ins first, then family, role, name, id. */
export function compareTemplates(a: Template, b: Template): number {
  if (a.builtIn !== b.builtIn) return a.builtIn ? -1 : 1;
  return a.family.localeCompare(b.family) || a.role.localeCompare(b.role) || a.name.localeCompare(b.name) || a.id.localeCompare(b.id);
}

/** Whether a template matches a {@link TemplateStore.listTemplates} filter. */
export function matchesFilter(template: Template, filter: { family?: EnvironmentId; role?: TemplateRole } = {}): boolean {
  return (filter.family === undefined || template.family === filter.family) && (filter.role === undefined || template.role === filter.role);
}
