import { z } from "zod";
import { runConfigSchema } from "@/lib/domain/config";
import { AppError } from "@/lib/domain/errors";
import { branchSummaryStateSchema, type BranchSummaryState } from "@/lib/domain/branch-summary";
import { modelUsageSchema, runEventSchema, type RunEvent } from "@/lib/domain/events";
import { actorSchema } from "@/lib/domain/actor";
import { actorField } from "../validate-event";
import { asBranchId, asRunId } from "@/lib/domain/ids";
import { callActivitySchema, type CallActivity } from "@/lib/domain/status";
import type { CachedResponse } from "@/lib/engine/ports";
import type { BranchRecord, LeaseRecord, RunRecord } from "../store";
import type * as schema from "./schema";

/** Row ↔ record helpers of the PostgreSQL adapters (zod at the DB boundary; `jsonb` arrives parsed). */

export function eventToRow(event: RunEvent): typeof schema.events.$inferInsert {
  return {
    id: event.id,
    runId: event.runId,
    branchId: event.branchId,
    seq: event.seq,
    type: event.type,
    schemaVersion: event.schemaVersion,
    occurredAt: event.occurredAt,
    causedBy: event.causedBy,
    data: event.data,
    actor: event.actor ?? null,
  };
}

/** @throws AppError("internal") when a stored event does not match the catalogue. */
export function eventFromRow(row: typeof schema.events.$inferSelect): RunEvent {
  const { actor, ...rest } = row;
  const known = actor === null ? null : actorSchema.safeParse(actor);
  // No actor, or a damaged one, reads as none rather than making the whole log unreadable.
  const parsed = runEventSchema.safeParse({ ...rest, ...actorField(known?.success ? known.data : null) });
  if (!parsed.success) {
    throw new AppError("internal", `Stored event ${row.id} (seq ${row.seq}) does not match the event catalogue: ${parsed.error.issues[0]?.message ?? ""}`);
  }
  return parsed.data;
}

export function branchFromRow(row: typeof schema.branches.$inferSelect): BranchRecord {
  return {
    id: asBranchId(row.id),
    runId: asRunId(row.runId),
    parentBranchId: row.parentBranchId === null ? null : asBranchId(row.parentBranchId),
    forkSeq: row.forkSeq,
    createdAt: row.createdAt,
  };
}

export function runFromRow(row: typeof schema.runs.$inferSelect): RunRecord {
  return { id: asRunId(row.id), createdAt: row.createdAt, rootBranchId: asBranchId(row.rootBranchId), title: row.title, config: runConfigSchema.parse(row.config), ownerUserId: row.ownerUserId };
}

/** A lease row as a {@link LeaseRecord}; a damaged activity (transient data) is dropped, not fatal. */
export function leaseFromRow(row: typeof schema.branchLeases.$inferSelect): LeaseRecord {
  let activity: CallActivity | null = null;
  if (row.activity !== null) {
    const parsed = callActivitySchema.safeParse(row.activity);
    activity = parsed.success ? parsed.data : null;
  }
  return { branchId: asBranchId(row.branchId), owner: row.owner, expiresAt: row.expiresAt, activity };
}

/** @throws AppError("internal") when a stored summary does not match the schema. */
export function summaryFromJson(json: unknown, branchId: string): BranchSummaryState {
  const parsed = branchSummaryStateSchema.safeParse(json);
  if (!parsed.success) throw new AppError("internal", `The stored summary of branch ${branchId} is damaged: ${parsed.error.issues[0]?.message ?? ""}`);
  return parsed.data;
}

/** A cached response as stored (usage with its optional cached / cache-write token counts). */
export const cachedResponseSchema: z.ZodType<CachedResponse> = z.object({ text: z.string(), usage: modelUsageSchema, finishReason: z.string() });
