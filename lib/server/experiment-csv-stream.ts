import { stringify } from "csv-stringify/sync";
import type { ExperimentSummary } from "@/lib/domain/experiment";
import { EXPERIMENT_TRIAL_COLUMNS, trialRowsOfCell, type ExperimentTrialRow } from "@/lib/domain/experiment-trial-rows";
import type { RunEvent } from "@/lib/domain/events";

/**
 * The CSV export of an experiment as a stream (decision 0042): the same bytes as the in-memory export
 * (lib/server/experiment-export.ts `csv`), produced a page of cells at a time as the reader asks for
 * more. Each pull reads the logs of {@link CSV_CELLS_PER_CHUNK} cells one run after the other, folds
 * each into its trial rows (lib/domain/experiment-trial-rows.ts) and hands on that page's CSV text
 * (csv-stringify, with the header before the first page only); nothing of an earlier page is kept,
 * so memory stays bounded by one run's log and one page's rows whatever the experiment's size.
 * A reader that stops (a cancelled download) stops the reads.
 */

/** Cells read per pull: about 250 rows of a 5-trial arm, a few tens of KB of CSV. */
export const CSV_CELLS_PER_CHUNK = 50;

/** The options every page is written with, so the pages join into the whole export's bytes. */
const CSV_OPTIONS = { columns: [...EXPERIMENT_TRIAL_COLUMNS], cast: { boolean: (value: boolean) => (value ? "true" : "false") } };

/** CSV text of rows (RFC 4180; booleans `true`/`false`, null empty), with or without the header line. */
export function trialRowsCsv(rows: ExperimentTrialRow[], header: boolean): string {
  return stringify(rows, { ...CSV_OPTIONS, header });
}

/**
 * A byte stream of the experiment's CSV.
 * @param summary the experiment's summary (its `cells`, in order, give the rows' order).
 * @param events a run's root-branch events by run id (empty for a run with no log).
 * Errors of `events` error the stream (the download breaks off; nothing is written to the database).
 */
export function experimentCsvStream(summary: Pick<ExperimentSummary, "experiment" | "cells">, events: (runId: string) => Promise<readonly RunEvent[]>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let next = 0;
  let cancelled = false;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const page = summary.cells.slice(next, next + CSV_CELLS_PER_CHUNK);
        const rows: ExperimentTrialRow[] = [];
        for (const cell of page) {
          if (cancelled) return;
          rows.push(...trialRowsOfCell(summary, cell, await events(cell.runId)));
        }
        const text = trialRowsCsv(rows, next === 0);
        next += page.length;
        if (text.length > 0) controller.enqueue(encoder.encode(text));
        if (next >= summary.cells.length) controller.close();
      },
      cancel() {
        cancelled = true;
      },
    },
    // One page queued ahead of the reader.
    { highWaterMark: 1 },
  );
}
