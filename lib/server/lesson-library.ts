import { runAs } from "@/lib/actors/actor-context";
import { lessonActor } from "@/lib/auth/system-actors";
import fs from "node:fs";
import path from "node:path";
import type { Breakpoints } from "@/lib/domain/config";
import { AppError, isAppError } from "@/lib/domain/errors";
import { lessonSchema, type Lesson, type LessonDocument, type LessonListResponse, type LessonRunResponse } from "@/lib/lessons/lesson-schema";
import { parseLessonFile } from "@/lib/lessons/parse-lesson-file";
import type { RunRecord, RunStore } from "@/lib/db/store";
import type { PaperImportService } from "@/lib/importers/import-service";
import type { RunService } from "./run-service";
import { DEMO_MODEL_ID, isDemoModel } from "@/lib/domain/model-id";
import { describeIssues } from "@/lib/domain/describe-issues";
import { asRunId } from "@/lib/domain/ids";
import type { LessonStore, StoredLesson } from "@/lib/db/lesson-store";
import { MemoryLessonStore } from "@/lib/db/lesson-store-memory";
import { lessonFileName, lessonFileText } from "@/lib/lessons/lesson-file";
import { checkLessonOnLog, describeLogProblems } from "@/lib/lessons/check-lesson";

/**
 * Lessons as data (docs/decisions/0021, 0043): reads `lessons/*.md` (YAML
 * front matter = the lesson, validated by `lessonSchema`; the Markdown body = its
 * introduction) and the lessons written in the app (the `lessons` table, same file text),
 * and makes the run a lesson plays — a built-in task with the demo model, or a question of
 * the authors' imported log — once, reusing it afterwards; a lesson over a stored run plays that run.
 */

/** The lessons folder, relative to the working directory; override with REFLEXION_LESSONS_DIR. */
export const DEFAULT_LESSONS_DIR = "lessons";

/** How many recent runs are searched for one a lesson can reuse. */
const REUSE_SEARCH_LIMIT = 500;

/** Edit events that make a run's root branch something other than what the lesson describes. */
const EDIT_TYPES = new Set(["reflection-edit", "memory-edit", "prompt-edit", "settings-edit", "action-edit"]);

/** True when a run pauses on its own somewhere (a lesson's run must play straight through). */
function hasBreakpoints(breakpoints: Breakpoints): boolean {
  return breakpoints.afterReflection || breakpoints.afterObservation || breakpoints.afterEvaluation || breakpoints.beforeModelCall.actor || breakpoints.beforeModelCall.reflector;
}

/** What the lesson service uses of a server context (lib/server/app-context.ts); without `lessons`, authored lessons live in memory (tests). */
export interface LessonContext {
  store: RunStore;
  service: RunService;
  imports: PaperImportService;
  lessons?: LessonStore;
}

/** A lesson given as JSON (`{ lesson, introduction }`), validated like a file. @throws AppError("invalid-input") naming the field. */
function documentOf(file: string, input: { lesson: unknown; introduction?: string }): LessonDocument {
  const result = lessonSchema.safeParse(input.lesson);
  if (!result.success) throw new AppError("invalid-input", `${file}: ${describeIssues(result.error, "(lesson)", 5)}.`);
  return { lesson: result.data, introduction: (input.introduction ?? "").trim(), file, source: "authored" };
}

/** A stored row as a lesson document (source `authored`). @throws AppError("invalid-input") when its text no longer validates. */
function authoredDocument(row: StoredLesson): LessonDocument {
  const parsed = parseLessonFile(lessonFileName(row.id), row.fileText);
  if (parsed.lesson.id !== row.id) throw new AppError("invalid-input", `${lessonFileName(row.id)}: the stored file's id is "${parsed.lesson.id}". Save the lesson again.`);
  return { ...parsed, source: "authored", updatedAt: row.updatedAt };
}

/** What {@link LessonService.save} takes: a lesson file's text, or the lesson itself (with its introduction). */
export type LessonInput = { text: string } | { lesson: unknown; introduction?: string };

/** Ids an authored lesson may not take: they name pages under /lessons/. */
const RESERVED_IDS = new Set(["new"]);

/**
 * Loads lessons from a folder and from the app's store (lessons written in the app), and plays
 * them on runs of one server context. A folder lesson's id cannot be taken by an authored one.
 */
export class LessonService {
  private readonly dir: string;
  private readonly pending = new Map<string, Promise<LessonRunResponse>>();
  private readonly authored: LessonStore;
  private readonly now: () => Date;

