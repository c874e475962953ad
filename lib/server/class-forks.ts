import { runAs } from "@/lib/actors/actor-context";
import { lessonActor } from "@/lib/auth/system-actors";
import type { ClassFork, ClassForkRecord } from "@/lib/domain/class-session";
import type { EnvironmentId } from "@/lib/domain/config";
import { AppError } from "@/lib/domain/errors";
import type { RunEvent } from "@/lib/domain/events";
import { matchKeyFacts } from "@/lib/domain/key-facts";
import { keyFactsFor } from "@/lib/environments/demo-key-facts";
import { forkPointsByEventId } from "@/lib/graph/branches";
import type { RunService } from "./run-service";

/**
 * Class forks (docs/guides/teaching.md "Teaching a class"): trial N+1 of the lesson's run with a
 * reflection the class wrote, each on its own branch, exactly as "write your own reflection"
 * forks (components/reflection-practice): at the checkpoint after trial N's reflection, with a
 * `reflection` edit setting it to the class's text, replaying recorded calls. Progress and
 * outcome come from the branch's log; the matched key facts from the demo model's facts
 * (lib/environments/demo-key-facts.ts), as the practice rubric shows them.
 */

/** One fork to run: the reflection group it comes from and the text. */
export interface ForkInput {
  groupId: string;
  text: string;
}

/**
 * Forks the lesson run's root branch once per input, after trial `trial`'s reflection, as the
 * lesson's actor (a lesson's run is everyone's). Returns the records to store.
 * @throws AppError("conflict") when the run has no reflection of trial `trial` yet (or no checkpoint after it).
 */
export async function runClassForks(runs: RunService, options: { classId: string; lessonId: string; runId: string; step: number; trial: number; inputs: readonly ForkInput[]; now: () => Date }): Promise<ClassForkRecord[]> {
  const { events } = await runs.events(options.runId);
  const reflection = events.find((event) => event.type === "reflection-end" && event.data.trial === options.trial);
  const point = reflection ? forkPointsByEventId(events).get(reflection.id) : undefined;
  if (!reflection || !point) throw new AppError("conflict", `The lesson's run has no reflection of trial ${options.trial} to replace yet; wait until the run reaches it (the projector shows it), then run the forks again.`);
  const records: ClassForkRecord[] = [];
  for (const input of options.inputs) {
    const { branchId } = await runAs(lessonActor(options.lessonId), () =>
      runs.fork(options.runId, { atSeq: point.atSeq, replay: "recorded", edits: [{ kind: "reflection", reflectionEventId: reflection.id, text: input.text, note: "a class's reflection" }] }),
    );
    records.push({ classId: options.classId, step: options.step, groupId: input.groupId, text: input.text, branchId, trial: options.trial + 1, createdAt: options.now().toISOString() });
  }
  return records;
}

/** The task a fork's reflection is matched against (the run's config). */
export interface ForkTask {
  environment: EnvironmentId;
  taskId: string;
  strategy?: string;
}

/**
 * A fork's progress and outcome from its branch's log: `succeeded` / `failed` once trial N+1
 * ends (`trial-end` outcome), `failed` when the branch ended, errored or was cancelled before
 * that, else `running`. `matchedFacts`: what the matched key facts say (empty for a task with none).
 */
export function forkView(record: ClassForkRecord, branchEvents: readonly RunEvent[], task: ForkTask): ClassFork {
  let status: ClassFork["status"] = "running";
  for (const event of branchEvents) {
    if (event.branchId !== record.branchId) continue;
    if (event.type === "trial-end" && event.data.trial === record.trial) {
      status = event.data.outcome === "success" ? "succeeded" : "failed";
      break;
    }
    if (event.type === "run-end" || event.type === "run-error" || event.type === "run-cancel") {
      status = "failed";
      break;
    }
  }
  const facts = keyFactsFor(task);
  const matched = facts ? new Set(matchKeyFacts(facts, record.text).matched) : new Set<string>();
  return {
    groupId: record.groupId,
    text: record.text,
    branchId: record.branchId,
    status,
    trial: record.trial,
    matchedFacts: (facts ?? []).filter((fact) => matched.has(fact.id)).map((fact) => fact.says),
  };
}
