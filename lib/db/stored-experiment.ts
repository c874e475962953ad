import { z } from "zod";
import { armSchema, storedExperimentDefinitionSchema, type ExperimentDefinition, type ExperimentRecord } from "@/lib/domain/experiment";
import { environmentIdSchema } from "@/lib/domain/config";
import { provenanceSchema } from "@/lib/domain/provenance";
import { describeIssues } from "@/lib/domain/describe-issues";
import { defaultFamilyId } from "@/lib/environments/descriptors";

/**
 * Reading an experiment row back, shared by the SQLite and PostgreSQL adapters. A stored row is read
 * as leniently as it can be, because one unreadable row must not take the whole list down:
 * - the size caps of a new definition (tasks per experiment, …) are limits on what may be ASKED for,
 *   checked before anything is stored; a row stored under other limits is still read whole;
 * - a row that does not parse even so comes back with `damaged` set, its name from its own column
 *   and whatever arms, tasks and settings can be read, so it is listed (marked damaged), shown, and
 *   its runs can still be cancelled through it.
 */

/** An experiment as read from a store; `damaged` says what could not be read (absent when all could). */
/** `ownerUserId`: the account that created the experiment (decision 0041); null or absent when none (see lib/server/ownership.ts). */
export type StoredExperimentRecord = ExperimentRecord & { damaged?: string; ownerUserId?: string | null };

/** The columns every adapter keeps beside the definition's JSON. */
export interface ExperimentRowHead {
  id: string;
  createdAt: string;
  name: string;
  taskSetName: string;
  /** The owner column (absent: the row is read without one). */
  ownerUserId?: string | null;
}

/**
 * The record of an experiment row from its columns and its definition's JSON (already parsed, or
 * a JSON string). Never throws: what cannot be read is described in `damaged`.
 */
export function experimentRecordFromStored(head: ExperimentRowHead, json: unknown): StoredExperimentRecord {
  let value: unknown = json;
  if (typeof json === "string") {
    try {
      value = JSON.parse(json);
    } catch (error) {
      return salvaged(head, null, `its JSON does not parse (${error instanceof Error ? error.message : String(error)})`);
    }
  }
  const base = { id: head.id, createdAt: head.createdAt, taskSetName: head.taskSetName, ...ownerOf(head) };
  const parsed = storedExperimentDefinitionSchema.safeParse(value);
  const provenanceOf = () => {
    const raw = value && typeof value === "object" && "provenance" in value ? value.provenance : undefined;
    if (raw === undefined) return { provenance: null };
    const stored = provenanceSchema.safeParse(raw);
    return stored.success ? { provenance: stored.data } : { provenance: null, damaged: `its provenance is damaged: ${describe(stored.error)}` };
  };
  if (!parsed.success) return salvaged(head, value, `its definition is damaged: ${describe(parsed.error)}`);
  const { provenance, damaged } = provenanceOf();
  return { ...base, definition: parsed.data as ExperimentDefinition, provenance, ...(damaged ? { damaged: message(head.id, damaged) } : {}) };
}

function ownerOf(head: ExperimentRowHead): { ownerUserId?: string | null } {
  return head.ownerUserId === undefined ? {} : { ownerUserId: head.ownerUserId };
}

function describe(error: z.ZodError): string {
  return describeIssues(error, "definition", 1) || "unknown reason";
}

function message(id: string, what: string): string {
  return `The stored experiment ${id} cannot be read whole: ${what}. Its runs are kept and can be cancelled; start a new experiment to run these tasks again.`;
}

/** A definition built from the fields that can still be read; the rest take their defaults. */
function salvaged(head: ExperimentRowHead, value: unknown, what: string): StoredExperimentRecord {
  const raw = value && typeof value === "object" ? (value as Record<string, unknown>) : {};
  const environment = environmentIdSchema.safeParse(raw.environment);
  const arms = Array.isArray(raw.arms) ? raw.arms.flatMap((arm) => {
    const read = armSchema.safeParse(arm);
    return read.success ? [read.data] : [];
  }) : [];
  const taskIds = Array.isArray(raw.taskIds) ? raw.taskIds.filter((id): id is string => typeof id === "string" && id.length > 0) : [];
  const number = (v: unknown, fallback: number) => (typeof v === "number" && Number.isInteger(v) && v > 0 ? v : fallback);
  const definition = {
    name: head.name,
    environment: environment.success ? environment.data : defaultFamilyId(),
    taskSet: typeof raw.taskSet === "string" ? raw.taskSet : "builtin",
    taskIds,
    arms,
    maxTrials: number(raw.maxTrials, 1),
    concurrency: number(raw.concurrency, 1),
    ...(typeof raw.repeats === "number" ? { repeats: number(raw.repeats, 1) } : {}),
  } as ExperimentDefinition;
  return { id: head.id, createdAt: head.createdAt, taskSetName: head.taskSetName, ...ownerOf(head), definition, provenance: null, damaged: message(head.id, what) };
}
