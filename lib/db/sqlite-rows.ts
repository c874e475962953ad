import { AppError } from "@/lib/domain/errors";
import { branchSummaryStateSchema, type BranchSummaryState } from "@/lib/domain/branch-summary";
import { asBranchId } from "@/lib/domain/ids";
import { callActivitySchema, type CallActivity } from "@/lib/domain/status";
import type * as schema from "./schema";
import type { LeaseRecord } from "./store";

/** Row → record helpers shared by the SQLite adapters (zod at the DB boundary). */

/** A lease row as a {@link LeaseRecord}; a damaged activity (transient data) is dropped, not fatal. */
export function toLeaseRecord(row: typeof schema.branchLeases.$inferSelect): LeaseRecord {
  let activity: CallActivity | null = null;
  if (row.activity !== null) {
    const parsed = callActivitySchema.safeParse(JSON.parse(row.activity));
    activity = parsed.success ? parsed.data : null; // transient data: a damaged value is dropped, not fatal
  }
  return { branchId: asBranchId(row.branchId), owner: row.owner, expiresAt: row.expiresAt, activity };
}

/**
 * A stored summary, parsed.
 * @throws AppError("internal") when it does not match the schema.
 */
export function parseSummary(json: string, branchId: string): BranchSummaryState {
  const parsed = branchSummaryStateSchema.safeParse(JSON.parse(json));
  if (!parsed.success) throw new AppError("internal", `The stored summary of branch ${branchId} is damaged: ${parsed.error.issues[0]?.message ?? ""}`);
  return parsed.data;
}

