/**
 * Search benchmark (part of `npm run bench`): 10,000 steps (30,000 thought / action / observation
 * nodes) of the Reflexion authors' HotpotQA trajectories (../shared/data/reflexion, ReAct + Reflexion,
 * 100 questions × 5 trials; their ~1,900 steps reused in turn until 10,000 are built; generated text
 * when the file is absent), as 2,000 trials of 5 steps on 100 branches, indexed in a SQLite file
 * (lib/db/search-index-sqlite.ts, FTS5). Prints the indexing time, then each full-text query's
 * median and p95 over 25 runs — the FTS5 lookup alone and the whole answer (lookup, reading every
 * trial's fields, deciding each) — beside the 100 ms target, and the machine load (`os.loadavg()`).
 * Asserts nothing.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { SqliteSearchIndex } from "@/lib/db/search-index-sqlite";
import type { TrialDocument } from "@/lib/domain/search-documents";
import { parseQuery } from "@/lib/domain/search-grammar";
import { fieldsOf, searchWords } from "@/lib/domain/search-match";
import { answerQuery } from "@/lib/server/search-service";

const STEPS = 10_000;
const STEPS_PER_TRIAL = 5;
const TRIALS_PER_BRANCH = 20;
const REPEATS = 25;
const TARGET_MS = 100;
const LOG = path.resolve(import.meta.dirname, "../../shared/data/reflexion/noahshinn-reflexion/hotpotqa_runs/root/ReAct/reflexion/100_questions_5_trials.txt");

/** Thought / action / observation triples from the authors' log, in order. */
function realSteps(): Array<{ thought: string; action: string; observation: string }> {
  if (!fs.existsSync(LOG)) return [];
  const steps: Array<{ thought: string; action: string; observation: string }> = [];
  let current: Partial<{ thought: string; action: string; observation: string }> = {};
  for (const line of fs.readFileSync(LOG, "utf8").split("\n")) {
    const match = /^(Thought|Action|Observation) \d+: (.*)$/u.exec(line);
    if (!match) continue;
    const field = match[1]!.toLowerCase() as "thought" | "action" | "observation";
    current[field] = match[2]!;
    if (field === "observation") {
      if (current.thought && current.action) steps.push({ thought: current.thought, action: current.action, observation: current.observation! });
      current = {};
    }
  }
  return steps;
}

function generatedStep(i: number) {
  const topics = ["Milhouse", "Pete Doherty", "Arthur's Magazine", "Colorado orogeny", "the desklamp", "Jonny Craig"];
  const topic = topics[i % topics.length]!;
  return { thought: `I need to search ${topic} and find what it is known for (${i}).`, action: `Search[${topic}]`, observation: `${topic} is best known for something recorded in ${1900 + (i % 120)}.` };
}

function documents(): { branches: Array<{ branchId: string; documents: TrialDocument[] }>; source: string } {
  const real = realSteps();
  const source = real.length > 0 ? `${real.length} real steps of ${path.relative(process.cwd(), LOG)}, reused in turn` : "generated text (the authors' log is absent)";
  const branches: Array<{ branchId: string; documents: TrialDocument[] }> = [];
  let step = 0;
  for (let b = 0; step < STEPS; b += 1) {
    const branchId = `branch-${b}`;
    const docs: TrialDocument[] = [];
    for (let t = 1; t <= TRIALS_PER_BRANCH && step < STEPS; t += 1) {
      const key = `${branchId}:${t}`;
      const doc: TrialDocument = {
        key, runId: `run-${b}`, branchId, runCreatedAt: new Date(Date.UTC(2026, 0, 1) + b * 60_000).toISOString(), runTitle: `bench ${b}`,
        family: "qa", strategy: "reflexion", model: "demo", taskId: `qa-${b}`, experimentId: null, arm: null, trial: t,
        outcome: t % 3 === 0 ? "success" : "failure", costUsd: 0.001 * t, steps: 0, tokens: 1000, actionCounts: {}, startEventId: `${key}:start`, eventIds: [], nodes: [],
      };
      for (let s = 1; s <= STEPS_PER_TRIAL && step < STEPS; s += 1, step += 1) {
        const text = real.length > 0 ? real[step % real.length]! : generatedStep(step);
        doc.steps += 1;
        doc.actionCounts[text.action] = (doc.actionCounts[text.action] ?? 0) + 1;
        for (const field of ["thought", "action", "observation"] as const) doc.nodes.push({ eventId: `${key}:${s}:${field}`, field, step: s, text: text[field] });
      }
      docs.push(doc);
    }
    branches.push({ branchId, documents: docs });
  }
  return { branches, source };
}

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

async function timed(work: () => Promise<unknown>): Promise<{ median: number; p95: number }> {
  await work();
  const times: number[] = [];
  for (let i = 0; i < REPEATS; i += 1) {
    const started = performance.now();
    await work();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { median: quantile(times, 0.5), p95: quantile(times, 0.95) };
}

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "search-bench-"));
  try {
    const { branches, source } = documents();
    const nodes = branches.reduce((sum, branch) => sum + branch.documents.reduce((n, doc) => n + doc.nodes.length, 0), 0);
    process.stdout.write(`search (SQLite FTS5): ${STEPS} steps, ${nodes} nodes, ${branches.reduce((n, b) => n + b.documents.length, 0)} trials on ${branches.length} branches; text: ${source}\n`);
    process.stdout.write(`  load before: ${os.loadavg().map((n) => n.toFixed(2)).join(" / ")} (1 / 5 / 15 min; ${os.cpus().length} cores)\n`);
    const index = new SqliteSearchIndex(path.join(dir, "search.sqlite"));
    const started = performance.now();
    for (const branch of branches) await index.replaceBranch({ runId: branch.documents[0]!.runId, branchId: branch.branchId, lastSeq: 1, documents: branch.documents });
    process.stdout.write(`  indexing: ${((performance.now() - started) / 1000).toFixed(2)} s\n`);
    const queries = ["Doherty", '"member of"', "thought:search", "observation:born -outcome:success", 'family:qa "I need to search" cost>0.002', "zyzzyva"];
    for (const text of queries) {
      const parsed = parseQuery(text);
      const textTerms = parsed.terms.filter((term) => term.kind === "text");
      const lookup = await timed(async () => {
        for (const term of textTerms) await index.findText(searchWords(term.text), fieldsOf(term));
      });
      let total = 0;
      const answer = await timed(async () => {
        total = (await answerQuery(index, parsed, 50)).total;
      });
      const verdict = answer.p95 <= TARGET_MS ? "within" : "OVER";
      process.stdout.write(
        `  ${text.padEnd(44)} ${String(total).padStart(5)} trials  FTS5 lookup median ${lookup.median.toFixed(1)} ms, p95 ${lookup.p95.toFixed(1)} ms;  whole answer median ${answer.median.toFixed(1)} ms, p95 ${answer.p95.toFixed(1)} ms (target ${TARGET_MS} ms: ${verdict})\n`,
      );
    }
    process.stdout.write(`  load after: ${os.loadavg().map((n) => n.toFixed(2)).join(" / ")}\n`);
    await index.close();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
