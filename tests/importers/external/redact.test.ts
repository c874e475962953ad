import { describe, expect, it } from "vitest";
import { isSecretKey, REDACTED, redactSecrets, redactTrace } from "@/lib/importers/external/redact";

describe("redacting credentials from an imported trace's raw records", () => {
  it("replaces values under credential-named keys, OTLP attributes included, and keeps token counts", () => {
    const found = { count: 0 };
    const record = {
      attributes: { "llm.token_count.prompt": 120, api_key: "sk-live-abcdef123456", "http.request.header.authorization": "Bearer abc.def" },
      otlp: [
        { key: "x-api-key", value: { stringValue: "secret-value-123" } },
        { key: "gen_ai.usage.input_tokens", value: { intValue: 5 } },
      ],
      metadata: { apiKey: "k-123456789012", author: "Ada", tokens: 7 },
    };
    const redacted = redactSecrets(record, found) as typeof record;
    expect(redacted.attributes).toEqual({ "llm.token_count.prompt": 120, api_key: REDACTED, "http.request.header.authorization": REDACTED });
    expect(redacted.otlp).toEqual([
      { key: "x-api-key", value: REDACTED },
      { key: "gen_ai.usage.input_tokens", value: { intValue: 5 } },
    ]);
    expect(redacted.metadata).toEqual({ apiKey: REDACTED, author: "Ada", tokens: 7 });
    expect(found.count).toBe(4);
    expect(JSON.stringify(redacted)).not.toMatch(/sk-live|secret-value|Bearer abc|k-1234/u);
  });

  it("cuts credentials out of URLs and out of JSON held in a string", () => {
    const text = 'calls https://user:hunter2@api.example.com/v1 with {"api_key": "sk-abc\\"def", "model": "m"}';
    expect(redactSecrets(text)).toBe(`calls https://${REDACTED}@api.example.com/v1 with {"api_key": "${REDACTED}", "model": "m"}`);
  });

  it("names keys by their words, not by substrings", () => {
    for (const key of ["api_key", "x-api-key", "Authorization", "client_secret", "access_token", "password", "apiKey"]) expect(isSecretKey(key), key).toBe(true);
    for (const key of ["llm.token_count.total", "tokens", "author", "gen_ai.usage.output_tokens", "keyword", "monkey"]) expect(isSecretKey(key), key).toBe(false);
  });
});

describe("every credential in a trace is redacted before it becomes a run", () => {
  it("in JSON held in a string (nested too), in a tool call's input, in messages and raw records", () => {
    const trace = {
      format: "otlp" as const,
      traceId: "t",
      title: "agent",
      taskId: "task",
      input: "q",
      target: null,
      output: "a",
      steps: [{ thought: null, action: { tool: "search", input: '{"query":"x","api_key":"sk-LEAKME-toolinput"}' }, observation: "ok", answer: null, startedAt: null, sourceId: null }],
      calls: [{ model: "m", messages: [{ role: "user" as const, content: 'use {"authorization": "Bearer LEAKME-msg"} please' }], outputText: "", inputTokens: 1, outputTokens: 1, costUsd: null, latencyMs: 1, stepIndex: 0, sourceId: null }],
      verdict: null,
      model: "m",
      unknown: [{ kind: "span:RETRIEVER", name: "r", data: { attributes: { "input.value": '{"headers":{"x-api-key":"LEAKME-nested"},"inner":"{\\"password\\":\\"LEAKME-deeper\\"}"}' } } }],
      startedAt: null,
      endedAt: null,
    };
    const { trace: redacted, count } = redactTrace(trace);
    expect(JSON.stringify(redacted)).not.toMatch(/LEAKME/u);
    expect(count).toBe(4);
    expect(JSON.parse(redacted.steps[0]!.action!.input)).toEqual({ query: "x", api_key: REDACTED });
    // Nothing else changed.
    expect(redacted.steps[0]!.observation).toBe("ok");
    expect(redactTrace({ ...trace, steps: [], calls: [], unknown: [] }).count).toBe(0);
  });
});

describe("credential shapes found in the wild", () => {
  it("headers written as text, URL query parameters, name/value pairs, a bare token key and JSON encoded twice", () => {
    const found = { count: 0 };
    const data = {
      header: "GET /v1 Authorization: Bearer LK_plainbearer, x-api-key: LK_header",
      url: "https://api.example.com/search?q=moons&api_key=LK_query&page=2",
      pairs: [
        { name: "x-api-key", value: "LK_pair" },
        { name: "accept", value: "application/json" },
      ],
      token: "LK_token",
      usage: { token_count: 12, tokens: 3 },
      doubly: JSON.stringify(JSON.stringify({ password: "LK_double", model: "m" })),
    };
    const redacted = redactSecrets(data, found) as typeof data;
    expect(JSON.stringify(redacted)).not.toMatch(/LK_/u);
    expect(redacted.url).toBe(`https://api.example.com/search?q=moons&api_key=${REDACTED}&page=2`);
    expect(redacted.header).toBe(`GET /v1 Authorization: Bearer ${REDACTED}, x-api-key: ${REDACTED}`);
    expect(redacted.pairs[1]).toEqual({ name: "accept", value: "application/json" });
    expect(redacted.usage).toEqual({ token_count: 12, tokens: 3 });
    expect(JSON.parse(JSON.parse(redacted.doubly) as string)).toEqual({ password: REDACTED, model: "m" });
  });
});
