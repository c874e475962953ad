import fs from "node:fs";
import path from "node:path";
import { Option, type Command } from "commander";
import { MAX_TEMPLATE_BYTES, templateTooLargeMessage } from "@/lib/domain/template-check";
import { strategySchema, type EnvironmentId, type Strategy } from "@/lib/domain/config";
import type { ArmInput } from "@/lib/domain/experiment";
import { templateRoleSchema, type TemplateRole, type TemplateVersionChoice } from "@/lib/domain/template-library";
import { environmentEntry } from "@/lib/environments/registry";
import { familyIds } from "@/lib/environments/descriptors";
import type { ServerContext } from "@/lib/server/app-context";
import { abReadoutLines } from "./ab-readout";
import { cliContext } from "./context";
import { registerOptimiseCommand } from "./optimise-command";
import { metaPromptTemplateId } from "@/lib/domain/optimiser/meta-prompt";
import { latsValueTemplateId } from "@/lib/domain/lats-value";

/**
 * `cli templates list|show|save|label|export|import`: the template
 * library on the same database as the web app. Also the parsing of
 * `cli run --template role=<ref>` and of version references in `--arms-file`.
 */

/**
 * `--template actor=<ref> --template reflector=<ref>` as a run's template choice.
 * @throws Error naming the malformed value.
 */
export function templateChoiceOf(values: readonly string[] | undefined): TemplateVersionChoice | undefined {
  if (!values || values.length === 0) return undefined;
  const choice: TemplateVersionChoice = {};
  for (const value of values) {
    const match = /^(actor|reflector|value)=(\S+)$/.exec(value.trim());
    if (!match) throw new Error(`--template "${value}": write role=<version>, role actor, reflector or value (a LATS run's value prompt), e.g. --template reflector=qa/reflect@v1.`);
    choice[match[1] as "actor" | "reflector" | "value"] = match[2]!;
  }
  return choice;
}

/**
 * An `--arms-file` arm with its `templates` read as the template library allows: a value
 * without whitespace is a library version reference (`tv-…`, `<template>@<label>`,
 * `<template>@v<n>`, a template id) and moves to `templateVersions` (an explicit
 * `templateVersions` entry for the role wins); any other value stays template text,
 * which wins over a version for its role (lib/domain/experiment.ts).
 */
export function armWithVersionReferences(arm: ArmInput): ArmInput {
  if (!arm.templates) return arm;
  const templates: NonNullable<ArmInput["templates"]> = {};
  const versions: TemplateVersionChoice = { ...arm.templateVersions };
  for (const role of ["actor", "reflector"] as const) {
    const value = arm.templates[role];
    if (value === undefined) continue;
    if (/\s/.test(value)) templates[role] = value;
    else versions[role] ??= value;
  }
  return {
    ...arm,
    templates: Object.keys(templates).length > 0 ? templates : undefined,
    templateVersions: Object.keys(versions).length > 0 ? versions : undefined,
  };
}

/** The template `save` adds to by default: the family's built-in for the role and strategy. */
function defaultTemplateId(family: string, role: TemplateRole, strategy: Strategy): string {
  if (role === "summarizer") return `${family}/summarize-memory`;
  if (role === "optimiser") return metaPromptTemplateId(family);
  if (role === "value") return latsValueTemplateId(family);
  const entry = environmentEntry(family);
  if (role === "evaluator") {
    const judge = entry.family.defaultJudgeTemplate;
    if (!judge) throw new Error(`The ${entry.label} family has no judge template (its Evaluator is not a model).`);
    return judge.id;
  }
  return (entry.family.templatesFor?.(strategy) ?? entry.family.defaultTemplates)[role].id;
}

/** Every `.md` file under `dir`, relative paths with `/`, sorted. */
function markdownFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (relative: string) => {
    for (const entry of fs.readdirSync(path.join(dir, relative), { withFileTypes: true })) {
      const next = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(next);
      else if (entry.isFile() && entry.name.endsWith(".md")) out.push(next);
    }
  };
  walk("");
  return out.sort();
}

async function withContext(action: (context: ServerContext) => Promise<void>): Promise<void> {
  const context = cliContext();
  try {
    await action(context);
  } finally {
    await context.close();
  }
}

