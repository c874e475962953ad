import { describe, expect, it } from "vitest";
import { isPresenting, lessonModeReducer, urlPresent, type LessonMode, type LessonModeAction } from "@/components/lessons/lesson-mode";

/** Presenter mode survives Esc (free exploration) and `l` (back to the lesson): a teacher at a clicker never clicks Present again. */
describe("the lesson player's mode", () => {
  const run = (start: LessonMode, actions: LessonModeAction[]) => actions.reduce(lessonModeReducer, start);

  it("Esc pauses presenter mode, l brings it back", () => {
    const presenting: LessonMode = { presenter: true, exploring: false };
    const exploring = run(presenting, [{ type: "leave" }]);
    expect(isPresenting(exploring)).toBe(false);
    expect(exploring.presenter).toBe(true); // remembered for `l`…
    expect(urlPresent(presenting)).toBe(true);
    expect(urlPresent(exploring)).toBe(false); // …but present=1 leaves the URL with Esc
    const back = run(exploring, [{ type: "back" }]);
    expect(back).toEqual(presenting);
    expect(isPresenting(back)).toBe(true);
    expect(urlPresent(back)).toBe(true);
  });

  it("without presenter mode, Esc and l leave it off; the Present button toggles it", () => {
    const plain: LessonMode = { presenter: false, exploring: false };
    expect(run(plain, [{ type: "leave" }, { type: "back" }])).toEqual(plain);
    expect(isPresenting(run(plain, [{ type: "present", on: true }]))).toBe(true);
    expect(isPresenting(run(plain, [{ type: "present", on: true }, { type: "present", on: false }]))).toBe(false);
  });
});
