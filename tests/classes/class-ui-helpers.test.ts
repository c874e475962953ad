import { afterEach, describe, expect, it, vi } from "vitest";
import { create } from "qrcode";
import { qrPath } from "@/components/classes/qr-path";
import { histogramRows } from "@/components/classes/histogram-rows";
import { timeLeft } from "@/components/classes/time-left";
import { myFork } from "@/components/classes/my-fork";
import { normaliseJoinCode } from "@/components/classes/join-code";
import {
  forgetStudentCredentials,
  readStudentCredentials,
  readTeacherSecret,
  storeStudentCredentials,
  storeTeacherSecret,
  teacherSecretFromHash,
} from "@/components/classes/class-credentials";
import type { ClassFork } from "@/lib/domain/class-session";

/** The dark modules a path draws, as "row,col" strings (each `M<col> <row>h1v1h-1z`). */
function drawn(d: string): Set<string> {
  return new Set([...d.matchAll(/M(\d+) (\d+)h1v1h-1z/g)].map((match) => `${match[2]},${match[1]}`));
}

describe("qrPath", () => {
  it("draws exactly the dark modules of the qrcode library's matrix, finder patterns included", () => {
    const url = "http://192.168.1.20:3000/join/AB3K9Q";
    const { modules } = create(url, { errorCorrectionLevel: "M" });
    const qr = qrPath(url);
    expect(qr.size).toBe(modules.size);
    const cells = drawn(qr.d);
    let dark = 0;
    for (let row = 0; row < modules.size; row += 1) {
      for (let col = 0; col < modules.size; col += 1) {
        const on = Boolean(modules.get(row, col));
        if (on) dark += 1;
        expect(cells.has(`${row},${col}`)).toBe(on);
      }
    }
    expect(cells.size).toBe(dark);
    // The top-left finder pattern: a dark 7×7 ring, a light ring inside it, a dark 3×3 centre.
    for (let index = 0; index < 7; index += 1) {
      expect(cells.has(`0,${index}`) && cells.has(`6,${index}`) && cells.has(`${index},0`) && cells.has(`${index},6`)).toBe(true);
    }
    expect(cells.has("1,1") || cells.has("1,5") || cells.has("5,1")).toBe(false);
    expect(cells.has("3,3")).toBe(true);
  });

  it("changes with the URL", () => {
    expect(qrPath("http://127.0.0.1:3000/join/AAAAAA").d).not.toBe(qrPath("http://127.0.0.1:3000/join/BBBBBB").d);
  });
});

describe("histogramRows", () => {
  const choices = [
    { id: "a", label: "PASS" },
    { id: "b", label: "FAIL" },
    { id: "c", label: "no verdict" },
  ];
  it("keeps the question's order, counts missing choices as 0, ignores unknown ids and marks the right answer", () => {
    const rows = histogramRows(choices, { b: 3, a: 1, z: 9 }, "b");
    expect(rows.map((row) => [row.number, row.id, row.count, row.percent, row.right])).toEqual([
      [1, "a", 1, 25, false],
      [2, "b", 3, 75, true],
      [3, "c", 0, 0, false],
    ]);
  });
  it("gives 0 % everywhere when nobody answered", () => {
    expect(histogramRows(choices, {}, null).every((row) => row.percent === 0 && !row.right)).toBe(true);
  });
});

describe("timeLeft", () => {
  const end = "2026-01-01T10:00:00.000Z";
  const at = (iso: string) => Date.parse(iso);
  it("reads minutes, the last minute in seconds, hours for long classes, and ended at the end", () => {
    expect(timeLeft(end, at("2026-01-01T09:18:00.000Z"))).toBe("42 min left");
    expect(timeLeft(end, at("2026-01-01T09:59:15.000Z"))).toBe("0:45 left");
    expect(timeLeft(end, at("2026-01-01T07:30:00.000Z"))).toBe("2 h 30 min left");
    expect(timeLeft(end, at("2026-01-01T10:00:00.000Z"))).toBe("ended");
    expect(timeLeft("not a date", at(end))).toBe("ended");
  });
});

describe("myFork", () => {
  const fork = (groupId: string, text: string): ClassFork => ({ groupId, text, branchId: `br-${groupId}`, status: "succeeded", trial: 2, matchedFacts: [] });
  const forks = [fork("g1", "Search for the director's birth year first, then compare."), fork("g2", "Think about the question more carefully.")];
  it("finds the fork of the student's own text, or of a near-duplicate the server grouped with it", () => {
    expect(myFork(forks, "  think about the QUESTION more   carefully. ")?.groupId).toBe("g2");
    expect(myFork(forks, "Search for the directors birth year first, then compare")?.groupId).toBe("g1");
  });
  it("finds none for a different reflection or none written", () => {
    expect(myFork(forks, "The answer was in the second paragraph.")).toBeNull();
    expect(myFork(forks, null)).toBeNull();
  });
});

describe("join codes and teacher links", () => {
  it("normalises what a student types", () => {
    expect(normaliseJoinCode(" ab3-k9q ")).toBe("AB3K9Q");
  });
  it("reads the teacher secret from the CLI link's fragment only", () => {
    expect(teacherSecretFromHash("#teacher=s3cr3t")).toBe("s3cr3t");
    expect(teacherSecretFromHash("#other=1&teacher=abc")).toBe("abc");
    expect(teacherSecretFromHash("#teacher=")).toBeNull();
    expect(teacherSecretFromHash("")).toBeNull();
  });
});

describe("class credentials in localStorage", () => {
  afterEach(() => vi.unstubAllGlobals());
  it("keeps a secret and a token per class, and forgets a refused token", () => {
    const store = new Map<string, string>();
    vi.stubGlobal("window", {
      localStorage: { getItem: (key: string) => store.get(key) ?? null, setItem: (key: string, value: string) => store.set(key, value), removeItem: (key: string) => store.delete(key) },
    });
    storeTeacherSecret("c1", "secret-1");
    expect(readTeacherSecret("c1")).toBe("secret-1");
    expect(readTeacherSecret("c2")).toBeNull();
    storeStudentCredentials("c1", { token: "tok", nickname: "Ada" });
    expect(readStudentCredentials("c1")).toEqual({ token: "tok", nickname: "Ada" });
    store.set("reflexion.class.student.c3", "{broken");
    expect(readStudentCredentials("c3")).toBeNull();
    forgetStudentCredentials("c1");
    expect(readStudentCredentials("c1")).toBeNull();
  });
  it("reads nothing on the server (no window)", () => {
    expect(readTeacherSecret("c1")).toBeNull();
  });
});