  constructor(
    private readonly context: LessonContext,
    options: { dir?: string; env?: Record<string, string | undefined>; now?: () => Date } = {},
  ) {
    const env = options.env ?? process.env;
    this.dir = path.resolve(/* turbopackIgnore: true */ options.dir ?? env.REFLEXION_LESSONS_DIR ?? DEFAULT_LESSONS_DIR);
    this.authored = context.lessons ?? new MemoryLessonStore();
    this.now = options.now ?? (() => new Date());
  }

  /** The folder's `*.md` lessons by file name; files that fail validation are problems, never dropped silently. */
  private folder(): LessonListResponse {
    if (!fs.existsSync(this.dir)) return { lessons: [], problems: [{ file: this.dir, message: `No lessons folder at ${this.dir}; set REFLEXION_LESSONS_DIR or run from the project folder.` }] };
    const lessons: LessonDocument[] = [];
    const problems: LessonListResponse["problems"] = [];
    const seen = new Set<string>();
    for (const name of fs.readdirSync(this.dir).filter((entry) => entry.endsWith(".md")).sort()) {
      try {
        const document = parseLessonFile(name, fs.readFileSync(path.join(this.dir, name), "utf8"));
        if (seen.has(document.lesson.id)) throw new AppError("invalid-input", `${name}: another lesson file already has the id "${document.lesson.id}".`);
        seen.add(document.lesson.id);
        lessons.push(document);
      } catch (error) {
        problems.push({ file: name, message: error instanceof Error ? error.message : String(error) });
      }
    }
    return { lessons, problems };
  }

  /**
   * Every lesson: the folder's (by file name), then the authored ones (by id). A stored lesson that
   * no longer validates, or whose id a folder file took since, is listed as a problem.
   */
  async list(): Promise<LessonListResponse> {
    const { lessons, problems } = this.folder();
    const folderIds = new Set(lessons.map((document) => document.lesson.id));
    for (const row of await this.authored.listLessons()) {
      try {
        const document = authoredDocument(row);
        if (folderIds.has(document.lesson.id)) throw new AppError("conflict", `${document.file} (written in the app): the lessons folder now has a lesson "${document.lesson.id}" too, which wins. Export the authored one, change its id and import it again.`);
        lessons.push(document);
      } catch (error) {
        problems.push({ file: lessonFileName(row.id), message: error instanceof Error ? error.message : String(error) });
      }
    }
    return { lessons, problems };
  }

  /** One lesson by id (folder first). @throws AppError("not-found") naming the lessons that exist; AppError("invalid-input") for a file that does not validate. */
  async get(lessonId: string): Promise<LessonDocument> {
    const { lessons, problems } = await this.list();
    const found = lessons.find((document) => document.lesson.id === lessonId);
    if (found) return found;
    const broken = problems.find((problem) => problem.file.replace(/\.md$/, "") === lessonId);
    if (broken) throw new AppError("invalid-input", broken.message);
    throw new AppError("not-found", `No lesson "${lessonId}". Lessons: ${lessons.map((document) => document.lesson.id).join(", ") || "none"}.`);
  }

  /** The `.md` file of a lesson (front matter written with the `yaml` package): parseLessonFile reads it back as the same lesson. */
  async fileOf(lessonId: string): Promise<{ fileName: string; text: string }> {
    const { lesson, introduction } = await this.get(lessonId);
    return { fileName: lessonFileName(lesson.id), text: lessonFileText(lesson, introduction) };
  }

