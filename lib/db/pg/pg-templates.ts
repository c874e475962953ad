import { and, desc, eq, max } from "drizzle-orm";
import type { EnvironmentId } from "@/lib/domain/config";
import { AppError } from "@/lib/domain/errors";
import { templateSchema, type Template, type TemplateRole, type TemplateVersion } from "@/lib/domain/template-library";
import { compareTemplates, templateVersionId, type NewVersion, type TemplateStore } from "../template-store";
import type { PgDb } from "./database";
import * as schema from "./schema";

/**
 * The PostgreSQL {@link TemplateStore}: same tables and rules as SQLite's. Versions
 * are only inserted (migration 0001's trigger refuses UPDATE and DELETE); saving locks the
 * template row, so two machines saving at once never take the same number.
 */
export class PgTemplateStore implements TemplateStore {
  constructor(
    private readonly db: PgDb,
    private readonly ready: () => Promise<void> = async () => undefined,
  ) {}

  async listTemplates(filter: { family?: EnvironmentId; role?: TemplateRole } = {}): Promise<Template[]> {
    await this.ready();
    const conditions = [
      filter.family === undefined ? undefined : eq(schema.templates.family, filter.family),
      filter.role === undefined ? undefined : eq(schema.templates.role, filter.role),
    ].filter((condition) => condition !== undefined);
    const rows = await this.db.select().from(schema.templates).where(conditions.length > 0 ? and(...conditions) : undefined);
    return rows.map(toTemplate).sort(compareTemplates);
  }

  async getTemplate(id: string): Promise<Template | null> {
    await this.ready();
    const [row] = await this.db.select().from(schema.templates).where(eq(schema.templates.id, id));
    return row ? toTemplate(row) : null;
  }

  async createTemplate(template: Template): Promise<Template> {
    await this.ready();
    const inserted = await this.db.insert(schema.templates).values(template).onConflictDoNothing().returning({ id: schema.templates.id });
    if (inserted.length === 0) throw new AppError("conflict", `A template with id ${template.id} exists already.`);
    return template;
  }

  async listVersions(templateId: string): Promise<TemplateVersion[]> {
    await this.ready();
    return this.db.select().from(schema.templateVersions).where(eq(schema.templateVersions.templateId, templateId)).orderBy(desc(schema.templateVersions.number));
  }

  async getVersion(versionId: string): Promise<TemplateVersion | null> {
    await this.ready();
    const [row] = await this.db.select().from(schema.templateVersions).where(eq(schema.templateVersions.id, versionId));
    return row ?? null;
  }

  async addVersion(input: NewVersion): Promise<{ version: TemplateVersion; created: boolean }> {
    await this.ready();
    const id = templateVersionId(input.templateId, input.text);
    return this.db.transaction(async (tx) => {
      const [template] = await tx.select({ id: schema.templates.id }).from(schema.templates).where(eq(schema.templates.id, input.templateId)).for("no key update");
      if (!template) throw new AppError("not-found", `No template ${input.templateId}.`);
      const [existing] = await tx.select().from(schema.templateVersions).where(eq(schema.templateVersions.id, id));
      if (existing) return { version: existing, created: false };
      if (input.parentId !== null) {
        const [parent] = await tx.select({ id: schema.templateVersions.id }).from(schema.templateVersions).where(eq(schema.templateVersions.id, input.parentId));
        if (!parent) throw new AppError("not-found", `No template version ${input.parentId} (the parent).`);
      }
      const [top] = await tx.select({ n: max(schema.templateVersions.number) }).from(schema.templateVersions).where(eq(schema.templateVersions.templateId, input.templateId));
      const version: TemplateVersion = {
        id,
        templateId: input.templateId,
        number: (top?.n ?? 0) + 1,
        parentId: input.parentId,
        text: input.text,
        message: input.message,
        createdAt: input.createdAt ?? new Date().toISOString(),
        builtIn: input.builtIn,
      };
      await tx.insert(schema.templateVersions).values(version);
      return { version, created: true };
    });
  }

  async setLabel(templateId: string, label: string, versionId: string): Promise<Template> {
    await this.ready();
    return this.db.transaction(async (tx) => {
      const [row] = await tx.select().from(schema.templates).where(eq(schema.templates.id, templateId)).for("update");
      if (!row) throw new AppError("not-found", `No template ${templateId}.`);
      const [version] = await tx.select({ templateId: schema.templateVersions.templateId }).from(schema.templateVersions).where(eq(schema.templateVersions.id, versionId));
      if (!version || version.templateId !== templateId) throw new AppError("not-found", `Template ${templateId} has no version ${versionId}.`);
      const template = toTemplate(row);
      const labels = { ...template.labels, [label]: versionId };
      await tx.update(schema.templates).set({ labels }).where(eq(schema.templates.id, templateId));
      return { ...template, labels };
    });
  }
}

function toTemplate(row: typeof schema.templates.$inferSelect): Template {
  const parsed = templateSchema.safeParse({ id: row.id, name: row.name, family: row.family, role: row.role, strategy: row.strategy, builtIn: row.builtIn, source: row.source, labels: row.labels, createdAt: row.createdAt });
  if (!parsed.success) throw new AppError("internal", `The stored template ${row.id} is damaged: ${parsed.error.issues[0]?.message ?? ""}`);
  return parsed.data;
}
