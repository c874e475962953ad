import { randomBytes } from "node:crypto";
import type { EditRequest } from "@/lib/domain/api";
import type { EnvironmentId, PromptTemplate, Strategy } from "@/lib/domain/config";
import { AppError } from "@/lib/domain/errors";
import {
  createTemplateRequestSchema,
  labelNameSchema,
  saveVersionRequestSchema,
  type CreateTemplateRequest,
  type MemoryManagementRequest,
  type SaveVersionRequest,
  type Template,
  type TemplateListItem,
  type TemplateRole,
  type TemplateVersion,
  type TemplateVersionChoice,
} from "@/lib/domain/template-library";
import { assertTemplateText } from "@/lib/domain/template-check";
import { templateVersionId, type TemplateStore } from "@/lib/db/template-store";
import { templateRulesFor } from "./template-rules";
import type { ResolvedTemplates } from "./run-config-factory";
import { builtInSeeds } from "./template-seeds";

/** How a door into the library names its opt-out in refusals (the CLI: `--allow-unknown`; default the API's `allowUnknown: true`). */
export interface TemplateCheckOptions {
  override?: string;
}

/** What {@link TemplateService.saveEdit} saved: the template it went into (a new one for an edited built-in) and the version. */
export interface SavedEdit {
  template: Template;
  version: TemplateVersion;
  /** False when the template already had this text (that version is returned). */
  created: boolean;
  /** True when the edit of a built-in became a new template. */
  newTemplate: boolean;
}

/** A version with its template. */
export interface ResolvedVersion {
  template: Template;
  version: TemplateVersion;
}

/** The run-config form of a library version: the template's id, the version's number, text and id. */
export function toPromptTemplate({ template, version }: ResolvedVersion): PromptTemplate {
  return { id: template.id, version: version.number, text: version.text, versionId: version.id };
}

/**
 * The template library's use cases (lib/domain/template-library.ts):
 * list, read, create, save versions (never editing one in place), move labels,
 * resolve version references for runs, arms and prompt edits. Built-in
 * templates are seeded from the code on first use ({@link TemplateService.ensureSeeded}).
 */
export class TemplateService {
  private seeding: Promise<void> | null = null;

  constructor(readonly store: TemplateStore) {}

  /**
   * Seeds the built-in templates once per process (idempotent across processes:
   * a built-in version whose text is stored already is skipped, one whose code
   * text changed is added as the template's next built-in version).
   */
  ensureSeeded(): Promise<void> {
    this.seeding ??= this.seed().catch((error: unknown) => {
      this.seeding = null;
      throw error;
    });
    return this.seeding;
  }

  private async seed(): Promise<void> {
    for (const seed of builtInSeeds()) {
      const existing = await this.store.getTemplate(seed.template.id);
      if (!existing) {
        try {
          await this.store.createTemplate({ ...seed.template, labels: {}, createdAt: new Date().toISOString() });
        } catch (error) {
          // Another process seeded it between our read and our write.
          if (!(error instanceof AppError && error.code === "conflict")) throw error;
        }
      }
      const versions = await this.store.listVersions(seed.template.id);
      if (versions.some((version) => version.id === templateVersionId(seed.template.id, seed.text))) continue;
      await this.store.addVersion({
        templateId: seed.template.id,
        parentId: versions[0]?.id ?? null,
        text: seed.text,
        message: `Built-in (${seed.template.source ?? "ours"}).`,
        builtIn: true,
      });
    }
  }

  /** Templates with their newest version, built-ins first. */
  async list(filter: { family?: EnvironmentId; role?: TemplateRole } = {}): Promise<TemplateListItem[]> {
    await this.ensureSeeded();
    const templates = await this.store.listTemplates(filter);
    const items: TemplateListItem[] = [];
    for (const template of templates) {
      const versions = await this.store.listVersions(template.id);
      const latest = versions[0];
      if (latest) items.push({ ...template, latestVersion: latest, versionCount: versions.length });
    }
    return items;
  }

