import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { annotationListResponseSchema } from "@/lib/domain/annotation-api";
import { authorOf, formatAnnotationTable, parseScoreFlag } from "@/lib/cli/annotation-commands";
import type { Annotation } from "@/lib/domain/annotations";
import { isAppError } from "@/lib/domain/errors";
import { parseJsonLines, runCli } from "./run-cli";

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "rp-cli-annotations-"));
const env = { REFLEXION_DB_PATH: path.join(tmp, "db.sqlite") };

describe("CLI: annotate and annotations", { tags: ["slow"] }, () => {
  it("annotates a demo run's action by seq, replies, and lists them as a table and as JSON", async () => {
    const first = await runCli(["run", "--tasks", "builtin", "--task-id", "qa-builtin-03", "--model", "demo", "--json"], env);
    expect(first.code, first.stderr).toBe(0);
    const events = parseJsonLines(first.stdout);
    const runId = events[0]!.runId;
    const action = events.find((event) => event.type === "step-action")!;
    if (action.type !== "step-action") throw new Error("no action");

    const added = await runCli(["annotate", "--run", runId, "--seq", String(action.seq), "--text", "Searched the wrong entity\nsecond line", "--tag", "loop", "--tag", "wrong-entity", "--score", "quality=2", "--author", "ada", "--json"], env);
    expect(added.code, added.stderr).toBe(0);
    const note = JSON.parse(added.stdout) as Annotation;
    expect(note).toMatchObject({ author: "ada", target: { eventId: action.id, kind: "action", seq: action.seq, trial: action.data.trial, step: action.data.step }, content: { tags: ["loop", "wrong-entity"], score: { scale: "quality", value: 2 } } });

    const reply = await runCli(["annotate", "--run", runId, "--reply-to", note.id, "--text", "agreed", "--score", "1"], { ...env, USER: "grace" });
    expect(reply.code, reply.stderr).toBe(0);
    expect(reply.stdout).toMatch(new RegExp(`^Replied \\S+ on the action at seq ${action.seq} \\(trial ${action.data.trial}, step ${action.data.step}\\) of run ${runId}, by grace\\.`, "u"));

    const table = await runCli(["annotations", "--run", runId], env);
    expect(table.code, table.stderr).toBe(0);
    const lines = table.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^SEQ\s+NODE\s+TRIAL\/STEP\s+AUTHOR\s+TIME \(UTC\)\s+TAGS\s+SCORE\s+TEXT$/u);
    expect(lines[1]).toMatch(new RegExp(`^${action.seq}\\s+action\\s+${action.data.trial}/${action.data.step}\\s+ada\\s+\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d\\s+loop,wrong-entity\\s+quality=2\\s+Searched the wrong entity$`, "u"));
    expect(lines[2]).toMatch(/grace\s.*quality=1\s+↳ agreed$/u);

    const json = await runCli(["annotations", "--run", runId, "--json"], env);
    const listing = annotationListResponseSchema.parse(JSON.parse(json.stdout));
    expect(listing.annotations.map((a) => [a.author, a.parentId])).toEqual([
      ["ada", null],
      ["grace", note.id],
    ]);
  }, 120_000);

  it("refuses a missing author, a bad score and a seq the branch does not have, with what to do", async () => {
    const first = await runCli(["run", "--tasks", "builtin", "--task-id", "qa-builtin-03", "--model", "demo", "--json"], env);
    const runId = parseJsonLines(first.stdout)[0]!.runId;
    const noAuthor = await runCli(["annotate", "--run", runId, "--seq", "3", "--text", "x"], { ...env, USER: "" });
    expect(noAuthor.code).toBe(2);
    expect(noAuthor.stderr).toContain("add --author <name>");
    const badScore = await runCli(["annotate", "--run", runId, "--seq", "3", "--text", "x", "--author", "ada", "--score", "quality=9"], env);
    expect(badScore.code).toBe(2);
    expect(badScore.stderr).toContain("quality score is 1–5");
    const noSeq = await runCli(["annotate", "--run", runId, "--seq", "9999", "--text", "x", "--author", "ada"], env);
    expect(noSeq.code).toBe(2);
    expect(noSeq.stderr).toContain("has no event at seq 9999");
    const empty = await runCli(["annotations", "--run", runId], env);
    expect(empty.stdout).toContain("No annotations on this branch yet");
    const nothing = await runCli(["annotate", "--run", runId, "--seq", "3", "--author", "ada"], env);
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toContain("a comment, a tag or a score");
    const markup = await runCli(["annotate", "--run", runId, "--seq", "3", "--score", "4", "--author", "<b>evil"], env);
    expect(markup.code).toBe(2);
    expect(markup.stderr).toContain("a name is plain text");
    // A score alone is a note (no --text needed).
    const scoreOnly = await runCli(["annotate", "--run", runId, "--seq", "1", "--score", "4", "--author", "ada", "--json"], env);
    expect(scoreOnly.code, scoreOnly.stderr).toBe(0);
    expect(JSON.parse(scoreOnly.stdout)).toMatchObject({ content: { text: "", tags: [], score: { scale: "quality", value: 4 } } });
  }, 120_000);
});

describe("annotation CLI helpers", () => {
  it("parses --score as scale=k or a bare quality score, refusing other shapes", () => {
    expect(parseScoreFlag("correct=1")).toEqual({ scale: "correct", value: 1 });
    expect(parseScoreFlag("4")).toEqual({ scale: "quality", value: 4 });
    const refused = (() => {
      try {
        return parseScoreFlag("great");
      } catch (error) {
        return error;
      }
    })();
    expect(isAppError(refused, "invalid-input")).toBe(true);
  });

  it("takes the author from --author, else USER, else asks for --author", () => {
    expect(authorOf(" ada ", { USER: "root" })).toBe("ada");
    expect(authorOf(undefined, { USER: "grace" })).toBe("grace");
    expect(() => authorOf(undefined, {})).toThrow(/--author <name>/u);
  });

  it("marks deleted and edited notes in the table", () => {
    const base: Annotation = {
      id: "a1",
      target: { runId: "r", branchId: "b", eventId: "e", kind: "reflection", trial: 1, step: null, seq: 12 },
      parentId: null,
      author: "ada",
      content: { text: "fine", tags: [], score: null },
      origin: null,
      createdAt: "2026-12-05T12:00:00.000Z",
      updatedAt: "2026-12-05T12:01:00.000Z",
      updatedBy: "grace",
      deleted: false,
      history: [{ content: { text: "old", tags: [], score: null }, replacedAt: "2026-12-05T12:01:00.000Z", replacedBy: "grace" }],
    };
    const table = formatAnnotationTable([base, { ...base, id: "a2", deleted: true, history: [] }]);
    expect(table).toMatch(/12\s+reflection\s+1\s+ada\s+2026-12-05 12:00\s+-\s+-\s+\(edited by grace\) fine\n/u);
    expect(table).toMatch(/\[deleted by grace\] fine\n$/u);
  });
});
