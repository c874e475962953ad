import { z } from "zod";
import { describe, expect, it } from "vitest";
import { describeIssues } from "@/lib/domain/describe-issues";
import { checkedBody } from "@/lib/query/checked-body";
import { publicError } from "@/lib/server/http-errors";

const schema = z.object({ name: z.string().min(1), tasks: z.array(z.object({ id: z.string() })) });

describe("describeIssues, the one formatter of validation messages", () => {
  it("writes every issue as path: message on one line, naming the value itself by root", () => {
    const error = schema.safeParse({ name: "", tasks: [{ id: "a" }, { id: 7 }] }).error!;
    const line = describeIssues(error, "body");
    expect(line).toBe(`name: ${error.issues[0]!.message}; tasks.1.id: ${error.issues[1]!.message}`);
    expect(line).not.toContain("\n");
    expect(describeIssues(z.string().safeParse(3).error!, "body")).toMatch(/^body: /);
  });

  it("takes the issues array as well as the error, and lists at most max issues", () => {
    const error = z.array(z.number()).safeParse(["a", "b", "c"]).error!;
    expect(describeIssues(error.issues, "(task)")).toBe(describeIssues(error, "(task)"));
    expect(describeIssues(error, "(lesson)", 2).split("; ").map((part) => part.split(":")[0])).toEqual(["0", "1"]);
  });

  it("writes an issue of the value itself as its message alone when root is null", () => {
    const error = z.string().safeParse(3).error!;
    expect(describeIssues(error, null)).toBe(error.issues[0]!.message);
  });

  it("is what the client says before sending a body: its first issue, field first", () => {
    expect(() => checkedBody(schema, { name: "x", tasks: [{ id: 1 }, { id: 2 }] })).toThrow(/^tasks\.0\.id: [^;]+$/);
    expect(checkedBody(schema, { name: "x", tasks: [] })).toEqual({ name: "x", tasks: [] });
  });

  it("is what an API route answers for a body that fails its schema", () => {
    const error = schema.safeParse({ tasks: [] }).error!;
    expect(publicError(error)).toEqual({ status: 400, code: "invalid-input", message: describeIssues(error, "body") });
  });
});