  /** A template and its versions, newest first. @throws AppError("not-found") */
  async detail(id: string): Promise<{ template: Template; versions: TemplateVersion[] }> {
    await this.ensureSeeded();
    return { template: await this.template(id), versions: await this.store.listVersions(id) };
  }

  private async template(id: string): Promise<Template> {
    const template = await this.store.getTemplate(id);
    if (!template) throw new AppError("not-found", `No template ${id}. List them with \`npm run cli -- templates list\` or GET /api/templates.`);
    return template;
  }

  /**
   * A new template (id `tpl-<12 hex>`) with its first version.
   * @throws AppError("invalid-input") for a text over the size cap, or with unknown or missing placeholders
   *   unless `allowUnknown` (lib/domain/template-check.ts).
   */
  async create(input: CreateTemplateRequest, options: TemplateCheckOptions = {}): Promise<ResolvedVersion> {
    await this.ensureSeeded();
    const request = createTemplateRequestSchema.parse(input);
    assertTemplateText(request.text, templateRulesFor(request.family, request.role), {
      allowUnknown: request.allowUnknown,
      what: `The ${request.family} ${request.role} template "${request.name}"`,
      override: options.override,
    });
    const parentId = request.parentId ? (await this.resolve(request.parentId)).version.id : null;
    const template = await this.store.createTemplate({
      id: `tpl-${randomBytes(6).toString("hex")}`,
      name: request.name,
      family: request.family,
      role: request.role,
      strategy: request.strategy,
      builtIn: false,
      source: null,
      labels: {},
      createdAt: new Date().toISOString(),
    });
    // The parent may belong to another template (a built-in edited into a new template): the lineage crosses templates there.
    const { version } = await this.store.addVersion({ templateId: template.id, parentId, text: request.text, message: request.message || (parentId ? `Copied from ${parentId}.` : ""), builtIn: false });
    return { template, version };
  }

  /**
   * Saves an edited text, the one rule every door (the workbench, `POST /api/templates/:id/versions`,
   * `cli templates save`, the optimiser) follows: built-in templates are read-only, so a text saved onto
   * a built-in creates a new (non-built-in) template of the same family, role and strategy, named
   * `name` (default "<built-in's name> (edited)"), whose first version's parent is the built-in version
   * it was edited from (`parentId`, default the built-in's newest); onto any other template it is the
   * template's next version ({@link TemplateService.saveVersion}).
   * @returns the template saved into, the version, `created` (false when the template already had the
   *   text) and `newTemplate` (true when a built-in was edited into a new template).
   * @throws AppError("not-found") for an unknown template; AppError("invalid-input") for a parent that is
   *   not a version of the template, or a text the template check refuses.
   */
  async saveEdit(templateId: string, input: SaveVersionRequest, options: TemplateCheckOptions = {}): Promise<SavedEdit> {
    await this.ensureSeeded();
    const template = await this.template(templateId);
    if (!template.builtIn) {
      const saved = await this.saveVersion(templateId, input, options);
      return { template, ...saved, newTemplate: false };
    }
    const request = saveVersionRequestSchema.parse(input);
    const versions = await this.store.listVersions(templateId);
    const parent = request.parentId ? versions.find((version) => version.id === request.parentId) : versions[0];
    if (!parent) throw new AppError("invalid-input", `Version ${request.parentId} is not a version of template ${templateId}; give one of its own versions as parentId (or none for the newest).`);
    const name = request.name ?? (await this.unusedName(template, `${template.name} (edited)`));
    const created = await this.create(
      { name, family: template.family, role: template.role, strategy: template.strategy, text: request.text, message: request.message, parentId: parent.id, allowUnknown: request.allowUnknown },
      options,
    );
    return { ...created, created: true, newTemplate: true };
  }

  /** `base`, or `base` with " 2", " 3", … when a template of the same family and role already has that name (so two edits of a built-in stay distinguishable in lists and pickers). */
  private async unusedName(template: Template, base: string): Promise<string> {
    const taken = new Set((await this.store.listTemplates({ family: template.family, role: template.role })).map((other) => other.name));
    if (!taken.has(base)) return base;
    let n = 2;
    while (taken.has(`${base} ${n}`)) n += 1;
    return `${base} ${n}`;
  }

