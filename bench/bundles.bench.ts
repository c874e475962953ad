/**
 * bench/bundles: a 1,000-run experiment's bundle (~100 MB gzip'd) exported and imported as a
 * stream (format 2, docs/decisions/0042-ten-times-bigger.md), with a 10-run bundle for comparison.
 *
 *   npm run bench:bundles [-- --runs 1000 --small-runs 10 --prompt-kb 76]
 *
 * Seeding (not timed): one real demo QA run records a realistic event log; it is copied into
 * 1,000 runs of one experiment through the store's own write paths (`createRun` with the cell,
 * `append`, `putCachedResponse`), each model call's prompt grown with `--prompt-kb` KB of varied
 * words (a retrieved passage, as a HotpotQA prompt carries) and its own cache entry, in a SQLite
 * file in a temp dir. Then each phase runs in a child process of its own, so its peak RSS
 * (getrusage maxrss) is its own: export via BundleService.exportExperimentTo into a file, and
 * import via importBundleFile into a fresh SQLite file. Bounded memory means the peak RSS growth
 * stays far below the bundle's inflated size; target: import of the large bundle ≤ 10 s.
 */
import { spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import v8 from "node:v8";
import { createGunzip } from "node:zlib";
import { SqliteRunStore } from "@/lib/db/sqlite-store";
import { MemoryTemplateStore } from "@/lib/db/memory-templates";
import type { EventDraft, RunEvent } from "@/lib/domain/events";
import { asRunId } from "@/lib/domain/ids";
import { qaDemoScriptBook } from "@/lib/environments/qa/demo-script";
import { createModelPort } from "@/lib/llm/model-port";
import { createServerContext, type ServerContext } from "@/lib/server/app-context";

const { values } = parseArgs({
  options: {
    runs: { type: "string", default: "1000" },
    "small-runs": { type: "string", default: "10" },
    "prompt-kb": { type: "string", default: "76" },
    phase: { type: "string" },
    db: { type: "string" },
    file: { type: "string" },
    experiment: { type: "string" },
  },
  strict: true,
});
const MIB = 1024 * 1024;

function context(dbPath: string): ServerContext {
  return createServerContext({
    store: new SqliteRunStore(dbPath),
    model: createModelPort({ demoScriptBooks: [qaDemoScriptBook] }),
    env: {},
    templates: new MemoryTemplateStore(),
    workers: { concurrency: 1, pollMs: 20 },
  });
}

/** Peak heap used while `work` runs, sampled every 20 ms (the streams yield to the event loop often). */
async function measured<T>(work: () => Promise<T>): Promise<{ result: T; ms: number; cpuMs: number; heapPeakMb: number; heapBaseMb: number; rssBaseMb: number; rssPeakMb: number }> {
  global.gc?.();
  const heapBase = v8.getHeapStatistics().used_heap_size;
  const rssBase = process.memoryUsage.rss();
  let heapPeak = heapBase;
  const timer = setInterval(() => {
    heapPeak = Math.max(heapPeak, v8.getHeapStatistics().used_heap_size);
  }, 20);
  const started = performance.now();
  const cpu = process.cpuUsage();
  const result = await work();
  const ms = performance.now() - started;
  const used = process.cpuUsage(cpu);
  clearInterval(timer);
  heapPeak = Math.max(heapPeak, v8.getHeapStatistics().used_heap_size);
  // maxRSS: kilobytes on Linux, the process's peak so far (this child does nothing else heavy).
  return { result, ms, cpuMs: (used.user + used.system) / 1000, heapPeakMb: heapPeak / MIB, heapBaseMb: heapBase / MIB, rssBaseMb: rssBase / MIB, rssPeakMb: process.resourceUsage().maxRSS / 1024 };
}

/** Child: one phase, its figures as one JSON line on stdout. */
async function phase(): Promise<void> {
  const db = values.db ?? "";
  const file = values.file ?? "";
  const ctx = context(db);
  try {
    if (values.phase === "export") {
      const figures = await measured(() => ctx.bundles.exportExperimentTo(fs.createWriteStream(file), values.experiment ?? ""));
      process.stdout.write(`${JSON.stringify({ ...figures, result: { bytes: figures.result.bytes, counts: figures.result.manifest.counts } })}\n`);
    } else {
      const figures = await measured(() => ctx.bundles.importBundleFile(file));
      process.stdout.write(`${JSON.stringify({ ...figures, result: { runs: figures.result.bundle.runIds.length, created: figures.result.created } })}\n`);
    }
  } finally {
    await ctx.workers.stop();
    await ctx.store.close();
  }
}

const WORDS = (() => {
  const syllables = ["ka", "lo", "mi", "ne", "ra", "su", "ti", "vo", "an", "el", "or", "us", "ber", "den", "gar", "hol", "mer", "ton", "wick", "shire"];
  const words: string[] = [];
  for (let i = 0; i < 4000; i += 1) {
    let word = "";
    for (let n = 0; n < 2 + (i % 3); n += 1) word += syllables[(i * 7 + n * 13 + ((i >> 3) % 11)) % syllables.length];
    words.push(word);
  }
  return words;
})();

/** About `kb` KB of varied prose (a retrieved passage), different per `seed`. */
function passage(kb: number, seed: number): string {
  let state = seed * 2654435761 + 1;
  const out: string[] = [];
  let size = 0;
  while (size < kb * 1024) {
    state = (state * 1103515245 + 12345) % 2147483648;
    const pick = state >>> 12;
    const word = WORDS[pick % WORDS.length] ?? "the";
    out.push(word);
    size += word.length + 1;
    if (pick % 17 === 0) out.push(`${1700 + (pick % 300)}.`);
  }
  return out.join(" ");
}

/** Seeds `runs` copies of `template` (a finished run's root log) into experiment `experimentId` through the store's write paths. */
async function seedCopies(ctx: ServerContext, template: RunEvent[], experimentId: string, runs: number, promptKb: number, offset: number): Promise<void> {
  const start = template[0];
  if (!start || start.type !== "run-start") throw new Error("the template run has no run-start");
  for (let i = 0; i < runs; i += 1) {
    const n = offset + i;
    const run = await ctx.store.createRun({ config: start.data.config, title: `${start.data.config.task.id} copy ${n}`, cell: { experimentId, taskId: `bench-task-${n}`, arm: "reflexion" } });
    const ids = new Map<string, string>();
    const drafts: EventDraft[] = [];
    let call = 0;
    for (const event of template.slice(1)) {
      const id = randomUUID();
      ids.set(event.id, id);
      const causedBy = event.causedBy ? (ids.get(event.causedBy) ?? null) : null;
      if (event.type === "model-call-end") {
        call += 1;
        const requestHash = `${event.data.requestHash.slice(0, 40)}${n.toString(16).padStart(8, "0")}${call.toString(16).padStart(16, "0")}`;
        const messages = event.data.messages.map((message, index) => (index === event.data.messages.length - 1 && message.role === "user" ? { ...message, content: `${passage(promptKb, n * 100 + call)}\n\n${message.content}` } : message));
        drafts.push({ id, type: "model-call-end", data: { ...event.data, requestHash, messages }, causedBy, occurredAt: event.occurredAt, actor: event.actor ?? null });
        await ctx.store.putCachedResponse(requestHash, { text: event.data.outputText, usage: event.data.usage, finishReason: event.data.finishReason });
      } else {
        drafts.push({ id, type: event.type, data: event.data, causedBy, occurredAt: event.occurredAt, actor: event.actor ?? null } as EventDraft);
      }
    }
    await ctx.store.append(run.id, run.rootBranchId, drafts);
  }
}

function child(args: string[]): Record<string, unknown> {
  const out = spawnSync(process.execPath, [...process.execArgv, "--expose-gc", import.meta.filename, ...args], { encoding: "utf8", maxBuffer: 16 * MIB });
  if (out.status !== 0) throw new Error(`phase ${args.join(" ")} failed:\n${out.stderr}`);
  const line = out.stdout.trim().split("\n").at(-1) ?? "{}";
  return JSON.parse(line) as Record<string, unknown>;
}

async function inflatedSize(file: string): Promise<number> {
  let total = 0;
  for await (const chunk of fs.createReadStream(file).pipe(createGunzip()) as AsyncIterable<Buffer>) total += chunk.length;
  return total;
}

async function main(): Promise<void> {
  const runs = Number(values.runs);
  const smallRuns = Number(values["small-runs"]);
  const promptKb = Number(values["prompt-kb"]);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "rp-bench-bundles-"));
  const seedDb = path.join(dir, "seed.sqlite");
  const load = () => os.loadavg().map((value) => value.toFixed(2)).join(" ");
  console.log(`bench/bundles — ${runs} runs (and ${smallRuns}), prompts +${promptKb} KB per model call; node ${process.version}; ${os.cpus().length} cores; load ${load()}`);
  const seeded = performance.now();
  const ctx = context(seedDb);
  const experiments: Record<string, string> = {};
  try {
    const made = await ctx.service.createRun({ environment: "qa", taskSet: "builtin", taskId: "qa-builtin-01", strategy: "reflexion", modelId: "demo" });
    await ctx.workers.untilSettled(made.rootBranchId);
    const template = await ctx.store.list(asRunId(made.id), made.rootBranchId);
    for (const [label, count] of [["small", smallRuns], ["large", runs]] as const) {
      const record = await ctx.experiments.start({ name: `bench bundles ${label}`, environment: "qa", taskSet: "builtin", taskIds: ["qa-builtin-01"], arms: [{ label: "reflexion", strategy: "reflexion", modelId: "demo" }], maxTrials: 3 });
      for (const runId of await ctx.experiments.runIds(record.id)) await ctx.workers.untilSettled((await ctx.service.getRun(runId)).rootBranchId);
      await seedCopies(ctx, template, record.id, count - 1, promptKb, label === "small" ? 0 : smallRuns);
      experiments[label] = record.id;
    }
    console.log(`seeded in ${((performance.now() - seeded) / 1000).toFixed(1)} s: a run of ${template.length} events, copied; seed db ${(fs.statSync(seedDb).size / MIB).toFixed(0)} MB`);
  } finally {
    await ctx.workers.stop();
    await ctx.store.close();
  }

  const rows: string[] = [];
  let largeImportMs = 0;
  for (const label of ["small", "large"] as const) {
    const file = path.join(dir, `${label}.reflexion.json.gz`);
    const exported = child(["--phase", "export", "--db", seedDb, "--file", file, "--experiment", experiments[label] ?? ""]);
    const loadAfterExport = load();
    const imported = child(["--phase", "import", "--db", path.join(dir, `${label}-target.sqlite`), "--file", file]);
    const gz = fs.statSync(file).size;
    const inflated = await inflatedSize(file);
    const result = exported.result as { counts: { runs: number; events: number; cacheEntries: number } };
    const f = (value: unknown) => Number(value).toFixed(0);
    rows.push(
      `${label.padEnd(5)} | ${String(result.counts.runs).padStart(5)} runs ${String(result.counts.events).padStart(6)} events ${String(result.counts.cacheEntries).padStart(6)} cached | ${(gz / MIB).toFixed(1).padStart(6)} MB gz ${(inflated / MIB).toFixed(1).padStart(7)} MB inflated` +
        ` | export ${(Number(exported.ms) / 1000).toFixed(2)} s (CPU ${(Number(exported.cpuMs) / 1000).toFixed(2)} s), RSS ${f(exported.rssBaseMb)}→${f(exported.rssPeakMb)} MB (+${f(Number(exported.rssPeakMb) - Number(exported.rssBaseMb))}), heap +${f(Number(exported.heapPeakMb) - Number(exported.heapBaseMb))} MB [load ${loadAfterExport}]` +
        ` | import ${(Number(imported.ms) / 1000).toFixed(2)} s (CPU ${(Number(imported.cpuMs) / 1000).toFixed(2)} s), RSS ${f(imported.rssBaseMb)}→${f(imported.rssPeakMb)} MB (+${f(Number(imported.rssPeakMb) - Number(imported.rssBaseMb))}), heap +${f(Number(imported.heapPeakMb) - Number(imported.heapBaseMb))} MB [load ${load()}]`,
    );
    if (label === "large") largeImportMs = Number(imported.ms);
  }
  for (const row of rows) console.log(row);
  console.log(`target: import of the large bundle ≤ 10 s: ${largeImportMs <= 10_000 ? "met" : "NOT met"} (${(largeImportMs / 1000).toFixed(2)} s wall at load ${load()}); memory: peak RSS growth far below the inflated size (see above)`);
  if (process.env.BENCH_KEEP) console.log(`kept ${dir}`);
  else fs.rmSync(dir, { recursive: true, force: true });
}

if (values.phase) await phase();
else await main();
