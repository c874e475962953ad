/**
 * bench/adaptive: adaptive concurrency against a provider that enforces 600 requests/min.
 *
 *   npm run bench:adaptive [-- --seconds 150 --callers 16 --latency-ms 300 --limit 600 --window-s 10]
 *
 * A fake OpenAI-compatible server (tests/helpers/fake-openai-server.ts) answers at most
 * `limit × window-s / 60` chat requests in any trailing `window-s` seconds (600/min as 100 per 10 s
 * by default) and answers the rest 429 with the wait until a request leaves the window
 * (`retry-after-ms`, `retry-after`). `callers` concurrent callers (the experiment driver's runs'
 * worth) each make model calls back to back through the real call path — the model port
 * (lib/llm/model-port.ts: the AI SDK's stream and retries) under the call-site limiter built from an
 * environment with **no rate setting** (callLimiterFromEnv({}), adaptive limits on by default) —
 * for `seconds`. Unthrottled, 16 callers (four workers of REFLEXION_CONCURRENCY=4) at 300 ms would send ~3,200 requests/min.
 *
 * Prints: requests the provider answered per minute against the limit (target ≥ 90 %, over the whole
 * run and after the first 30 s), the share of requests answered 429 (target ≤ 2 %), calls that
 * failed after the SDK's retries, and the learnt rate and concurrency every 10 s; with the load average.
 *
 * `--experiment` measures a whole experiment instead: `cli experiment run` as its own process (a
 * throw-away SQLite file; the built-in QA tasks × reflexion and none × `--repeats`, `--callers` runs at
 * once, the provider's model for every role) against the same fake provider, for at most `seconds`;
 * the figures are the provider's, over the time the experiment sent requests.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { createModelPort } from "@/lib/llm/model-port";
import { processAdaptiveGate } from "@/lib/llm/rate-limits/adaptive-gate";
import { callLimiterFromEnv } from "@/lib/llm/rate-limits/from-env";
import { startFakeOpenAIServer } from "../tests/helpers/fake-openai-server";

const { values } = parseArgs({
  options: {
    seconds: { type: "string", default: "150" },
    callers: { type: "string", default: "16" },
    "latency-ms": { type: "string", default: "300" },
    limit: { type: "string", default: "600" },
    "window-s": { type: "string", default: "10" },
    experiment: { type: "boolean", default: false },
    repeats: { type: "string", default: "20" },
  },
  strict: true,
});
const SECONDS = Number(values.seconds);
const CALLERS = Number(values.callers);
const LATENCY_MS = Number(values["latency-ms"]);
const LIMIT_PER_MIN = Number(values.limit);
const WINDOW_S = Number(values["window-s"]);
const WARM_UP_S = 30;
const MODEL = "compatible:fake-model";

async function main(): Promise<void> {
  const loadBefore = os.loadavg();
  const fake = await startFakeOpenAIServer({
    latencyMs: LATENCY_MS,
    respond: () => "Thought: fine.\nAction: Finish[yes]",
    rateLimit: { max: Math.round((LIMIT_PER_MIN * WINDOW_S) / 60), windowMs: WINDOW_S * 1000, retryAfterSeconds: "until-free" },
  });
  if (values.experiment) {
    await experimentRun(fake, loadBefore);
    await fake.close();
    return;
  }
  const env = { OPENAI_COMPATIBLE_BASE_URL: fake.baseUrl };
  const limiter = callLimiterFromEnv({});
  if (!limiter?.adaptive) throw new Error("Adaptive limits are off: unset REFLEXION_ADAPTIVE_LIMITS.");
  const port = createModelPort({ env, rateLimiter: limiter });
  process.stdout.write(
    `adaptive limits: ${CALLERS} callers, ${LATENCY_MS} ms latency, provider limit ${LIMIT_PER_MIN}/min (${Math.round((LIMIT_PER_MIN * WINDOW_S) / 60)} per ${WINDOW_S} s sliding window), ${SECONDS} s, no rate setting\n`,
  );
  process.stdout.write(`  load before: ${loadBefore.map((n) => n.toFixed(2)).join(" / ")} (1 / 5 / 15 min; ${os.cpus().length} cores)\n`);

  const started = Date.now();
  const endAt = started + SECONDS * 1000;
  let calls = 0;
  let failed = 0;
  const failures = new Map<string, number>();
  const caller = async (index: number) => {
    while (Date.now() < endAt) {
      try {
        await port.generate({
          role: "actor",
          settings: { modelId: MODEL, temperature: 0, maxOutputTokens: 64 },
          messages: [{ role: "user", content: `Task ${index}, call ${calls}: answer.` }],
          stopSequences: [],
        });
        calls += 1;
      } catch (error) {
        failed += 1;
        const message = error instanceof Error ? error.message.slice(0, 80) : String(error);
        failures.set(message, (failures.get(message) ?? 0) + 1);
      }
    }
  };
  const timeline = setInterval(() => {
    const entry = processAdaptiveGate.snapshots().find((snapshot) => snapshot.modelId === MODEL);
    const at = Math.round((Date.now() - started) / 1000);
    const answered = fake.chatRequests().filter((request) => request.status === undefined && (request.receivedAt ?? 0) >= Date.now() - 10_000).length;
    const state = entry?.state;
    process.stdout.write(
      `  t=${String(at).padStart(3)} s  provider answered ${(answered * 6).toFixed(0).padStart(4)}/min (last 10 s)  learnt ${state?.ratePerS === null || state === undefined ? "open" : `${state.ratePerS.toFixed(2)} req/s`}  measured ${state ? state.measuredRatePerS.toFixed(2) : "0"} req/s  concurrency ${state?.concurrency ?? "open"} (in flight ${state?.inFlight ?? 0})  429s so far ${state?.rateLimited ?? 0}\n`,
    );
  }, 10_000);
  await Promise.all(Array.from({ length: CALLERS }, (_, index) => caller(index)));
  clearInterval(timeline);
  const ended = Date.now();

  const chat = fake.chatRequests();
  const answeredIn = (from: number) => chat.filter((request) => request.status === undefined && (request.receivedAt ?? 0) >= from && (request.receivedAt ?? 0) < endAt).length;
  const minutes = (ended - started) / 60_000;
  const perMin = answeredIn(started) / minutes;
  const steadyPerMin = answeredIn(started + WARM_UP_S * 1000) / ((ended - started - WARM_UP_S * 1000) / 60_000);
  const rateLimited = chat.filter((request) => request.status === 429).length;
  const share = chat.length === 0 ? 0 : rateLimited / chat.length;
  const pct = (n: number) => `${(n * 100).toFixed(1)} %`;
  const met = (ok: boolean) => (ok ? "met" : "NOT met");
  process.stdout.write(`  requests sent ${chat.length}, answered ${chat.length - rateLimited}, answered 429 ${rateLimited}; model calls done ${calls}, failed after retries ${failed}\n`);
  for (const [message, count] of failures) process.stdout.write(`    failed ×${count}: ${message}\n`);
  process.stdout.write(`  achieved ${perMin.toFixed(0)}/min of ${LIMIT_PER_MIN} = ${pct(perMin / LIMIT_PER_MIN)} over the whole run (target ≥ 90 %: ${met(perMin >= 0.9 * LIMIT_PER_MIN)})\n`);
  process.stdout.write(`  after the first ${WARM_UP_S} s: ${steadyPerMin.toFixed(0)}/min = ${pct(steadyPerMin / LIMIT_PER_MIN)}\n`);
  process.stdout.write(`  429 share ${pct(share)} (target ≤ 2 %: ${met(share <= 0.02)})\n`);
  process.stdout.write(`  load after: ${os.loadavg().map((n) => n.toFixed(2)).join(" / ")}\n`);
  await limiter.close();
  await fake.close();
}

type FakeServer = Awaited<ReturnType<typeof startFakeOpenAIServer>>;

/** `--experiment`: a whole `cli experiment run` against the fake provider; prints the provider's figures. */
async function experimentRun(fake: FakeServer, loadBefore: number[]): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "adaptive-bench-"));
  const tsx = path.join(process.cwd(), "node_modules", "tsx", "dist", "cli.mjs");
  const args = [tsx, path.join("bin", "cli.ts"), "experiment", "run", "--here", "--env", "qa", "--tasks", "builtin", "--arms", "reflexion,none", "--model", MODEL, "--repeats", values.repeats, "--concurrency", String(CALLERS), "--trials", "5"];
  const childEnv: NodeJS.ProcessEnv = { ...process.env, REFLEXION_DB_PATH: path.join(dir, "bench.sqlite"), OPENAI_COMPATIBLE_BASE_URL: fake.baseUrl };
  delete childEnv.REFLEXION_RATE_LIMITS;
  delete childEnv.REFLEXION_ADAPTIVE_LIMITS;
  delete childEnv.REFLEXION_DATABASE_URL;
  process.stdout.write(`adaptive limits, a whole experiment: cli experiment run (qa builtin × reflexion,none × ${values.repeats} repeats, ${CALLERS} runs at once), ${LATENCY_MS} ms latency, provider limit ${LIMIT_PER_MIN}/min (${Math.round((LIMIT_PER_MIN * WINDOW_S) / 60)} per ${WINDOW_S} s sliding window), at most ${SECONDS} s, no rate setting\n`);
  process.stdout.write(`  load before: ${loadBefore.map((n) => n.toFixed(2)).join(" / ")} (1 / 5 / 15 min; ${os.cpus().length} cores)\n`);
  const started = Date.now();
  const child = spawn(process.execPath, args, { env: childEnv, stdio: ["ignore", "pipe", "pipe"] });
  let lastLine = "";
  let tail = "";
  const keep = (chunk: Buffer) => {
    const text = chunk.toString("utf8");
    tail = (tail + text).slice(-4000);
    const lines = text.split(/[\r\n]+/).filter((line) => line.trim());
    if (lines.length > 0) lastLine = lines.at(-1)!.trim();
  };
  child.stdout.on("data", keep);
  child.stderr.on("data", keep);
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const timeline = setInterval(() => {
    const at = Math.round((Date.now() - started) / 1000);
    const recent = fake.chatRequests().filter((request) => (request.receivedAt ?? 0) >= Date.now() - 10_000);
    const answered = recent.filter((request) => request.status === undefined).length;
    process.stdout.write(`  t=${String(at).padStart(3)} s  provider answered ${String(answered * 6).padStart(4)}/min (last 10 s), 429s ${recent.length - answered}  | ${lastLine.slice(0, 140)}\n`);
  }, 10_000);
  const deadline = setTimeout(() => child.kill("SIGTERM"), SECONDS * 1000);
  const code = await exited;
  clearTimeout(deadline);
  clearInterval(timeline);
  rmSync(dir, { recursive: true, force: true });
  const chat = fake.chatRequests();
  if (chat.length === 0) {
    process.stdout.write(`  the experiment sent no request (exit ${code}); its output ended:\n${tail}\n`);
    return;
  }
  const first = Math.min(...chat.map((request) => request.receivedAt ?? started));
  const last = Math.max(...chat.map((request) => request.receivedAt ?? started));
  const minutes = Math.max(1, last - first) / 60_000;
  const answered = chat.filter((request) => request.status === undefined).length;
  const rateLimited = chat.filter((request) => request.status === 429).length;
  const perMin = answered / minutes;
  const steady = chat.filter((request) => request.status === undefined && (request.receivedAt ?? 0) >= first + WARM_UP_S * 1000).length / Math.max(1e-9, (last - first - WARM_UP_S * 1000) / 60_000);
  const pct = (n: number) => `${(n * 100).toFixed(1)} %`;
  const met = (ok: boolean) => (ok ? "met" : "NOT met");
  process.stdout.write(`  experiment ${code === 0 ? "finished" : `stopped (exit ${code ?? "killed at the time limit"})`} after ${((Date.now() - started) / 1000).toFixed(0)} s; requests sent ${chat.length}, answered ${answered}, answered 429 ${rateLimited}, over ${((last - first) / 1000).toFixed(0)} s\n`);
  process.stdout.write(`  achieved ${perMin.toFixed(0)}/min of ${LIMIT_PER_MIN} = ${pct(perMin / LIMIT_PER_MIN)} while the experiment sent requests (target ≥ 90 %: ${met(perMin >= 0.9 * LIMIT_PER_MIN)})\n`);
  if (last - first > WARM_UP_S * 1000) process.stdout.write(`  after the first ${WARM_UP_S} s: ${steady.toFixed(0)}/min = ${pct(steady / LIMIT_PER_MIN)}\n`);
  process.stdout.write(`  429 share ${pct(rateLimited / chat.length)} (target ≤ 2 %: ${met(rateLimited / chat.length <= 0.02)})\n`);
  process.stdout.write(`  the experiment's last progress line: ${lastLine.slice(0, 200)}\n`);
  process.stdout.write(`  load after: ${os.loadavg().map((n) => n.toFixed(2)).join(" / ")}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
