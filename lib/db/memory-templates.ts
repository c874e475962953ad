import { AppError } from "@/lib/domain/errors";
import type { Template, TemplateRole, TemplateVersion } from "@/lib/domain/template-library";
import type { EnvironmentId } from "@/lib/domain/config";
import { compareTemplates, matchesFilter, templateVersionId, type NewVersion, type TemplateStore } from "./template-store";

/** The in-memory {@link TemplateStore} (tests, and contexts built on a `MemoryRunStore`). Returns copies, so callers cannot change stored versions. */
export class MemoryTemplateStore implements TemplateStore {
  private readonly templates = new Map<string, Template>();
  private readonly versions = new Map<string, TemplateVersion>();

  async listTemplates(filter: { family?: EnvironmentId; role?: TemplateRole } = {}): Promise<Template[]> {
    return [...this.templates.values()].filter((template) => matchesFilter(template, filter)).sort(compareTemplates).map(copyTemplate);
  }

  async getTemplate(id: string): Promise<Template | null> {
    const template = this.templates.get(id);
    return template ? copyTemplate(template) : null;
  }

  async createTemplate(template: Template): Promise<Template> {
    if (this.templates.has(template.id)) throw new AppError("conflict", `A template with id ${template.id} exists already.`);
    this.templates.set(template.id, copyTemplate(template));
    return copyTemplate(template);
  }

  async listVersions(templateId: string): Promise<TemplateVersion[]> {
    return [...this.versions.values()].filter((version) => version.templateId === templateId).sort((a, b) => b.number - a.number).map((v) => ({ ...v }));
  }

  async getVersion(versionId: string): Promise<TemplateVersion | null> {
    const version = this.versions.get(versionId);
    return version ? { ...version } : null;
  }

  async addVersion(input: NewVersion): Promise<{ version: TemplateVersion; created: boolean }> {
    if (!this.templates.has(input.templateId)) throw new AppError("not-found", `No template ${input.templateId}.`);
    const id = templateVersionId(input.templateId, input.text);
    const existing = this.versions.get(id);
    if (existing) return { version: { ...existing }, created: false };
    if (input.parentId !== null && !this.versions.has(input.parentId)) throw new AppError("not-found", `No template version ${input.parentId} (the parent).`);
    const number = Math.max(0, ...[...this.versions.values()].filter((v) => v.templateId === input.templateId).map((v) => v.number)) + 1;
    const version: TemplateVersion = {
      id,
      templateId: input.templateId,
      number,
      parentId: input.parentId,
      text: input.text,
      message: input.message,
      createdAt: input.createdAt ?? new Date().toISOString(),
      builtIn: input.builtIn,
    };
    this.versions.set(id, version);
    return { version: { ...version }, created: true };
  }

  async setLabel(templateId: string, label: string, versionId: string): Promise<Template> {
    const template = this.templates.get(templateId);
    if (!template) throw new AppError("not-found", `No template ${templateId}.`);
    const version = this.versions.get(versionId);
    if (!version || version.templateId !== templateId) throw new AppError("not-found", `Template ${templateId} has no version ${versionId}.`);
    template.labels = { ...template.labels, [label]: versionId };
    return copyTemplate(template);
  }
}

function copyTemplate(template: Template): Template {
  return { ...template, labels: { ...template.labels } };
}
