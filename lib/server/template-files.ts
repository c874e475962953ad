import matter from "gray-matter";
import { templateFileFrontMatterSchema, type Template, type TemplateFile, type TemplateFileFrontMatter, type TemplateVersion } from "@/lib/domain/template-library";
import { describeIssues } from "@/lib/domain/describe-issues";

/**
 * Template files: one template version per file, Markdown with YAML
 * front matter for the metadata (gray-matter) and the version's text verbatim
 * as the body, so templates can live in git. Layout of an export:
 * `<family>/<template id, "/" → "__">/v<NNN>.md`. The body is the text plus one
 * closing newline, which reading strips again (a text's own trailing newlines survive).
 */

/** The relative path of a version's file. */
export function templateFilePath(template: Template, version: TemplateVersion): string {
  const slug = template.id.replace(/[/\\]/g, "__").replace(/[^A-Za-z0-9._@-]/g, "_");
  return `${template.family}/${slug}/v${String(version.number).padStart(3, "0")}.md`;
}

/** The file of one version (front matter per {@link templateFileFrontMatterSchema}). */
export function toTemplateFile(template: Template, version: TemplateVersion): TemplateFile {
  const labels = Object.entries(template.labels)
    .filter(([, id]) => id === version.id)
    .map(([label]) => label)
    .sort();
  const front: TemplateFileFrontMatter = {
    template: template.id,
    name: template.name,
    family: template.family,
    role: template.role,
    strategy: template.strategy,
    source: template.source,
    builtIn: version.builtIn,
    version: version.id,
    number: version.number,
    parent: version.parentId,
    message: version.message,
    createdAt: version.createdAt,
    labels,
  };
  // stringify("") ends with a blank line after the closing `---`; the body starts right after the delimiter's newline.
  const head = matter.stringify("", front).replace(/\n$/, "");
  return { path: templateFilePath(template, version), content: `${head}${version.text}\n` };
}

/** A file read back: its metadata and the version's text; or why it cannot be read. */
export type ParsedTemplateFile = { ok: true; front: TemplateFileFrontMatter; text: string } | { ok: false; reason: string };

/** Reads a template file (what {@link toTemplateFile} writes; hand-written files need only the required front matter). */
export function parseTemplateFile(content: string): ParsedTemplateFile {
  let parsed: matter.GrayMatterFile<string>;
  try {
    // Passing options turns gray-matter's cache off (it keeps every input it parsed without options).
    parsed = matter(content.replace(/\r\n/g, "\n"), { language: "yaml" });
  } catch (error) {
    return { ok: false, reason: `the front matter is not valid YAML: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}` };
  }
  if (Object.keys(parsed.data).length === 0) return { ok: false, reason: "no front matter (the file must start with --- and the template's metadata)" };
  const front = templateFileFrontMatterSchema.safeParse(parsed.data);
  if (!front.success) return { ok: false, reason: `front matter: ${describeIssues(front.error, "metadata")}` };
  const text = parsed.content.endsWith("\n") ? parsed.content.slice(0, -1) : parsed.content;
  if (text.trim() === "") return { ok: false, reason: "the template text (after the front matter) is empty" };
  return { ok: true, front: front.data, text };
}
