import {
  previewRequestSchema,
  templateBundleSchema,
  type AbRequest,
  type AbResult,
  type ImportResponse,
  type PreviewRequest,
  type PreviewResponse,
  type TemplateBundle,
  type TemplateFile,
  type TemplateRole,
} from "@/lib/domain/template-library";
import { isAppError } from "@/lib/domain/errors";
import { assertTemplateText } from "@/lib/domain/template-check";
import { templateVersionId } from "@/lib/db/template-store";
import { templateRulesFor } from "./template-rules";
import { abDefinition, abResult } from "./template-ab";
import { parseTemplateFile, toTemplateFile } from "./template-files";
import { previewPrompt } from "./template-preview";
import type { ExperimentService } from "./experiment-service";
import type { RunService } from "./run-service";
import type { TemplateService } from "./template-service";

/**
 * The template workbench's server side on top of the library:
 * preview against a recorded trial, export/import as files, and A/B
 * experiments with their read-out. Routes under app/api/templates and the CLI call it.
 */
export class TemplateWorkbench {
  constructor(
    private readonly templates: TemplateService,
    private readonly runs: RunService,
    private readonly experiments: ExperimentService,
  ) {}

  /** The prompt the engine would send (lib/server/template-preview.ts) for a text or a saved version. */
  async preview(input: PreviewRequest): Promise<PreviewResponse> {
    const request = previewRequestSchema.parse(input);
    const text = request.text ?? (await this.templates.resolve(request.versionId!)).version.text;
    const { events } = await this.runs.events(request.runId, 0, request.branchId ?? null);
    return previewPrompt(events, { text, role: request.role, trial: request.trial, step: request.step });
  }

  /** Every version of the given templates (all templates when `ids` is empty) as files. @throws AppError("not-found") for an unknown id. */
  async exportFiles(ids: readonly string[] = []): Promise<TemplateBundle> {
    const chosen = ids.length > 0 ? await Promise.all(ids.map(async (id) => (await this.templates.detail(id)).template)) : (await this.templates.list()).map(({ latestVersion: _latest, versionCount: _count, ...template }) => template);
    const files: TemplateFile[] = [];
    for (const template of chosen) {
      const versions = await this.templates.store.listVersions(template.id);
      for (const version of [...versions].reverse()) files.push(toTemplateFile(template, version));
    }
    return { files };
  }

  /**
   * Imports template files (one version each). Idempotent by content: a version
   * whose text the template has already is skipped. A missing template is
   * created with the file's id and metadata (as a template of this clone, not a
   * built-in); a file's labels are set only where the template has no such label
   * yet (an import never moves a label). Files are taken per template in version
   * order, so parents come first; a parent not here falls back to the newest version.
   */
  async importFiles(input: TemplateBundle): Promise<ImportResponse> {
    const bundle = templateBundleSchema.parse(input);
    await this.templates.ensureSeeded();
    const store = this.templates.store;
    const parsed = bundle.files.map((file) => ({ file, read: parseTemplateFile(file.content) }));
    const order = (entry: (typeof parsed)[number]) => (entry.read.ok ? `${entry.read.front.template}\u0000${String(entry.read.front.number ?? 0).padStart(6, "0")}` : "");
    parsed.sort((x, y) => order(x).localeCompare(order(y)));
    const result: ImportResponse = { imported: [], skipped: [] };
    for (const { file, read } of parsed) {
      if (!read.ok) {
        result.skipped.push({ path: file.path, reason: read.reason, versionId: null });
        continue;
      }
      const { front, text } = read;
      let template = await store.getTemplate(front.template);
      if (template && (template.family !== front.family || template.role !== front.role)) {
        result.skipped.push({ path: file.path, reason: `template ${front.template} exists here as a ${template.family} ${template.role} template, the file is ${front.family} ${front.role}`, versionId: null });
        continue;
      }
      const refusal = templateRefusal(text, front.family, front.role, bundle.allowUnknown ?? false);
      if (refusal) {
        result.skipped.push({ path: file.path, reason: refusal, versionId: null });
        continue;
      }
      template ??= await store.createTemplate({
        id: front.template,
        name: front.name,
        family: front.family,
        role: front.role,
        strategy: front.strategy,
        builtIn: false,
        source: front.source,
        labels: {},
        createdAt: front.createdAt ?? new Date().toISOString(),
      });
      const id = templateVersionId(template.id, text);
      if (await store.getVersion(id)) {
        result.skipped.push({ path: file.path, reason: "this version is here already (same text)", versionId: id });
        continue;
      }
      const parent = front.parent ? await store.getVersion(front.parent) : null;
      const latest = (await store.listVersions(template.id))[0] ?? null;
      const { version } = await store.addVersion({
        templateId: template.id,
        // A first version keeps a parent in another template (a built-in it was edited from) when that version is here.
        parentId: parent?.templateId === template.id ? parent.id : (latest?.id ?? parent?.id ?? null),
        text,
        message: front.message,
        builtIn: false,
        createdAt: front.createdAt,
      });
      for (const label of front.labels) {
        const current = await store.getTemplate(template.id);
        if (current && current.labels[label] === undefined) await this.templates.moveLabel(template.id, label, version.id);
      }
      result.imported.push({ path: file.path, templateId: template.id, versionId: version.id });
    }
    return result;
  }

  /** Starts an A/B experiment (lib/server/template-ab.ts); returns its id. */
  async startAb(input: AbRequest): Promise<{ experimentId: string }> {
    const record = await this.experiments.start(await abDefinition(this.templates, input));
    return { experimentId: record.id };
  }

  /** The A/B read-out of an experiment. @throws AppError("not-found") when it is not an A/B one. */
  async abResult(experimentId: string): Promise<AbResult> {
    const record = await this.experiments.get(experimentId);
    const summary = await this.experiments.summary(experimentId);
    return abResult(record, summary, async (runId) => (await this.runs.events(runId)).events);
  }
}

/** Why the template check (lib/domain/template-check.ts) refuses an imported file's text, or null. */
function templateRefusal(text: string, family: string, role: TemplateRole, allowUnknown: boolean): string | null {
  try {
    assertTemplateText(text, templateRulesFor(family, role), { allowUnknown, what: "the text", override: "--allow-unknown (CLI) or allowUnknown: true" });
    return null;
  } catch (error) {
    if (isAppError(error, "invalid-input")) return error.message;
    throw error;
  }
}
