import { describe, expect, it } from "vitest";
import { AppError, isAppError } from "@/lib/domain/errors";
import { errorResponse } from "@/lib/server/http-errors";

describe("app errors across bundled copies of the module", () => {
  it("an AppError thrown by another copy of the class (another server chunk) still maps to its HTTP status", async () => {
    // What a second copy of lib/domain/errors.ts makes: a different class, the same brand.
    class OtherCopyAppError extends Error {
      readonly code = "conflict";
    }
    const foreign = Object.assign(new OtherCopyAppError("Run r1 has ended; there is nothing to pause."), { [Symbol.for("reflexion-playground.app-error")]: true });
    expect(foreign instanceof AppError).toBe(false);
    expect(isAppError(foreign)).toBe(true);
    expect(isAppError(foreign, "conflict")).toBe(true);
    const response = errorResponse(foreign);
    expect(response.status).toBe(409);
    expect(await response.json()).toEqual({ error: { code: "conflict", message: "Run r1 has ended; there is nothing to pause." } });
  });

  it("plain errors and look-alikes without the brand or with an unknown code are not app errors", () => {
    expect(isAppError(new Error("boom"))).toBe(false);
    expect(isAppError(Object.assign(new Error("x"), { code: "conflict" }))).toBe(false);
    expect(isAppError(Object.assign(new Error("x"), { code: "weird", [Symbol.for("reflexion-playground.app-error")]: true }))).toBe(false);
    expect(isAppError(new AppError("not-found", "No run x."), "not-found")).toBe(true);
  });
});
