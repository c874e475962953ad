import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { classUrls } from "@/lib/cli/class-commands";
import { classCreateResponseSchema, classListResponseSchema, classTeacherViewSchema } from "@/lib/domain/class-session";
import { runCli } from "../cli/run-cli";

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "rp-cli-class-"));
const env = { REFLEXION_DB_PATH: path.join(tmp, "db.sqlite"), PORT: "3507" };
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe("CLI: class start, list, end", { tags: ["slow"] }, () => {
  it("starts a class with a join code, a QR code and a teacher URL carrying the secret in its fragment; lists and ends it", async () => {
    const started = await runCli(["class", "start", "--lesson", "why-reflexion-qa", "--minutes", "20", "--base-url", "http://192.168.1.20:3507/"], env);
    expect(started.code, started.stderr).toBe(0);
    const code = /Join code:\s+([A-Z2-9]{6})/.exec(started.stdout)?.[1];
    expect(code).toBeDefined();
    expect(started.stdout).toContain(`Students:    http://192.168.1.20:3507/join/${code}`);
    expect(started.stdout).toMatch(/Teacher:\s+http:\/\/192\.168\.1\.20:3507\/classes\/cls_[0-9a-f]+#teacher=[A-Za-z0-9_-]{43}/);
    expect(started.stdout).toMatch(/[▄▀█]{5}/); // the terminal QR code

    const json = await runCli(["class", "start", "--lesson", "why-reflexion-qa", "--json"], env);
    expect(json.code, json.stderr).toBe(0);
    const created = classCreateResponseSchema.parse(JSON.parse(json.stdout));
    expect(created.class.steps.length).toBeGreaterThan(3);

    const listed = classListResponseSchema.parse(JSON.parse((await runCli(["class", "list", "--json"], env)).stdout));
    expect(listed.classes.map((entry) => entry.id)).toEqual([created.class.id, expect.stringMatching(/^cls_/)]);
    const ended = await runCli(["class", "end", created.class.id, "--json"], env);
    expect(ended.code, ended.stderr).toBe(0);
    expect(classTeacherViewSchema.parse(JSON.parse(ended.stdout)).status).toBe("ended");
    const missing = await runCli(["class", "end", "cls_nope"], env);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/No class cls_nope/);
    const bad = await runCli(["class", "start", "--lesson", "why-reflexion-qa", "--minutes", "2"], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/5 to 240 minutes/);
  }, 300_000);

  it("puts students on the LAN address and the teacher on loopback by default", () => {
    const created = { joinPath: "/join/ABC234", teacherSecret: "s3cret", classId: "cls_1" };
    expect(classUrls(created, { env: { PORT: "3510" }, lan: [{ address: "10.0.0.9" }] })).toEqual({ student: "http://10.0.0.9:3510/join/ABC234", teacher: "http://127.0.0.1:3510/classes/cls_1#teacher=s3cret" });
    expect(classUrls(created, { env: { REFLEXION_PUBLIC_URL: "https://lab.example/" }, lan: [] })).toEqual({ student: "https://lab.example/join/ABC234", teacher: "https://lab.example/classes/cls_1#teacher=s3cret" });
    expect(classUrls(created, { env: {}, lan: [] }).student).toBe("http://127.0.0.1:3000/join/ABC234");
  });
});