  /**
   * Creates or replaces an authored lesson from its file text or JSON, validated with lessonSchema;
   * a lesson over a stored run must also resolve on that run's log (every cursor, node and question).
   * With `expectNew`, an authored lesson saved earlier under the same id is not replaced (409).
   * @throws AppError("invalid-input") naming the step and field; AppError("conflict") when the id is a
   *   folder lesson's (or reserved), or taken with `expectNew`; AppError("not-found") when its stored run is not in this store.
   */
  async save(input: LessonInput, options: { file?: string; expectNew?: boolean } = {}): Promise<LessonDocument> {
    const file = options.file ?? "lesson";
    const document = "text" in input ? parseLessonFile(file, input.text) : documentOf(file, input);
    const { lesson } = document;
    if (options.expectNew) {
      const existing = await this.authored.getLesson(lesson.id);
      if (existing) throw new AppError("conflict", `A lesson "${lesson.id}" was written in the app already: give this one another id, or open /lessons/${lesson.id}/edit to change that one.`);
    }
    if (RESERVED_IDS.has(lesson.id)) throw new AppError("conflict", `"${lesson.id}" names a page (/lessons/${lesson.id}): give the lesson another id.`);
    if (this.folder().lessons.some((entry) => entry.lesson.id === lesson.id)) {
      throw new AppError("conflict", `The lessons folder already has a lesson "${lesson.id}" (a file in lessons/), and an authored lesson cannot replace it: give yours another id, e.g. ${lesson.id}-2, or edit that file.`);
    }
    if (lesson.run.kind === "stored") await this.checkStored(lesson, lesson.run.runId);
    const updatedAt = this.now().toISOString();
    await this.authored.putLesson({ id: lesson.id, fileText: lessonFileText(lesson, document.introduction), updatedAt });
    return { lesson, introduction: document.introduction, file: lessonFileName(lesson.id), source: "authored", updatedAt };
  }

  /** Removes an authored lesson. @throws AppError("conflict") for a folder lesson; AppError("not-found") when there is none. */
  async remove(lessonId: string): Promise<void> {
    if (this.folder().lessons.some((entry) => entry.lesson.id === lessonId)) {
      throw new AppError("conflict", `"${lessonId}" is a file in the lessons folder, not a lesson written in the app: delete lessons/${lessonId}.md (or the file holding it) instead.`);
    }
    if (!(await this.authored.deleteLesson(lessonId))) throw new AppError("not-found", `No authored lesson "${lessonId}" to delete.`);
  }

  /**
   * Imports a lesson (a `.md` file, or a bundle's lesson record) as an authored lesson. When its id is
   * taken — by a folder lesson, or by an authored lesson with other content — it is stored under a free
   * id (`<id>-2`…) and `renamedFrom` says so; the same lesson imported twice (under its id or the free
   * one it got) is kept once (`unchanged`).
   * @throws like {@link save}, storing nothing.
   */
  async importLesson(input: LessonInput, options: { file?: string } = {}): Promise<{ document: LessonDocument; renamedFrom?: string; unchanged: boolean }> {
    const file = options.file ?? "lesson.md";
    const parsed = "text" in input ? parseLessonFile(file, input.text) : documentOf(file, input);
    const text = lessonFileText(parsed.lesson, parsed.introduction);
    // The same lesson imported before: under its id, or under a free id it was given then (`<id>-2`).
    for (const row of await this.authored.listLessons()) {
      if (row.id !== parsed.lesson.id && !row.id.startsWith(`${parsed.lesson.id}-`)) continue;
      try {
        const here = authoredDocument(row);
        if (lessonFileText({ ...here.lesson, id: parsed.lesson.id }, here.introduction) === text) return { document: here, unchanged: true };
      } catch (error) {
        if (!isAppError(error)) throw error;
      }
    }
    const id = await this.freeId(parsed.lesson.id);
    const lesson = { ...parsed.lesson, id };
    const document = await this.save({ lesson, introduction: parsed.introduction }, { file });
    return { document, unchanged: false, ...(id !== parsed.lesson.id ? { renamedFrom: parsed.lesson.id } : {}) };
  }

  /** A free id for an imported lesson: `lessonId` itself, or `lessonId-2`, `-3`… when a lesson (folder or authored) has it. */
  async freeId(lessonId: string): Promise<string> {
    const taken = new Set((await this.list()).lessons.map((document) => document.lesson.id));
    for (const row of await this.authored.listLessons()) taken.add(row.id);
    if (!taken.has(lessonId) && !RESERVED_IDS.has(lessonId)) return lessonId;
    for (let suffix = 2; ; suffix += 1) {
      const candidate = `${lessonId.slice(0, 60)}-${suffix}`;
      if (!taken.has(candidate)) return candidate;
    }
  }

  /** The stored run exists, is of the lesson's family, and its log holds everything the lesson names. */
  private async checkStored(lesson: Lesson, runId: string): Promise<void> {
    const run = await this.context.store.getRun(asRunId(runId));
    if (!run) throw new AppError("not-found", `Lesson "${lesson.id}" plays run ${runId}, which is not in this store: import that run (or its bundle) first, or point run.runId at a run listed on the home page.`);
    if (run.config.environment !== lesson.family) {
      throw new AppError("invalid-input", `family: run ${runId} is a ${run.config.environment} run, so the lesson's family must be ${run.config.environment} (it is ${lesson.family}).`);
    }
    const events = await this.context.store.list(run.id, run.rootBranchId, 0);
    const problems = checkLessonOnLog(lesson, events);
    if (problems.length > 0) throw new AppError("invalid-input", `The lesson does not fit run ${runId}'s log: ${describeLogProblems(lesson, problems)}.`);
  }

