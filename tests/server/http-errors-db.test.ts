import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it, vi } from "vitest";
import { openNodePostgres } from "@/lib/db/pg/database";
import { openPglite } from "@/lib/db/pg/pglite";
import { apiErrorSchema } from "@/lib/domain/api";
import { AppError } from "@/lib/domain/errors";
import { errorResponse, publicError } from "@/lib/server/http-errors";

/**
 * An API request that hits a database error (lib/server/http-errors.ts): unreachable →
 * 503 `database-unreachable` naming the cause and what to check; any other → the bare 500, with
 * the cause in the server log only. No SQL or parameters ever reach the client.
 */

const closed = openNodePostgres("postgres://reflexion:s3cret@127.0.0.1:1/reflexion", { max: 1 });
const pglite = openPglite();
afterAll(async () => {
  await closed.close();
  await pglite.close();
});

async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => new Error("it succeeded"),
    (error: unknown) => error,
  );
}

describe("errorResponse for database errors", () => {
  it("an unreachable database: 503 with the cause and what to check, no SQL, no password", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const response = errorResponse(await failure(closed.db.execute(sql`select * from runs where id = ${"secret-param"}`)));
    expect(response.status).toBe(503);
    const body = apiErrorSchema.parse(await response.json());
    expect(body.error.code).toBe("database-unreachable");
    expect(body.error.message).toBe("The database is unreachable: connect ECONNREFUSED 127.0.0.1:1 — check REFLEXION_DATABASE_URL and that PostgreSQL is running, then retry.");
    expect(log.mock.calls.flat().join(" ")).toContain("connect ECONNREFUSED 127.0.0.1:1");
    expect(JSON.stringify(body) + log.mock.calls.flat().join(" ")).not.toMatch(/secret-param|s3cret/);
    log.mockRestore();
  });

  it("another database error: the bare 500 to the client, the cause and statement in the log", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const response = errorResponse(await failure(pglite.db.execute(sql`select * from no_such_table where x = ${"secret-param"}`)));
    expect(response.status).toBe(500);
    const body = apiErrorSchema.parse(await response.json());
    expect(body.error).toEqual({ code: "internal", message: "Unexpected server error; see the server log." });
    expect(String(log.mock.calls[0]?.[0])).toBe('Unexpected error: relation "no_such_table" does not exist (while: select from no_such_table)');
    log.mockRestore();
  });

  it("publicError (what an SSE stream-error says) is the same message: an AppError's own, never SQL or parameters", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => undefined);
    expect(publicError(new AppError("not-found", "No run r1."))).toEqual({ status: 404, code: "not-found", message: "No run r1." });
    const failed = publicError(await failure(pglite.db.execute(sql`select * from no_such_table where x = ${"secret-param"}`)));
    expect(failed).toEqual({ status: 500, code: "internal", message: "Unexpected server error; see the server log." });
    const down = publicError(await failure(closed.db.execute(sql`select * from runs where id = ${"secret-param"}`)));
    expect(down.code).toBe("database-unreachable");
    expect(JSON.stringify([failed, down])).not.toMatch(/secret-param|s3cret|select/);
    log.mockRestore();
  });
});
