import { currentActor, signedInName } from "@/lib/actors/actor-context";
import type { Command } from "commander";
import { SCORE_SCALES, type Annotation, type AnnotationScore } from "@/lib/domain/annotations";
import { AppError } from "@/lib/domain/errors";
import { escapeControlCharacters } from "@/lib/domain/ids";
import { cliContext } from "./context";

/** `--tag` given several times: every value, in order. */
const collect = (value: string, previous: string[] = []) => [...previous, value];

/**
 * A `--score` value: `<scale>=<k>` (e.g. `quality=4`, `correct=1`), or a bare `k` on the `quality` scale.
 * The range is checked by the annotation schema (lib/domain/annotations.ts).
 * @throws AppError("invalid-input") naming the scales when the value is not of that shape.
 */
export function parseScoreFlag(value: string): AnnotationScore {
  const match = /^(?:([a-z-]+)=)?(-?\d+)$/u.exec(value.trim());
  if (!match) throw new AppError("invalid-input", `--score takes <scale>=<k>, e.g. quality=4 (scales: ${SCORE_SCALES.map((s) => `${s.name} ${s.min}–${s.max}`).join(", ")}); got "${value}".`);
  return { scale: match[1] ?? "quality", value: Number(match[2]) };
}

/**
 * Who writes: with sign-in on, the token's person (the note is stored under them whatever is typed);
 * else `--author`, else `$USER`.
 * @throws AppError("invalid-input") asking for `--author` when none of these is known.
 */
export function authorOf(flag: string | undefined, env: Record<string, string | undefined> = process.env): string {
  const name = signedInName(currentActor()) ?? (flag?.trim() || env.USER?.trim() || env.USERNAME?.trim());
  if (!name) throw new AppError("invalid-input", "Say who you are: add --author <name> (no USER is set in this environment to use instead).");
  return name;
}

/** When an annotation was made or last changed, as `YYYY-MM-DD HH:MM` (UTC). */
const minute = (iso: string) => iso.slice(0, 16).replace("T", " ");

/** The first line of a comment, cut to `width` characters, control characters escaped. */
function firstLine(text: string, width: number): string {
  const line = escapeControlCharacters(text.split("\n")[0] ?? "");
  return line.length > width ? `${line.slice(0, width - 1)}…` : line;
}

/**
 * The human table of `cli annotations`: seq, node kind, trial/step, author, time, tags, score and the
 * comment's first line; a reply is indented under its parent (`↳`), an edited one says so and a
 * deleted one is marked with who deleted it.
 */
export function formatAnnotationTable(annotations: readonly Annotation[]): string {
  if (annotations.length === 0) return "No annotations on this branch yet. Add one with: cli annotate --run <id> --seq <n> --text \"…\"\n";
  const children = new Map<string | null, Annotation[]>();
  const ids = new Set(annotations.map((annotation) => annotation.id));
  for (const annotation of annotations) {
    const parent = annotation.parentId !== null && ids.has(annotation.parentId) ? annotation.parentId : null;
    children.set(parent, [...(children.get(parent) ?? []), annotation]);
  }
  const rows: string[][] = [["SEQ", "NODE", "TRIAL/STEP", "AUTHOR", "TIME (UTC)", "TAGS", "SCORE", "TEXT"]];
  const walk = (parent: string | null, depth: number) => {
    for (const annotation of children.get(parent) ?? []) {
      const { target, content } = annotation;
      const marks = [annotation.deleted ? `[deleted by ${annotation.updatedBy}]` : "", !annotation.deleted && annotation.history.length > 0 ? `(edited by ${annotation.updatedBy})` : ""].filter(Boolean).join(" ");
      rows.push([
        target.seq === null ? "-" : String(target.seq),
        target.kind,
        target.trial === null ? "-" : target.step === null ? String(target.trial) : `${target.trial}/${target.step}`,
        escapeControlCharacters(annotation.author),
        minute(annotation.createdAt),
        content.tags.join(",") || "-",
        content.score ? `${content.score.scale}=${content.score.value}` : "-",
        `${depth > 0 ? `${"  ".repeat(depth - 1)}↳ ` : ""}${marks ? `${marks} ` : ""}${firstLine(content.text, 70)}`,
      ]);
      walk(annotation.id, depth + 1);
    }
  };
  walk(null, 0);
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows.map((row) => row.map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column]!))).join("  ")).join("\n") + "\n";
}

