import { strFromU8, unzipSync } from "fflate";
import type { ExternalTrace, ParsedTraces, TraceProblem } from "./external-trace";
import { arr, isObject, num, parseLenientJson, str } from "./json-records";
import { inspectModelName, traceFromSample, type InspectLogContext } from "./inspect-sample";

/**
 * Parser of Inspect AI eval logs (inspect.aisi.org.uk/eval-logs.html; field names from
 * UKGovernmentBEIS/inspect_ai src/inspect_ai/log/_log.py and log/_recorders/eval.py):
 *
 * - the JSON form: one `EvalLog` object — `version`, `status` ("started" | "success" | "cancelled" |
 *   "error"), `eval` (`EvalSpec`: `task`, `task_id`, `model`, `eval_id`, `run_id`, …), `plan`,
 *   `results`, `stats`, `error`, `samples[]`;
 * - the `.eval` zip: `header.json` (the `EvalLog` without samples; absent while a run is in progress,
 *   when `_journal/start.json` holds `version`, `eval` and `plan`), one `samples/<id>_epoch_<n>.json`
 *   per sample, plus `summaries.json`, `reductions.json` and `_journal/…` which are not needed here.
 *
 * Each sample × epoch becomes one trace (lib/importers/external/inspect-sample.ts). A sample that
 * cannot be read is a problem and the others go on; a log whose status is not "success" says so in a
 * problem line, and its samples are read all the same.
 */

/** Options of {@link parseInspectLog}. */
export interface InspectParseOptions {
  /** The scorer whose score is the verdict; default: the first scorer whose value reads as pass / fail. */
  scorer?: string;
  /** Scores at or above this pass (lib/importers/external/score-verdict.ts); default 0.5. */
  passThreshold?: number;
  /** Largest declared uncompressed size of one `.eval` zip entry that is extracted; default 64 MiB. */
  maxEntryBytes?: number;
  /** Largest declared uncompressed size of all extracted `.eval` entries together; default 512 MiB. */
  maxTotalBytes?: number;
}

const MiB = 1024 * 1024;
const SAMPLE_ENTRY = /^samples\/(.+)_epoch_(\d+)\.json$/;

/** True when `bytes` start with a zip local file header (`PK\x03\x04`), as Inspect's `.eval` recorder checks. */
export function isZip(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;
}

/** A log's header fields and its samples, each sample with the label a problem would use. */
interface LogParts {
  header: Record<string, unknown> | null;
  /** Each sample: the label a problem would use, its epoch when known before reading, and how to read it. */
  samples: { where: string; epoch: number | null; read: () => Record<string, unknown> }[];
  problems: TraceProblem[];
}

/**
 * Parses an Inspect eval log, JSON or `.eval` zip (told apart by the zip magic, not the name).
 * Never throws: a file that is not a log gives no traces and a problem saying what was expected.
 */
export function parseInspectLog(bytes: Uint8Array, name: string, options: InspectParseOptions = {}): ParsedTraces {
  const parts = isZip(bytes) ? readEvalZip(bytes, name, options) : readJsonLog(bytes, name);
  const problems = [...parts.problems];
  const header = parts.header;
  if (!header) return { format: "inspect", traces: [], problems };

  const spec = isObject(header.eval) ? header.eval : {};
  const status = str(header.status) ?? "started";
  const context: InspectLogContext = {
    task: str(spec.task) ?? name,
    model: inspectModelName(spec.model),
    evalId: str(spec.eval_id) ?? str(spec.run_id) ?? name,
    multiEpoch: (num(isObject(spec.config) ? spec.config.epochs : null) ?? 1) > 1 || parts.samples.some((sample) => (sample.epoch ?? 1) > 1),
    scorer: options.scorer ?? null,
    passThreshold: options.passThreshold,
  };

  const traces: ExternalTrace[] = [];
  for (const { where, read } of parts.samples) {
    try {
      const sample = read();
      const label = `sample ${String(sample.id ?? "?")} (epoch ${String(sample.epoch ?? 1)})`;
      const { trace, notes } = traceFromSample(sample, context);
      traces.push(trace);
      for (const note of notes) problems.push({ where: label, message: note });
    } catch (error) {
      problems.push({ where, message: `could not be read (${error instanceof Error ? error.message : String(error)}); the other samples are imported` });
    }
  }

  if (status !== "success") {
    const error = isObject(header.error) ? str(header.error.message) : null;
    const what = status === "started" ? 'is still "started" (the run was in progress or was killed)' : `ended with status "${status}"${error ? `: ${error}` : ""}`;
    problems.unshift({ where: "log", message: `the eval ${what}; ${traces.length} sample${traces.length === 1 ? "" : "s"} read` });
  }
  if (parts.samples.length === 0) problems.push({ where: "log", message: "the log has no samples (was it written with log_samples=False, or is it a header only?)" });
  return { format: "inspect", traces, problems };
}

