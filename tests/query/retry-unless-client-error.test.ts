import { describe, expect, it } from "vitest";
import { experimentListQuery } from "@/lib/query/experiment-queries";
import { ApiRequestError, retryUnlessClientError } from "@/lib/query/fetch-json";
import { modelsQuery } from "@/lib/query/queries";
import { templateListQuery } from "@/lib/query/template-queries";

describe("retryUnlessClientError, the retry rule of API queries", () => {
  it("does not retry a client error (4xx): asking again gets the same answer", () => {
    for (const status of [400, 404, 409, 422, 499]) {
      expect(retryUnlessClientError(1, new ApiRequestError(status, "bad", "no"))).toBe(false);
    }
  });

  it("retries a server error (5xx) or a network failure twice, then gives up", () => {
    for (const error of [new ApiRequestError(500, "internal", "boom"), new ApiRequestError(503, "unavailable", "later"), new TypeError("fetch failed")]) {
      expect([0, 1, 2, 3].map((failures) => retryUnlessClientError(failures, error))).toEqual([true, true, false, false]);
    }
  });

  it("is the one rule the run, experiment and template queries use", () => {
    expect(modelsQuery().retry).toBe(retryUnlessClientError);
    expect(experimentListQuery().retry).toBe(retryUnlessClientError);
    expect(templateListQuery(null, null).retry).toBe(retryUnlessClientError);
  });
});
