import { describe, expect, it } from "vitest";
import { isStudentPage } from "@/lib/domain/class-rules";

/** The students' pages: the LAN rule opens them to phones, and the site header shows them no links into the app. */
describe("isStudentPage", () => {
  it("is true for /join, /join/<code> and /class/<id> only", () => {
    for (const path of ["/join", "/join/", "/join/7EYJ5Q", "/class/5b0c6c9e-1", "/class/5b0c6c9e-1/"]) expect(isStudentPage(path)).toBe(true);
    for (const path of ["/", "/classes", "/classes/5b0c6c9e-1", "/join/7EYJ5Q/extra", "/class", "/runs/x", "/lessons/why-reflexion-qa", "/joined"]) expect(isStudentPage(path)).toBe(false);
  });
});