  /**
   * Saves `text` as the template's next version (the earlier ones stay exactly as they are).
   * The same text as an existing version of the template returns that version, `created: false`.
   * @throws AppError("not-found") for an unknown template; AppError("invalid-input") for a parent of another template,
   *   or for a text the template check refuses (size, unknown or missing placeholders unless `allowUnknown`).
   */
  async saveVersion(templateId: string, input: SaveVersionRequest, options: TemplateCheckOptions = {}): Promise<{ version: TemplateVersion; created: boolean }> {
    await this.ensureSeeded();
    const request = saveVersionRequestSchema.parse(input);
    const template = await this.template(templateId);
    assertTemplateText(request.text, templateRulesFor(template.family, template.role), {
      allowUnknown: request.allowUnknown,
      what: `The new version of ${templateId}`,
      override: options.override,
    });
    const versions = await this.store.listVersions(templateId);
    let parentId = versions[0]?.id ?? null;
    if (request.parentId) {
      const parent = versions.find((version) => version.id === request.parentId);
      if (!parent) throw new AppError("invalid-input", `Version ${request.parentId} is not a version of template ${templateId}; give one of its own versions as parentId (or none for the newest).`);
      parentId = parent.id;
    }
    return this.store.addVersion({ templateId, parentId, text: request.text, message: request.message, builtIn: false });
  }

  /** Points a label at a version (a version id or another reference) of the same template. */
  async moveLabel(templateId: string, label: string, versionReference: string): Promise<Template> {
    await this.ensureSeeded();
    const name = labelNameSchema.safeParse(label);
    if (!name.success) throw new AppError("invalid-input", `Label "${label}": ${name.error.issues[0]?.message ?? "not a valid label"}.`);
    const { version } = await this.resolve(versionReference);
    if (version.templateId !== templateId) throw new AppError("invalid-input", `Version ${version.id} belongs to template ${version.templateId}, not ${templateId}.`);
    return this.store.setLabel(templateId, name.data, version.id);
  }

  /**
   * Looks up a version reference: `tv-…` (a version id), `templateId@label`,
   * `templateId@v<n>`, `templateId@latest`, or a bare template id (its newest version).
   * @throws AppError("not-found") naming what exists.
   */
  async resolve(reference: string): Promise<ResolvedVersion> {
    await this.ensureSeeded();
    const ref = reference.trim();
    if (/^tv-[0-9a-f]{16}$/.test(ref)) {
      const version = await this.store.getVersion(ref);
      if (!version) throw new AppError("not-found", `No template version ${ref} in this database. Import the template's files (\`npm run cli -- templates import <dir>\`) or list versions with \`npm run cli -- templates show <template id>\`.`);
      return { template: await this.template(version.templateId), version };
    }
    const at = ref.lastIndexOf("@");
    const templateId = at === -1 ? ref : ref.slice(0, at);
    const selector = at === -1 ? "latest" : ref.slice(at + 1);
    const template = await this.template(templateId);
    const versions = await this.store.listVersions(templateId);
    const numbered = /^v(\d+)$/.exec(selector);
    const version = selector === "latest" ? versions[0] : numbered ? versions.find((v) => v.number === Number(numbered[1])) : versions.find((v) => v.id === template.labels[selector]);
    if (!version) {
      const labels = Object.keys(template.labels);
      throw new AppError("not-found", `Template ${templateId} has no version "${selector}". It has v1–v${versions[0]?.number ?? 0}${labels.length > 0 ? ` and the labels ${labels.join(", ")}` : " and no labels"}.`);
    }
    return { template, version };
  }

