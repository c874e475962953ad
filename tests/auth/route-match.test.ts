import { describe, expect, it } from "vitest";
import { matchRoute } from "@/lib/auth/route-match";

const PATTERNS = [
  "/api/runs",
  "/api/runs/[runId]",
  "/api/runs/[runId]/fork",
  "/api/runs/[runId]/annotations/[annotationId]",
  "/api/templates/[templateId]",
  "/api/templates/export",
  "/api/templates/versions/[versionId]",
  "/api/templates/[templateId]/versions",
  "/api/auth/[...all]",
];

describe("matchRoute", () => {
  it("matches static paths and fills params, decoded", () => {
    expect(matchRoute("/api/runs", PATTERNS)).toEqual({ pattern: "/api/runs", params: {} });
    expect(matchRoute("/api/runs/run%201/fork", PATTERNS)).toEqual({ pattern: "/api/runs/[runId]/fork", params: { runId: "run 1" } });
    expect(matchRoute("/api/runs/r1/annotations/a2/", PATTERNS)).toEqual({ pattern: "/api/runs/[runId]/annotations/[annotationId]", params: { runId: "r1", annotationId: "a2" } });
  });

  it("prefers a static segment over a param, as the router does", () => {
    expect(matchRoute("/api/templates/export", PATTERNS)?.pattern).toBe("/api/templates/export");
    expect(matchRoute("/api/templates/t1", PATTERNS)?.pattern).toBe("/api/templates/[templateId]");
    // Both `/api/templates/versions/[versionId]` and `/api/templates/[templateId]/versions` match: the left-most static segment wins.
    expect(matchRoute("/api/templates/versions/versions", PATTERNS)).toEqual({ pattern: "/api/templates/versions/[versionId]", params: { versionId: "versions" } });
  });

  it("matches a catch-all with one or more segments, and nothing else past a pattern's end", () => {
    expect(matchRoute("/api/auth/sign-in/email", PATTERNS)).toEqual({ pattern: "/api/auth/[...all]", params: { all: "sign-in/email" } });
    expect(matchRoute("/api/auth", PATTERNS)).toBeNull();
    expect(matchRoute("/api/runs/r1/fork/extra", PATTERNS)).toBeNull();
    expect(matchRoute("/api/nothing", PATTERNS)).toBeNull();
  });

  it("matches nothing for a path that is not valid percent-encoding", () => {
    expect(matchRoute("/api/runs/%E0%A4%A", PATTERNS)).toBeNull();
  });
});
