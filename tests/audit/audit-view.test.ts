import { describe, expect, it } from "vitest";
import { auditTargetParts } from "@/components/audit/audit-target";
import { auditUrl } from "@/components/audit/audit-log-view";
import { parseAuditQuery } from "@/lib/domain/audit";
import { routePattern } from "@/lib/server/audit-hook";

describe("audit log pieces", () => {
  it("a request's action names the route pattern, not the ids in it", () => {
    expect(routePattern("/api/runs/9f2c-11/fork", { runId: "9f2c-11" })).toBe("/api/runs/[runId]/fork");
    expect(routePattern("/api/runs/r%201/annotations/a-7", { runId: "r 1", annotationId: "a-7" })).toBe("/api/runs/[runId]/annotations/[annotationId]");
    expect(routePattern("/api/docs/a/b", { slug: ["a", "b"] })).toBe("/api/docs/[...slug]/[...slug]");
    expect(routePattern("/api/runs", {})).toBe("/api/runs");
  });

  it("the admin page links a run or an experiment in the target, and leaves other values as text", () => {
    expect(auditTargetParts({ runId: "r-1", annotationId: "a-2", experimentId: "e 3", ids: [1, 2] })).toEqual([
      { key: "runId", value: "r-1", href: "/runs/r-1" },
      { key: "annotationId", value: "a-2", href: null },
      { key: "experimentId", value: "e 3", href: "/experiments/e%203" },
      { key: "ids", value: "[1,2]", href: null },
    ]);
  });

  it("the page asks for its filters and page, leaving empty filters out", () => {
    expect(auditUrl({ user: " alice ", action: "", since: "2026-12-05", until: "" }, 50)).toBe("/api/audit?user=alice&since=2026-12-05&limit=50&offset=50");
  });

  it("dates in a query become ISO times; empty values are no filter; a page out of range is refused", () => {
    expect(parseAuditQuery({ user: "", since: "2026-12-05", until: "2026-12-06T12:00Z", limit: "10" })).toEqual({
      since: "2026-12-05T00:00:00.000Z",
      until: "2026-12-06T12:00:00.000Z",
      limit: 10,
      offset: 0,
    });
    expect(() => parseAuditQuery({ limit: "501" })).toThrow(/limit/);
    expect(() => parseAuditQuery({ until: "soon" })).toThrow('until must be a date or time such as 2026-12-05 or 2026-12-05T14:00Z (got "soon").');
  });
});
