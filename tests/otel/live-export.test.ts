import { afterEach, describe, expect, it } from "vitest";
import { APP_VERSION } from "@/lib/bundles/codec";
import { spansOfBranches } from "@/lib/otel/export";
import { finishedRun, sqliteContext } from "../bundles/helpers";
import { decodeTraces, startReceiver } from "./receiver";

const open: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of open.splice(0)) await close();
});

describe("live OTLP toggle (REFLEXION_OTLP_LIVE=1)", () => {
  it("sends a run's spans while it runs, in several requests, and they are exactly the post-hoc export's spans", async () => {
    const receiver = await startReceiver();
    open.push(receiver.close);
    const { context } = sqliteContext({ REFLEXION_OTLP_ENDPOINT: receiver.url, REFLEXION_OTLP_LIVE: "1" });
    open.push(async () => {
      await context.workers.stop();
      await context.store.close();
    });
    const run = await finishedRun(context, "qa");
    const expected = (spansOfBranches(await context.otlp.branchLogs(run.id), APP_VERSION)[0] ?? []).map((span) => span.spanContext().spanId).sort();
    const received = () => receiver.requests.flatMap((request) => decodeTraces(request.body).spans.map((span) => span.spanId)).sort();
    for (let waited = 0; waited < 5_000 && received().length < expected.length; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(receiver.requests.length).toBeGreaterThan(1);
    expect(received()).toEqual(expected);
  });

  it("is off unless REFLEXION_OTLP_LIVE=1", async () => {
    const receiver = await startReceiver();
    open.push(receiver.close);
    const { context } = sqliteContext({ REFLEXION_OTLP_ENDPOINT: receiver.url });
    open.push(async () => {
      await context.workers.stop();
      await context.store.close();
    });
    await finishedRun(context, "qa");
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(receiver.requests).toHaveLength(0);
  });
});
