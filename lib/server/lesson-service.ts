import { runAs } from "@/lib/actors/actor-context";
import { lessonActor } from "@/lib/auth/system-actors";
import fs from "node:fs";
import path from "node:path";
import matter from "gray-matter";
import type { RunRecord } from "@/lib/db/store";
import type { Breakpoints } from "@/lib/domain/config";
import { AppError } from "@/lib/domain/errors";
import { lessonSchema, type Lesson, type LessonDocument, type LessonListResponse, type LessonRunResponse } from "@/lib/lessons/lesson-schema";
import { getServerContext, type ServerContext } from "./app-context";
import { DEMO_MODEL_ID, isDemoModel } from "@/lib/domain/model-id";
import { describeIssues } from "@/lib/domain/describe-issues";

/**
 * Lessons as data (docs/decisions/0021): reads `lessons/*.md` (YAML
 * front matter = the lesson, validated by `lessonSchema`; the Markdown body = its
 * introduction) and makes the run a lesson plays — a built-in task with the demo
 * model, or a question of the authors' imported log — once, reusing it afterwards.
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

type LessonContext = Pick<ServerContext, "store" | "service" | "imports">;

/** A lesson file's text parsed and validated; the error names the file and the field. */
export function parseLessonFile(file: string, text: string): LessonDocument {
  let parsed: matter.GrayMatterFile<string>;
  try {
    parsed = matter(text);
  } catch (error) {
    throw new AppError("invalid-input", `${file}: the front matter is not valid YAML (${error instanceof Error ? error.message.split("\n")[0] : String(error)}).`);
  }
  const result = lessonSchema.safeParse(parsed.data);
  if (!result.success) {
    throw new AppError("invalid-input", `${file}: ${describeIssues(result.error, "(lesson)", 5)}. See the lesson schema in docs/guides/teaching.md, "Writing a lesson".`);
  }
  return { lesson: result.data, introduction: parsed.content.trim(), file };
}

/** Loads lessons from a folder and plays them on runs of one server context. */
export class LessonService {
  private readonly dir: string;
  private readonly pending = new Map<string, Promise<LessonRunResponse>>();

  constructor(
    private readonly context: LessonContext,
    options: { dir?: string; env?: Record<string, string | undefined> } = {},
  ) {
    const env = options.env ?? process.env;
    this.dir = path.resolve(/* turbopackIgnore: true */ options.dir ?? env.REFLEXION_LESSONS_DIR ?? DEFAULT_LESSONS_DIR);
  }

  /** Every `*.md` lesson of the folder, by file name; files that fail validation are listed as problems, never dropped silently. */
  list(): LessonListResponse {
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

  /** @throws AppError("not-found") naming the lessons that exist. */
  get(lessonId: string): LessonDocument {
    const { lessons, problems } = this.list();
    const found = lessons.find((document) => document.lesson.id === lessonId);
    if (found) return found;
    const broken = problems.find((problem) => problem.file.replace(/\.md$/, "") === lessonId);
    if (broken) throw new AppError("invalid-input", broken.message);
    throw new AppError("not-found", `No lesson "${lessonId}". Lessons: ${lessons.map((document) => document.lesson.id).join(", ") || "none"}.`);
  }

  /**
   * The run a lesson plays. Idempotent: concurrent calls share one creation, and a run made
   * earlier with the same settings whose root branch has no edits (and did not fail) is reused.
   */
  async ensureRun(lessonId: string): Promise<LessonRunResponse> {
    const { lesson } = this.get(lessonId);
    const existing = this.pending.get(lessonId);
    if (existing) return existing;
    const work = this.findOrCreate(lesson).finally(() => this.pending.delete(lessonId));
    this.pending.set(lessonId, work);
    return work;
  }

  private async findOrCreate(lesson: Lesson): Promise<LessonRunResponse> {
    const spec = lesson.run;
    if (spec.kind === "imported") return this.importedRun(lesson.id, spec);
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

type GlobalWithLessons = typeof globalThis & { __reflexionLessonService?: LessonService };

/** The process's lesson service, over {@link getServerContext} (routes and server pages). */
export function getLessonService(): LessonService {
  const holder: GlobalWithLessons = globalThis;
  holder.__reflexionLessonService ??= new LessonService(getServerContext());
  return holder.__reflexionLessonService;
}