/**
 * `cli annotate` (add a note, or a reply with `--reply-to`, on the node at `--seq` of a branch) and
 * `cli annotations` (list what a branch sees, as a table or `--json`). Both use the same annotation
 * log as the web app's inspector (lib/server/annotation-service.ts).
 */
export function registerAnnotationCommands(program: Command): void {
  program
    .command("annotate")
    .description("Add a note (Markdown comment, tags, a score) on a node of a run: the event at --seq of a branch, or reply to a note.")
    .requiredOption("--run <id>", "the run")
    .option("--seq <n>", "the node's seq on the branch (see `cli events --run <id>`; not needed with --reply-to)")
    .option("--branch <id>", "the branch you are looking at (default the root)")
    .option("--text <markdown>", "the comment (Markdown; shown text-safe); a note needs a comment, a --tag or a --score")
    .option("--tag <tag>", "a tag such as loop or false-positive (repeat for more)", collect, [])
    .option("--score <scale=k>", `a score: ${SCORE_SCALES.map((s) => `${s.name}=${s.min}…${s.max}`).join(", ")} (a bare k is quality)`)
    .option("--author <name>", "who writes it (default $USER; with sign-in on, the token's person)")
    .option("--reply-to <annotationId>", "reply to this note (the reply is on the same node)")
    .option("--json", "print the stored annotation as JSON")
    .action(async (options: { run: string; seq?: string; branch?: string; text?: string; tag: string[]; score?: string; author?: string; replyTo?: string; json?: boolean }) => {
      const author = authorOf(options.author);
      const score = options.score === undefined ? null : parseScoreFlag(options.score);
      if (options.seq === undefined && options.replyTo === undefined) throw new AppError("invalid-input", "Say which node: --seq <n> (its seq on the branch, see `cli events --run <id>`), or --reply-to <annotationId>.");
      const seq = options.seq === undefined ? null : Number(options.seq);
      if (seq !== null && (!Number.isInteger(seq) || seq < 1)) throw new AppError("invalid-input", `--seq takes a positive whole number (an event's seq), not "${options.seq}".`);
      const context = cliContext();
      try {
        const branch = options.branch;
        const node = seq === null ? null : await context.annotations.eventAt(options.run, seq, branch);
        const branchId = node?.branchId ?? branch ?? (await context.annotations.listing(options.run)).branchId;
        const annotation = await context.annotations.create(options.run, {
          target: { branchId, eventId: node?.eventId ?? "reply", kind: "run", trial: null, step: null, seq: null },
          parentId: options.replyTo ?? null,
          author,
          content: { text: options.text ?? "", tags: options.tag, score },
        });
        if (options.json) {
          process.stdout.write(`${JSON.stringify(annotation)}\n`);
          return;
        }
        const where = `${annotation.target.kind}${annotation.target.seq === null ? "" : ` at seq ${annotation.target.seq}`}${annotation.target.trial === null ? "" : ` (trial ${annotation.target.trial}${annotation.target.step === null ? "" : `, step ${annotation.target.step}`})`}`;
        process.stdout.write(`${annotation.parentId ? "Replied" : "Added"} ${annotation.id} on the ${where} of run ${annotation.target.runId}, by ${escapeControlCharacters(annotation.author)}.\n`);
      } finally {
        await context.close();
      }
    });

  program
    .command("annotations")
    .description("List the notes people made on a run's nodes that a branch sees (deleted ones marked), as a table or JSON.")
    .requiredOption("--run <id>", "the run")
    .option("--branch <id>", "the branch (default the root); a fork sees the notes on the prefix it shares")
    .option("--json", "print { runId, branchId, annotations } as JSON (every field, edit history included)")
    .action(async (options: { run: string; branch?: string; json?: boolean }) => {
      const context = cliContext();
      try {
        const listing = await context.annotations.listing(options.run, options.branch);
        process.stdout.write(options.json ? `${JSON.stringify(listing)}\n` : formatAnnotationTable(listing.annotations));
      } finally {
        await context.close();
      }
    });
}
