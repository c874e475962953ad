import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spendingLimitsResponseSchema } from "@/lib/domain/spending-limits";
import { runCli } from "../cli/run-cli";

/**
 * Settings → Budgets over HTTP (`/api/budgets`) and `cli budgets` on the same database file: a budget
 * set through the route is listed by the CLI with its spend; one set by the CLI shows in the route;
 * bad bodies and unknown budgets get messages that say what to send.
 */

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "rp-budgets-"));
const env = { REFLEXION_DB_PATH: path.join(tmp, "db.sqlite") };
let route: typeof import("@/app/api/budgets/route");

beforeAll(async () => {
  process.env.REFLEXION_DB_PATH = env.REFLEXION_DB_PATH;
  route = await import("@/app/api/budgets/route");
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const request = (method: string, body?: unknown, query = "") =>
  new Request(`http://127.0.0.1/api/budgets${query}`, { method, headers: { "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });

describe("budgets through the route and the CLI", () => {
  it("sets, lists and removes budgets through both, on one database", async () => {
    const put = await route.PUT(request("PUT", { scope: { kind: "lab" }, period: "month", usd: 120 }));
    expect(put.status).toBe(200);
    expect(spendingLimitsResponseSchema.parse(await put.json()).limits.map((view) => [view.label, view.limit.period, view.limit.usd])).toEqual([["the lab", "month", 120]]);

    const listed = await runCli(["budgets", "list"], env);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(/^the lab\tmonth\t\$120\.00\tspent \$0, 0 tokens \(0 calls\) since \d{4}-\d{2}-01\n$/);

    const set = await runCli(["budgets", "set", "--user", "u-ada", "--period", "day", "--tokens", "50000"], env);
    expect(set.code).toBe(0);
    const get = spendingLimitsResponseSchema.parse(await (await route.GET()).json());
    expect(get.limits.map((view) => [view.label, view.limit.period, view.limit.tokens, view.limit.updatedBy])).toEqual([
      ["the lab", "month", null, "local"],
      ["u-ada", "day", 50000, "cli"],
    ]);

    const removed = await route.DELETE(request("DELETE", undefined, "?scope=person%3Au-ada&period=day"));
    expect(removed.status).toBe(200);
    expect(spendingLimitsResponseSchema.parse(await removed.json()).limits).toHaveLength(1);
    const again = await route.DELETE(request("DELETE", undefined, "?scope=person%3Au-ada&period=day"));
    expect(again.status).toBe(404);
    expect((await again.json()).error.message).toBe("There is no day budget for person:u-ada.");
  }, 60_000);

  it("refuses a budget with neither USD nor tokens, and a DELETE that names no budget, saying what to send", async () => {
    const empty = await route.PUT(request("PUT", { scope: { kind: "lab" }, period: "day" }));
    expect(empty.status).toBe(400);
    expect((await empty.json()).error.message).toMatch(/a budget needs usd or tokens/);
    const vague = await route.DELETE(request("DELETE", undefined, "?scope=team&period=day"));
    expect(vague.status).toBe(400);
    expect((await vague.json()).error.message).toMatch(/lab, each-person or person:<user id>/);
    const missing = await runCli(["budgets", "set", "--lab", "--period", "week", "--usd", "3"], env);
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toMatch(/must be day or month/);
  }, 60_000);
});