  /**
   * Resolves a run's (or arm's) template choices into run-config templates,
   * checking each version is for the run's family, the role it is chosen for and
   * the strategy (a template for one strategy serves only that one).
   * @throws AppError("invalid-input") for a version of another family, role or strategy.
   */
  async resolveRunTemplates(request: { environment: EnvironmentId; strategy: Strategy; templateVersions?: TemplateVersionChoice; memoryManagement?: MemoryManagementRequest }): Promise<ResolvedTemplates> {
    const resolved: ResolvedTemplates = {};
    const pick = async (role: TemplateRole, reference: string | undefined): Promise<PromptTemplate | undefined> => {
      if (reference === undefined) return undefined;
      const found = await this.resolve(reference);
      const { template } = found;
      if (template.family !== request.environment || template.role !== role) {
        throw new AppError("invalid-input", `Template version ${reference} is a ${template.family} ${template.role} template; this run needs a ${request.environment} ${role} template.`);
      }
      if (template.strategy !== null && template.strategy !== request.strategy) {
        throw new AppError("invalid-input", `Template version ${reference} is for the strategy ${template.strategy}; this run uses ${request.strategy}.`);
      }
      return toPromptTemplate(found);
    };
    resolved.actor = await pick("actor", request.templateVersions?.actor);
    resolved.reflector = await pick("reflector", request.templateVersions?.reflector);
    resolved.value = await pick("value", request.templateVersions?.value);
    if (request.memoryManagement?.kind === "summarize") resolved.summarizer = await pick("summarizer", request.memoryManagement.summarizerVersionId);
    return resolved;
  }

  /** A choice with every reference replaced by its version id, so a label moved later does not change what an experiment's later runs use. */
  async canonicalChoice(choice: TemplateVersionChoice | undefined): Promise<TemplateVersionChoice | undefined> {
    if (!choice) return undefined;
    return {
      ...(choice.actor ? { actor: (await this.resolve(choice.actor)).version.id } : {}),
      ...(choice.reflector ? { reflector: (await this.resolve(choice.reflector)).version.id } : {}),
      ...(choice.value ? { value: (await this.resolve(choice.value)).version.id } : {}),
    };
  }

  /**
   * A prompt edit with its library version settled: `versionId` given → the
   * edit takes that version's text and canonical id; `saveAsVersion` given →
   * `text` is saved into the library template the run's current text came from,
   * by {@link TemplateService.saveEdit}'s rule (onto a built-in it creates a new
   * template, so every door treats built-ins alike), and the edit records the
   * version's id. Other edits are returned as they are.
   */
  async resolvePromptEdit(edit: EditRequest, current: PromptTemplate | undefined, family: EnvironmentId): Promise<EditRequest> {
    if (edit.kind !== "prompt") return edit;
    if (edit.versionId !== undefined) {
      const found = await this.resolve(edit.versionId);
      if (found.template.family !== family || found.template.role !== edit.role) {
        throw new AppError("invalid-input", `Template version ${edit.versionId} is a ${found.template.family} ${found.template.role} template; this edit needs a ${family} ${edit.role} template.`);
      }
      return { ...edit, text: found.version.text, versionId: found.version.id, saveAsVersion: undefined };
    }
    if (edit.saveAsVersion === undefined) return edit;
    await this.ensureSeeded();
    const parent = current?.versionId ? await this.store.getVersion(current.versionId) : null;
    // The library template the run's text came from: after an earlier save-as-version onto a built-in,
    // that is the new template the edit went into, not the built-in the run's slot is named after.
    const templateId = parent?.templateId ?? current?.id ?? `${family}/${edit.role}`;
    if (!(await this.store.getTemplate(templateId))) {
      await this.store.createTemplate({ id: templateId, name: templateId, family, role: edit.role, strategy: null, builtIn: false, source: null, labels: {}, createdAt: new Date().toISOString() });
    }
    const { version } = await this.saveEdit(templateId, {
      text: edit.text,
      message: edit.saveAsVersion.message,
      parentId: parent?.templateId === templateId ? parent.id : undefined,
      allowUnknown: edit.allowUnknown,
    });
    return { ...edit, versionId: version.id, saveAsVersion: undefined };
  }
}

/** A route parameter, URL-decoded once more when it still carries escapes (template ids contain `/`, sent as `%2F`). */
export function decodeParam(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
