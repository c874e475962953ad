import { describe, expect, it } from "vitest";
import { isSearchQueryError, SearchQueryError } from "@/lib/domain/search-query";
import { parseQuery } from "@/lib/domain/search-grammar";
import { errorResponse } from "@/lib/server/http-errors";

/** A SearchQueryError thrown by another copy of the module (a separately bundled route): same name and shape, another class. */
function foreignQueryError(message: string, offset: number): Error {
  const error = new Error(message) as Error & { offset: number };
  error.name = "SearchQueryError";
  error.offset = offset;
  return error;
}

describe("a query that does not parse, as an HTTP answer", () => {
  it("is 400 invalid-query with the parser's message and offset, whichever copy of the class threw it", async () => {
    let thrown: unknown = null;
    try {
      parseQuery("family:qa colour:red");
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(SearchQueryError);
    for (const error of [thrown, foreignQueryError(`unknown field "colour"`, 10)]) {
      expect(isSearchQueryError(error)).toBe(true);
      const response = errorResponse(error);
      expect(response.status).toBe(400);
      const body = (await response.json()) as { error: { code: string; message: string; offset: number } };
      expect(body.error).toMatchObject({ code: "invalid-query", offset: 10 });
      expect(body.error.message).toContain("colour");
    }
  });

  it("leaves other errors alone: an Error named otherwise, or without an offset, is not a query error", () => {
    expect(isSearchQueryError(new Error("boom"))).toBe(false);
    const noOffset = new Error("x");
    noOffset.name = "SearchQueryError";
    expect(isSearchQueryError(noOffset)).toBe(false);
  });
});