  /**
   * The run a lesson plays. Idempotent: concurrent calls share one creation, and a run made
   * earlier with the same settings whose root branch has no edits (and did not fail) is reused.
   */
  async ensureRun(lessonId: string): Promise<LessonRunResponse> {
    const { lesson } = await this.get(lessonId);
    const existing = this.pending.get(lessonId);
    if (existing) return existing;
    const work = this.findOrCreate(lesson).finally(() => this.pending.delete(lessonId));
    this.pending.set(lessonId, work);
    return work;
  }

  private async findOrCreate(lesson: Lesson): Promise<LessonRunResponse> {
    const spec = lesson.run;
    if (spec.kind === "imported") return this.importedRun(lesson.id, spec);
    if (spec.kind === "stored") {
      // Played as it is: the run is in this store already (a lesson over a stored run never makes one).
      const run = await this.context.store.getRun(asRunId(spec.runId));
      if (!run) throw new AppError("not-found", `Lesson "${lesson.id}" plays run ${spec.runId}, which is not in this store: import that run (or its bundle), or delete the lesson.`);
      return { runId: run.id, reused: true };
    }
    const builtinSetName = (await this.context.service.listTasks(spec.environment, "builtin")).taskSet.name;
    const runs = await this.context.store.listRuns(REUSE_SEARCH_LIMIT);
    const candidates = runs.filter(
      (run) =>
        run.config.environment === spec.environment &&
        run.config.taskSetName === builtinSetName &&
        run.config.taskId === spec.taskId &&
        run.config.strategy === spec.strategy &&
        isDemoModel(run.config.models.actor.modelId) &&
        isDemoModel(run.config.models.reflector.modelId) &&
        run.config.maxTrials === (spec.maxTrials ?? run.config.maxTrials) &&
        run.config.provenance == null &&
        !hasBreakpoints(run.config.breakpoints),
    );
    for (const run of candidates) if (await this.reusable(run)) return { runId: run.id, reused: true };
    // A lesson's run is everyone's: made by the lesson, owned by no one.
    const run = await runAs(lessonActor(lesson.id), () =>
      this.context.service.createRun({
        environment: spec.environment,
        taskSet: "builtin",
        taskId: spec.taskId,
        strategy: spec.strategy,
        modelId: DEMO_MODEL_ID,
        ...(spec.maxTrials !== undefined ? { maxTrials: spec.maxTrials } : {}),
      }),
    );
    return { runId: run.id, reused: false };
  }

  /** Unedited root branch, and not failed or cancelled (a run still going is fine: the lesson follows it). */
  private async reusable(run: RunRecord): Promise<boolean> {
    const status = await this.context.service.status(run);
    if (status === "error") return false;
    const { events } = await this.context.service.events(run.id);
    if (events.some((event) => EDIT_TYPES.has(event.type) || event.type === "run-cancel" || event.type === "run-error")) return false;
    return true;
  }

  /** Imports the authors' log (idempotent by content) and returns the run of the lesson's question. */
  private async importedRun(lessonId: string, spec: Extract<Lesson["run"], { kind: "imported" }>): Promise<LessonRunResponse> {
    const root = this.context.imports.dataRoot;
    if (!root) {
      throw new AppError("not-found", `Lesson "${lessonId}" plays the authors' published run ${spec.log}, but no shared data folder was found. Set REFLEXION_DATA_ROOT to the folder that holds reflexion/, or run \`npm run cli -- import-logs <that folder>/${spec.log}\`.`);
    }
    const [result] = await this.context.imports.importPaths([spec.log]);
    if (!result) throw new AppError("not-found", `${spec.log} imported no experiment.`);
    const links = await this.context.store.experiments.listExperimentRuns(result.experimentId);
    const link = links.find((candidate) => candidate.taskId === spec.taskId);
    if (!link) throw new AppError("not-found", `The imported log ${spec.log} has no question "${spec.taskId}" (${links.length} runs). Fix the lesson's run.taskId.`);
    return { runId: link.runId, reused: result.alreadyImported };
  }
}