function readJsonLog(bytes: Uint8Array, name: string): LogParts {
  let log: unknown;
  try {
    log = parseLenientJson(new TextDecoder().decode(bytes));
  } catch (error) {
    return { header: null, samples: [], problems: [{ where: name, message: `not an Inspect eval log: not valid JSON (${error instanceof Error ? error.message : String(error)})` }] };
  }
  if (!isObject(log) || !isObject(log.eval)) {
    return { header: null, samples: [], problems: [{ where: name, message: "not an Inspect eval log: expected an object with `eval` (the EvalSpec) and `samples`" }] };
  }
  const samples = arr(log.samples).map((sample, index) => ({
    where: isObject(sample) && sample.id !== undefined ? `sample ${String(sample.id)} (epoch ${String(sample.epoch ?? 1)})` : `samples[${index}]`,
    epoch: isObject(sample) ? num(sample.epoch) : null,
    read: () => {
      if (!isObject(sample)) throw new Error("a sample is not an object");
      return sample;
    },
  }));
  return { header: log, samples, problems: [] };
}

function readEvalZip(bytes: Uint8Array, name: string, options: InspectParseOptions): LogParts {
  const maxEntry = options.maxEntryBytes ?? 64 * MiB;
  const maxTotal = options.maxTotalBytes ?? 512 * MiB;
  const problems: TraceProblem[] = [];
  let total = 0;
  let entries: Record<string, Uint8Array>;
  try {
    entries = unzipSync(bytes, {
      filter: (file) => {
        const wanted = file.name === "header.json" || file.name === "_journal/start.json" || SAMPLE_ENTRY.test(file.name);
        if (!wanted) return false;
        if (file.compression !== 0 && file.compression !== 8) {
          problems.push({ where: file.name, message: `uses zip compression method ${file.compression}, which is not supported (only stored and deflate); skipped` });
          return false;
        }
        if (file.originalSize > maxEntry) {
          problems.push({ where: file.name, message: `declares ${file.originalSize} bytes uncompressed, over the ${maxEntry}-byte limit per entry; skipped` });
          return false;
        }
        if (total + file.originalSize > maxTotal) {
          problems.push({ where: file.name, message: `would take the extracted total over the ${maxTotal}-byte limit; skipped` });
          return false;
        }
        total += file.originalSize;
        return true;
      },
    });
  } catch (error) {
    return { header: null, samples: [], problems: [{ where: name, message: `not a readable .eval zip (${error instanceof Error ? error.message : String(error)})` }] };
  }

  const readEntry = (entry: string): unknown => parseLenientJson(strFromU8(entries[entry] ?? new Uint8Array()));
  let header: Record<string, unknown> | null = null;
  const headerEntry = "header.json" in entries ? "header.json" : "_journal/start.json" in entries ? "_journal/start.json" : null;
  if (headerEntry) {
    try {
      const value = readEntry(headerEntry);
      if (isObject(value) && isObject(value.eval)) header = headerEntry === "header.json" ? value : { ...value, status: "started" };
      else problems.push({ where: headerEntry, message: "has no `eval` (the EvalSpec)" });
    } catch (error) {
      problems.push({ where: headerEntry, message: `not valid JSON (${error instanceof Error ? error.message : String(error)})` });
    }
  } else if (!problems.some((problem) => problem.where === "header.json")) {
    problems.push({ where: name, message: "not an Inspect .eval log: the zip has neither header.json nor _journal/start.json" });
  }

  const samples = Object.keys(entries)
    .filter((entry) => SAMPLE_ENTRY.test(entry))
    .sort(compareSampleEntries)
    .map((entry) => ({
      where: entry,
      epoch: Number(SAMPLE_ENTRY.exec(entry)?.[2] ?? 1),
      read: () => {
        const value = readEntry(entry);
        if (!isObject(value)) throw new Error("the entry is not a JSON object");
        return value;
      },
    }));
  return { header, samples, problems };
}

/** Sample entries in id order (numerically when both ids are numbers), then epoch. */
function compareSampleEntries(a: string, b: string): number {
  const [, idA, epochA] = SAMPLE_ENTRY.exec(a) ?? [];
  const [, idB, epochB] = SAMPLE_ENTRY.exec(b) ?? [];
  const numeric = /^\d+$/.test(idA ?? "") && /^\d+$/.test(idB ?? "");
  const byId = numeric ? Number(idA) - Number(idB) : (idA ?? "").localeCompare(idB ?? "");
  return byId !== 0 ? byId : Number(epochA) - Number(epochB);
}
