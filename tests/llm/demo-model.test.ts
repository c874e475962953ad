import { generateText, streamText } from "ai";
import { describe, expect, it } from "vitest";
import {
  applyStopSequences,
  createDemoModel,
  demoReply,
  fallbackReply,
  splitIntoWordChunks,
  type DemoScriptBook,
} from "@/lib/llm/demo-model";
import { estimateTokens } from "@/lib/domain/token-estimate";

const book: DemoScriptBook = {
  respond: (prompt) =>
    prompt.includes("Question: capital of France?") && prompt.trimEnd().endsWith("Thought 1:")
      ? " I know this one.\nAction 1: Finish[Paris]\nObservation 1: Episode finished."
      : null,
};
const silentBook: DemoScriptBook = { respond: () => null };

const actorMessages = [
  { role: "system" as const, content: "Solve the task with interleaved Thought, Action, Observation steps." },
  { role: "user" as const, content: "Question: capital of France?\nThought 1:" },
];

async function viaStream(model = createDemoModel({ books: [silentBook, book] }), stopSequences?: string[]) {
  const result = streamText({ model, messages: actorMessages, allowSystemInMessages: true, stopSequences, onError: () => {} });
  const deltas: string[] = [];
  for await (const delta of result.textStream) deltas.push(delta);
  return { text: await result.text, deltas, usage: await result.usage, finishReason: await result.finishReason };
}

describe("demo model", () => {
  it("is a v3 language model labelled demo", () => {
    const model = createDemoModel();
    expect(model.specificationVersion).toBe("v3");
    expect(model.provider).toBe("demo");
    expect(model.modelId).toBe("demo");
  });

  it("asks the books in order: the first non-null answer wins", async () => {
    const result = await generateText({ model: createDemoModel({ books: [silentBook, book] }), messages: actorMessages, allowSystemInMessages: true });
    expect(result.text).toBe(" I know this one.\nAction 1: Finish[Paris]\nObservation 1: Episode finished.");
    expect(result.finishReason).toBe("stop");
  });

  it("gives identical text through generateText and streamText, streamed in word-sized chunks", async () => {
    const model = createDemoModel({ books: [book] });
    const generated = await generateText({ model, messages: actorMessages, allowSystemInMessages: true });
    const streamed = await viaStream(model);
    expect(streamed.text).toBe(generated.text);
    expect(streamed.deltas.length).toBeGreaterThan(3);
    expect(streamed.deltas.join("")).toBe(generated.text);
    expect(streamed.usage.inputTokens).toBe(generated.usage.inputTokens);
    expect(streamed.usage.outputTokens).toBe(generated.usage.outputTokens);
    expect(streamed.finishReason).toBe("stop");
  });

  it("honours stop sequences like a real provider (cut before the earliest one)", async () => {
    const { text } = await viaStream(undefined, ["\nObservation", "\nAction"]);
    expect(text).toBe(" I know this one.");
    const generated = await generateText({
      model: createDemoModel({ books: [book] }),
      messages: actorMessages,
      allowSystemInMessages: true,
      stopSequences: ["\nObservation"],
    });
    expect(generated.text).toBe(" I know this one.\nAction 1: Finish[Paris]");
  });

  it("reports estimated usage: ceil(chars / 4)", async () => {
    const result = await generateText({ model: createDemoModel({ books: [book] }), messages: actorMessages, allowSystemInMessages: true });
    const prompt = actorMessages.map((m) => m.content).join("\n\n");
    expect(result.usage.inputTokens).toBe(estimateTokens(prompt));
    expect(result.usage.outputTokens).toBe(estimateTokens(result.text));
  });

  it("truncates to maxOutputTokens with finish reason length", async () => {
    const result = await generateText({
      model: createDemoModel({ books: [book] }),
      messages: actorMessages,
      allowSystemInMessages: true,
      maxOutputTokens: 3,
    });
    expect(result.text).toBe(" I know this".slice(0, 12));
    expect(result.finishReason).toBe("length");
  });

  it("is deterministic", async () => {
    const runs = await Promise.all([viaStream(), viaStream(), viaStream()]);
    expect(new Set(runs.map((r) => r.text)).size).toBe(1);
    expect(demoReply([book], "x")).toBe(demoReply([book], "x"));
  });

  it("falls back to a clearly scripted ReAct step when no book matches", async () => {
    const result = await generateText({
      model: createDemoModel({ books: [silentBook] }),
      messages: [{ role: "user", content: "Question: who wrote Dune?\nThought 3:" }],
    });
    expect(result.text).toBe(" I am the offline demo model and have no script for this task.\nAction 3: Finish[unknown]");
    expect(fallbackReply("Question: x\nThought 1: hmm\nAction 1:")).toBe(" Finish[unknown]");
  });

  it("falls back to a harmless household command when the prompt ends at the `>` prompt", () => {
    expect(fallbackReply("Your task is to: put a mug in cabinet.\n> go to desk 1\nOn the desk 1, you see nothing.\n>")).toBe(
      " think: I am the offline demo model and have no script for this task.",
    );
  });

  it("falls back to one reflection sentence for other prompts", async () => {
    const result = await generateText({ model: createDemoModel(), prompt: "Reflect on the failed trial.\nReflection:" });
    expect(result.text).toMatch(/offline demo model/);
    expect(result.text.split(/(?<=[.;])\s/).length).toBeLessThanOrEqual(2);
    expect(result.text).not.toContain("\n");
  });

  it("throws when the call is already aborted", async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(
      generateText({ model: createDemoModel(), prompt: "hi", abortSignal: controller.signal, maxRetries: 0 }),
    ).rejects.toThrow();
  });
});

describe("demo helpers", () => {
  it("applyStopSequences ignores empty stops and picks the earliest match", () => {
    expect(applyStopSequences("a STOP b END", ["END", "", "STOP"])).toEqual({ text: "a ", stopped: true });
    expect(applyStopSequences("abc", [])).toEqual({ text: "abc", stopped: false });
  });

  it("splitIntoWordChunks round-trips", () => {
    const text = "  Thought:  one\ntwo three ";
    expect(splitIntoWordChunks(text).join("")).toBe(text);
    expect(splitIntoWordChunks("")).toEqual([]);
  });
});