/** Registers `templates …`. */
export function registerTemplateCommands(program: Command): void {
  const templates = program.command("templates").description("The prompt template library: versions, labels, files (shared with the web app's workbench).");
  registerOptimiseCommand(templates);

  templates
    .command("list")
    .description("List templates, one per line, tab-separated: id, family/role/strategy, versions, newest version, built-in|ours, labels (or -), name.")
    .addOption(new Option("--env <family>", "only this task family").choices(familyIds()))
    .addOption(new Option("--role <role>", "only this role").choices(templateRoleSchema.options))
    .option("--json", "one JSON object per template (with latestVersion and versionCount)")
    .action(async (options: { env?: EnvironmentId; role?: TemplateRole; json?: boolean }) =>
      withContext(async (context) => {
        for (const item of await context.templates.list({ family: options.env, role: options.role })) {
          if (options.json) {
            process.stdout.write(`${JSON.stringify(item)}\n`);
            continue;
          }
          const labels = Object.entries(item.labels).map(([label, id]) => `${label}=${id}`).join(" ");
          process.stdout.write(
            // Every column on every line (an empty one as "-"), so scripts can read the TSV by position.
            `${item.id}\t${item.family}/${item.role}/${item.strategy ?? "any"}\t${item.versionCount} version${item.versionCount === 1 ? "" : "s"}\tlatest v${item.latestVersion.number} ${item.latestVersion.id}\t${item.builtIn ? "built-in" : "ours"}\t${labels || "-"}\t${item.name}\n`,
          );
        }
      }),
    );

  templates
    .command("show <ref>")
    .description("Show a version's text (ref: tv-… id, <template>@<label>, <template>@v<n>); a bare template id shows its history, then its newest text.")
    .option("--json", "print {template, version} (or {template, versions} for a bare template id) as JSON")
    .action(async (ref: string, options: { json?: boolean }) =>
      withContext(async (context) => {
        const bare = !ref.includes("@") && !/^tv-/.test(ref);
        if (bare) {
          const detail = await context.templates.detail(ref);
          if (options.json) {
            process.stdout.write(`${JSON.stringify(detail)}\n`);
            return;
          }
          const { template, versions } = detail;
          process.stderr.write(`${template.id} — ${template.name} (${template.family}/${template.role}/${template.strategy ?? "any"}${template.builtIn ? `, built-in: ${template.source ?? "ours"}` : ""})\n`);
          for (const version of versions) {
            const labels = Object.entries(template.labels).filter(([, id]) => id === version.id).map(([label]) => label);
            process.stderr.write(`  v${version.number} ${version.id} ${version.createdAt}${version.parentId ? ` from ${version.parentId}` : ""}${labels.length ? ` [${labels.join(", ")}]` : ""} ${version.message}\n`);
          }
          process.stdout.write(`${versions[0]?.text ?? ""}\n`);
          return;
        }
        const found = await context.templates.resolve(ref);
        if (options.json) process.stdout.write(`${JSON.stringify(found)}\n`);
        else {
          process.stderr.write(`${found.template.id} v${found.version.number} ${found.version.id} ${found.version.createdAt} ${found.version.message}\n`);
          process.stdout.write(`${found.version.text}\n`);
        }
      }),
    );

  templates
    .command("save")
    .description("Save a file's text as a new version (never changes an earlier one) and print the version id. Default template: the family's built-in for the role and strategy; built-ins are read-only, so a text saved onto one creates a new template (named by --name) whose first version's parent is the built-in version.")
    .addOption(new Option("--env <family>", "task family").choices(familyIds()).makeOptionMandatory())
    .addOption(new Option("--role <role>", "the role").choices(templateRoleSchema.options).makeOptionMandatory())
    .addOption(new Option("--strategy <strategy>", "the strategy the template is for").choices(strategySchema.options).default("reflexion"))
    .requiredOption("--file <path>", "the template text")
    .requiredOption("--message <message>", "what changed and why")
    .option("--template <id>", "save into this template instead of the default one")
    .option("--new <name>", "create a new template with this name (for this role and strategy) instead")
    .option("--name <name>", "the new template's name when the text is saved onto a built-in (default \"<built-in's name> (edited)\")")
    .option("--label <label>", "also point this label (e.g. candidate) at the saved version")
    .option("--allow-unknown", "save even with placeholders the family does not fill (e.g. {memroy}) or without a required one (e.g. {question})")
    .action(async (options: { env: EnvironmentId; role: TemplateRole; strategy: Strategy; file: string; message: string; template?: string; new?: string; name?: string; label?: string; allowUnknown?: boolean }) =>
      withContext(async (context) => {
        // Checked before reading: a huge file is refused without loading it.
        const size = fs.statSync(options.file).size;
        if (size > MAX_TEMPLATE_BYTES) throw new Error(`${options.file}: ${templateTooLargeMessage(size)}.`);
        const text = fs.readFileSync(options.file, "utf8");
        let templateId: string;
        let versionId: string;
        if (options.new) {
          const created = await context.templates.create(
            { name: options.new, family: options.env, role: options.role, strategy: options.strategy, text, message: options.message, allowUnknown: options.allowUnknown },
            { override: "--allow-unknown" },
          );
          templateId = created.template.id;
          versionId = created.version.id;
        } else {
          const target = options.template ?? defaultTemplateId(options.env, options.role, options.strategy);
          const saved = await context.templates.saveEdit(target, { text, message: options.message, name: options.name, allowUnknown: options.allowUnknown }, { override: "--allow-unknown" });
          templateId = saved.template.id;
          if (saved.newTemplate) {
            process.stderr.write(
              `${target} is built-in (read-only): created the template ${templateId} "${saved.template.name}" with your text as v${saved.version.number}, edited from ${saved.version.parentId}. Save later edits into it with --template ${templateId}.\n`,
            );
          } else if (!saved.created) process.stderr.write(`note: ${templateId} already has this text as v${saved.version.number}; nothing new was saved.\n`);
          else process.stderr.write(`Saved ${templateId} v${saved.version.number}.\n`);
          versionId = saved.version.id;
        }
        if (options.label) await context.templates.moveLabel(templateId, options.label, versionId);
        process.stdout.write(`${versionId}\n`);
      }),
    );

  templates
    .command("label <template> <label> <ref>")
    .description("Point a label (e.g. baseline, candidate) at a version of the template.")
    .action(async (templateId: string, label: string, ref: string) =>
      withContext(async (context) => {
        const template = await context.templates.moveLabel(templateId, label, ref);
        process.stdout.write(`${template.id}@${label} → ${template.labels[label]}\n`);
      }),
    );

  templates
    .command("ab <experiment-id>")
    .description("The A/B read-out of a two-arm experiment whose arms differ only in one role's template version: the paired exact test and the tasks where they differ, with both arms' reflections.")
    .option("--json", "print the read-out (lib/domain/template-library.ts abResultSchema) as JSON")
    .action(async (experimentId: string, options: { json?: boolean }) =>
      withContext(async (context) => {
        const result = await context.templateWorkbench.abResult(experimentId);
        if (options.json) {
          process.stdout.write(`${JSON.stringify(result)}\n`);
          return;
        }
        process.stdout.write(`${abReadoutLines(result).join("\n")}\n`);
      }),
    );

  templates
    .command("export <dir>")
    .description("Write every version of the templates as files (one version per file, YAML front matter): <dir>/<family>/<template>/v<NNN>.md.")
    .option("--ids <ids>", "comma-separated template ids (default: all)")
    .action(async (dir: string, options: { ids?: string }) =>
      withContext(async (context) => {
        const ids = (options.ids ?? "").split(",").map((id) => id.trim()).filter(Boolean);
        const bundle = await context.templateWorkbench.exportFiles(ids);
        for (const file of bundle.files) {
          const target = path.join(dir, ...file.path.split("/"));
          fs.mkdirSync(path.dirname(target), { recursive: true });
          fs.writeFileSync(target, file.content);
        }
        process.stdout.write(`Wrote ${bundle.files.length} file(s) to ${dir}.\n`);
      }),
    );

  templates
    .command("import <dir>")
    .description("Import the template files (*.md) under a directory; versions already here (same text) are skipped.")
    .option("--json", "print {imported, skipped} as JSON")
    .option("--allow-unknown", "import files whose placeholders the family does not fill, or that leave out a required one (else they are skipped with the reason)")
    .action(async (dir: string, options: { json?: boolean; allowUnknown?: boolean }) =>
      withContext(async (context) => {
        if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) throw new Error(`${dir} is not a directory; give the folder \`templates export\` wrote.`);
        const files = markdownFiles(dir).map((relative) => ({ path: relative, content: fs.readFileSync(path.join(dir, relative), "utf8") }));
        const result = await context.templateWorkbench.importFiles({ files, allowUnknown: options.allowUnknown });
        if (options.json) {
          process.stdout.write(`${JSON.stringify(result)}\n`);
          return;
        }
        for (const entry of result.imported) process.stdout.write(`imported ${entry.path} → ${entry.templateId} ${entry.versionId}\n`);
        for (const entry of result.skipped) process.stdout.write(`skipped ${entry.path}: ${entry.reason}\n`);
        process.stdout.write(`${result.imported.length} imported, ${result.skipped.length} skipped.\n`);
      }),
    );
}
