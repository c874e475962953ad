"use client";

import { useId, useRef, useState } from "react";
import { useUploadImport, type UploadProgress } from "@/lib/query/paper-queries";
import { Notice } from "@/components/ui/notice";
import { Spinner } from "@/components/ui/spinner";
import { ImportResultNotice } from "./import-result";

/** The file types the importer reads: HotpotQA text logs, ALFWorld `env_results_trial_N.json`, programming JSONL. */
export const IMPORT_ACCEPT = ".txt,.json,.jsonl,text/plain,application/json";

/**
 * Upload of any log of the three formats (several files at once for an
 * ALFWorld run folder: select all its `env_results_trial_N.json`), with the
 * upload's progress, the import's result, and on a bad file the server's
 * message (it names the file and the line) with what to do.
 */
export function UploadLogs() {
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const upload = useUploadImport(setProgress);
  const input = useRef<HTMLInputElement>(null);
  const inputId = useId();
  const percent = progress && progress.total > 0 ? Math.round((progress.loaded / progress.total) * 100) : null;
  return (
    <div className="space-y-2">
      <label
        htmlFor={inputId}
        className="inline-flex h-9 cursor-pointer items-center gap-1.5 rounded-md border border-slate-300 bg-white px-3 text-sm font-medium text-slate-800 hover:bg-slate-50 has-[:focus-visible]:outline has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-sky-600"
      >
        {upload.isPending ? <Spinner className="size-3" label="Uploading" /> : <span aria-hidden>⤒</span>}
        Upload log files…
        <input
          ref={input}
          id={inputId}
          type="file"
          multiple
          accept={IMPORT_ACCEPT}
          className="sr-only"
          data-testid="import-upload"
          disabled={upload.isPending}
          onChange={(event) => {
            const files = [...(event.target.files ?? [])];
            if (files.length === 0) return;
            setProgress({ loaded: 0, total: files.reduce((n, file) => n + file.size, 0) });
            upload.mutate(files, {
              onSettled: () => {
                if (input.current) input.current.value = "";
              },
            });
          }}
        />
      </label>
      <p className="text-xs text-slate-600">
        A HotpotQA <code>100_questions_*_trials.txt</code>, a programming <code>.jsonl</code>, or all the <code>env_results_trial_N.json</code> files of one
        ALFWorld run folder at once.
      </p>
      {upload.isPending ? (
        <div className="flex items-center gap-2 text-xs text-slate-700" data-testid="import-upload-progress">
          <progress className="h-2 w-48" max={100} value={percent ?? undefined} aria-label="Upload progress" />
          {percent === null || percent < 100 ? `Uploading${percent === null ? "…" : ` ${percent}%`}` : "Uploaded; importing the runs…"}
        </div>
      ) : null}
      {upload.error ? (
        <Notice tone="error" data-testid="import-upload-error" title="Nothing of this upload was imported">
          <p>{upload.error.message}</p>
          <p className="mt-1 text-xs">
            Check that the file is one of the authors&apos; logs, unchanged and complete (a truncated download stops at the line named), then upload it
            again. Runs imported before are untouched.
          </p>
        </Notice>
      ) : null}
      {upload.data ? (
        <div className="space-y-2">
          {upload.data.imports.map((result) => (
            <ImportResultNotice key={result.experimentId} result={result} />
          ))}
        </div>
      ) : null}
    </div>
  );
}
