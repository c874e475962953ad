import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeOpenAIServer, type FakeOpenAIServer } from "../helpers/fake-openai-server";

let server: FakeOpenAIServer;
beforeAll(async () => {
  server = await startFakeOpenAIServer();
});
afterAll(() => server.close());

async function post(body: unknown) {
  return fetch(`${server.baseUrl}/chat/completions`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
}

describe("fake OpenAI-compatible server", () => {
  it("listens on 127.0.0.1", () => {
    expect(server.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
  });

  it("answers non-streaming requests with JSON, echoing by default and honouring stop", async () => {
    server.reset();
    const res = await post({ model: "m", messages: [{ role: "user", content: "hello there. STOP here" }], stop: "STOP" });
    expect(res.status).toBe(200);
    const json = (await res.json()) as { choices: Array<{ message: { content: string }; finish_reason: string }>; usage: { completion_tokens: number } };
    expect(json.choices[0]!.message.content).toBe("Echo: hello there. ");
    expect(json.choices[0]!.finish_reason).toBe("stop");
    expect(json.usage.completion_tokens).toBe(Math.ceil("Echo: hello there. ".length / 4));
    expect(server.chatRequests()[0]!.body).toMatchObject({ model: "m", stop: "STOP" });
  });

  it("streams SSE chunks, a final chunk with finish_reason and usage, then [DONE]", async () => {
    const res = await post({ model: "m", stream: true, messages: [{ role: "user", content: "a b c" }] });
    expect(res.headers.get("content-type")).toBe("text/event-stream");
    const events = (await res.text()).split("\n\n").filter(Boolean);
    expect(events.at(-1)).toBe("data: [DONE]");
    const chunks = events.slice(0, -1).map((e) => JSON.parse(e.slice("data: ".length)) as { choices: Array<{ delta: { content?: string }; finish_reason: string | null }>; usage?: unknown });
    expect(chunks.map((c) => c.choices[0]!.delta.content ?? "").join("")).toBe("Echo: a b c");
    expect(chunks.at(-1)!.choices[0]!.finish_reason).toBe("stop");
    expect(chunks.at(-1)!.usage).toBeDefined();
  });

  it("fails the next N requests with the given status, recording them", async () => {
    server.reset();
    server.failNext(2, { status: 429 });
    expect((await post({ messages: [] })).status).toBe(429);
    expect((await post({ messages: [] })).status).toBe(429);
    expect((await post({ messages: [] })).status).toBe(200);
    expect(server.chatRequests()).toHaveLength(3);
  });

  it("serves /v1/models and 404s elsewhere", async () => {
    expect((await fetch(`${server.baseUrl}/models`)).status).toBe(200);
    expect((await fetch(`${server.origin}/nope`)).status).toBe(404);
  });
});
