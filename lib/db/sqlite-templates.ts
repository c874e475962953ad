import { and, desc, eq, sql } from "drizzle-orm";
import type { BetterSQLite3Database } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import type { EnvironmentId } from "@/lib/domain/config";
import { AppError } from "@/lib/domain/errors";
import { templateSchema, type Template, type TemplateRole, type TemplateVersion } from "@/lib/domain/template-library";
import { MIGRATIONS_FOLDER } from "./sqlite-store";
import { compareTemplates, templateVersionId, type NewVersion, type TemplateStore } from "./template-store";
import * as schema from "./schema";
import { drizzleOver, migrateWithRetry, openSqliteConnection, type SqliteConnection } from "./sqlite-connection";

type Db = BetterSQLite3Database<typeof schema>;

/**
 * The SQLite {@link TemplateStore}: the `templates` and `template_versions`
 * tables of the app's database file (its own connection, WAL mode like
 * `SqliteRunStore`; migrations are applied on open, so either store may open
 * the file first). Versions are only ever inserted; the migration's triggers
 * abort any UPDATE or DELETE of a version row.
 */
export class SqliteTemplateStore implements TemplateStore {
  private readonly client: SqliteConnection;
  private readonly db: Db;

  /** Opens (creating if needed) the database at `file`; `:memory:` gives a private database (tests). */
  constructor(file: string, options: { migrationsFolder?: string } = {}) {
    this.client = openSqliteConnection(file, { foreignKeys: true });
    this.db = drizzleOver(this.client, schema);
    migrateWithRetry(() => migrate(this.db, { migrationsFolder: options.migrationsFolder ?? MIGRATIONS_FOLDER }));
  }

  /** Closes the connection. */
  close(): void {
    this.client.close();
  }

  /** Runs raw SQL on the connection (tests use it to show the triggers refuse changes to versions). */
  execForTests(statement: string): void {
    this.client.exec(statement);
  }

  async listTemplates(filter: { family?: EnvironmentId; role?: TemplateRole } = {}): Promise<Template[]> {
    const conditions = [
      filter.family === undefined ? undefined : eq(schema.templates.family, filter.family),
      filter.role === undefined ? undefined : eq(schema.templates.role, filter.role),
    ].filter((condition) => condition !== undefined);
    const rows = this.db.select().from(schema.templates).where(conditions.length > 0 ? and(...conditions) : undefined).all();
    return rows.map(toTemplate).sort(compareTemplates);
  }

  async getTemplate(id: string): Promise<Template | null> {
    const row = this.db.select().from(schema.templates).where(eq(schema.templates.id, id)).get();
    return row ? toTemplate(row) : null;
  }

  async createTemplate(template: Template): Promise<Template> {
    if (await this.getTemplate(template.id)) throw new AppError("conflict", `A template with id ${template.id} exists already.`);
    this.db
      .insert(schema.templates)
      .values({ ...template, labels: JSON.stringify(template.labels) })
      .run();
    return template;
  }

  async listVersions(templateId: string): Promise<TemplateVersion[]> {
    return this.db.select().from(schema.templateVersions).where(eq(schema.templateVersions.templateId, templateId)).orderBy(desc(schema.templateVersions.number)).all();
  }

  async getVersion(versionId: string): Promise<TemplateVersion | null> {
    return this.db.select().from(schema.templateVersions).where(eq(schema.templateVersions.id, versionId)).get() ?? null;
  }

  async addVersion(input: NewVersion): Promise<{ version: TemplateVersion; created: boolean }> {
    const id = templateVersionId(input.templateId, input.text);
    // One IMMEDIATE transaction: two processes saving at once never take the same number.
    return this.client
      .transaction(() => {
        const template = this.db.select({ id: schema.templates.id }).from(schema.templates).where(eq(schema.templates.id, input.templateId)).get();
        if (!template) throw new AppError("not-found", `No template ${input.templateId}.`);
        const existing = this.db.select().from(schema.templateVersions).where(eq(schema.templateVersions.id, id)).get();
        if (existing) return { version: existing, created: false };
        if (input.parentId !== null) {
          const parent = this.db.select({ id: schema.templateVersions.id }).from(schema.templateVersions).where(eq(schema.templateVersions.id, input.parentId)).get();
          if (!parent) throw new AppError("not-found", `No template version ${input.parentId} (the parent).`);
        }
        const top = this.db
          .select({ n: sql<number | null>`max(${schema.templateVersions.number})` })
          .from(schema.templateVersions)
          .where(eq(schema.templateVersions.templateId, input.templateId))
          .get();
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
        this.db.insert(schema.templateVersions).values(version).run();
        return { version, created: true };
      })
      .immediate();
  }

  async setLabel(templateId: string, label: string, versionId: string): Promise<Template> {
    return this.client
      .transaction(() => {
        const row = this.db.select().from(schema.templates).where(eq(schema.templates.id, templateId)).get();
        if (!row) throw new AppError("not-found", `No template ${templateId}.`);
        const version = this.db.select({ templateId: schema.templateVersions.templateId }).from(schema.templateVersions).where(eq(schema.templateVersions.id, versionId)).get();
        if (!version || version.templateId !== templateId) throw new AppError("not-found", `Template ${templateId} has no version ${versionId}.`);
        const template = toTemplate(row);
        const labels = { ...template.labels, [label]: versionId };
        this.db.update(schema.templates).set({ labels: JSON.stringify(labels) }).where(eq(schema.templates.id, templateId)).run();
        return { ...template, labels };
      })
      .immediate();
  }
}

function toTemplate(row: typeof schema.templates.$inferSelect): Template {
  const parsed = templateSchema.safeParse({ ...row, labels: JSON.parse(row.labels) as unknown });
  if (!parsed.success) throw new AppError("internal", `The stored template ${row.id} is damaged: ${parsed.error.issues[0]?.message ?? ""}`);
  return parsed.data;
}
