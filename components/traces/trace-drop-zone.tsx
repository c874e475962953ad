"use client";

import { useId, useRef, useState, type DragEvent } from "react";
import { traceFormatSchema, type TraceImportResult } from "@/lib/domain/trace-import";
import { useUploadTraces, type TraceFormatChoice } from "@/lib/query/trace-queries";
import { Notice } from "@/components/ui/notice";
import { Spinner } from "@/components/ui/spinner";
import { TraceImportFailureNotice } from "./trace-import-notice";

/** What the file picker offers: OTLP JSON / JSON lines, Inspect logs (JSON or the `.eval` zip), LangSmith and Langfuse exports. */
export const TRACE_ACCEPT = ".json,.jsonl,.ndjson,.eval,.gz,application/json";

const FORMAT_CHOICES: readonly TraceFormatChoice[] = ["auto", ...traceFormatSchema.options];

const FORMAT_LABELS: Record<TraceFormatChoice, string> = {
  auto: "Detect from the content",
  otlp: "OTLP JSON / JSON lines (OpenInference or gen_ai.*)",
  inspect: "Inspect AI eval log (.json or .eval)",
  langsmith: "LangSmith run export",
  langfuse: "Langfuse trace export",
};

/**
 * Drop trace files here (or pick them): each file becomes an experiment of read-only runs, one per
 * trace, imported on its own. `onImported` receives each imported file's result (the page shows
 * them with their problems); the files refused — nothing of them imported — are shown here, in the
 * order dropped, each with its reason.
 */
export function TraceDropZone({ onImported }: { onImported: (results: TraceImportResult[]) => void }) {
  const upload = useUploadTraces();
  const [format, setFormat] = useState<TraceFormatChoice>("auto");
  const [over, setOver] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const inputId = useId();
  const formatId = useId();

  const send = (files: File[]) => {
    if (files.length === 0) return;
    upload.mutate(
      { files, format },
      {
        onSuccess: (response) => onImported(response.imports),
        onSettled: () => {
          if (input.current) input.current.value = "";
        },
      },
    );
  };
  const onDrop = (event: DragEvent<HTMLLabelElement>) => {
    event.preventDefault();
    setOver(false);
    send([...event.dataTransfer.files]);
  };

  return (
    <div className="space-y-2">
      <label
        htmlFor={inputId}
        onDragOver={(event) => {
          event.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={onDrop}
        data-testid="trace-drop-zone"
        className={`flex cursor-pointer flex-col items-center justify-center gap-1 rounded-lg border-2 border-dashed px-4 py-8 text-center text-sm has-[:focus-visible]:outline has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-sky-600 ${over ? "border-sky-500 bg-sky-50" : "border-slate-300 bg-slate-50 hover:bg-slate-100"}`}
      >
        {upload.isPending ? <Spinner label="Importing" /> : <span aria-hidden className="text-xl">⤒</span>}
        <span className="font-medium text-slate-800">{upload.isPending ? "Importing the traces…" : "Drop trace files here, or choose files"}</span>
        <span className="text-xs text-slate-600">OTLP JSON lines, an Inspect eval log, a LangSmith or Langfuse export — gzip is fine.</span>
        <input
          ref={input}
          id={inputId}
          type="file"
          multiple
          accept={TRACE_ACCEPT}
          className="sr-only"
          data-testid="trace-upload"
          disabled={upload.isPending}
          onChange={(event) => send([...(event.target.files ?? [])])}
        />
      </label>
      <div className="flex flex-wrap items-center gap-2 text-xs text-slate-700">
        <label htmlFor={formatId}>Format</label>
        <select id={formatId} value={format} onChange={(event) => setFormat(FORMAT_CHOICES.find((choice) => choice === event.target.value) ?? "auto")} className="h-8 rounded border border-slate-300 px-1" data-testid="trace-format">
          {FORMAT_CHOICES.map((choice) => (
            <option key={choice} value={choice}>
              {FORMAT_LABELS[choice]}
            </option>
          ))}
        </select>
      </div>
      {upload.data && upload.data.failed.length > 0 ? (
        <div className="space-y-2" aria-live="polite">
          {[...upload.data.failed]
            .sort((a, b) => a.index - b.index)
            .map((failure) => (
              <TraceImportFailureNotice key={`${failure.index}-${failure.file}`} failure={failure} />
            ))}
        </div>
      ) : null}
      {upload.error ? (
        <Notice tone="error" title="Nothing was imported" data-testid="trace-upload-error">
          <p>{upload.error.message}</p>
          <p className="mt-1 text-xs">Traces imported before are untouched.</p>
        </Notice>
      ) : null}
    </div>
  );
}
