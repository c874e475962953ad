"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import type { ImportResult } from "@/lib/domain/paper-import";
import { importListQuery, useImportPaths } from "@/lib/query/paper-queries";
import { Button } from "@/components/ui/button";
import { EmptyState, Notice } from "@/components/ui/notice";
import { Spinner } from "@/components/ui/spinner";
import { ImportableFiles } from "./importable-files";
import { ImportResultNotice } from "./import-result";
import { PaperFigures } from "./paper-figures";
import { UploadLogs } from "./upload-logs";

/** Where the server looks for the shared folder (lib/domain/paper-import.ts). */
export const DATA_ROOT_HINT = "REFLEXION_DATA_ROOT (a folder holding reflexion/), else ../shared/data next to the server's working directory";

/**
 * `/imports`: "Import the paper's runs". Lists the shared folder's logs (`GET
 * /api/imports`) by family with Import / Open, "Import all" (one file after
 * the other, so each one's result shows as it lands), and upload of any log
 * file. Each import becomes an experiment with one arm, recorded by the
 * authors and read-only.
 */
export function ImportPage() {
  const list = useQuery(importListQuery());
  const importPaths = useImportPaths();
  const [importing, setImporting] = useState<ReadonlySet<string>>(new Set());
  const [results, setResults] = useState<ImportResult[]>([]);
  const [error, setError] = useState<{ path: string; message: string } | null>(null);
  const [batch, setBatch] = useState<{ done: number; total: number } | null>(null);

  const importOne = async (path: string): Promise<boolean> => {
    setImporting((current) => new Set([...current, path]));
    try {
      const response = await importPaths.mutateAsync([path]);
      setResults((current) => [...response.imports, ...current.filter((result) => !response.imports.some((added) => added.experimentId === result.experimentId))]);
      return true;
    } catch (cause) {
      setError({ path, message: cause instanceof Error ? cause.message : String(cause) });
      return false;
    } finally {
      setImporting((current) => new Set([...current].filter((candidate) => candidate !== path)));
    }
  };

  const importMany = async (paths: string[]) => {
    setError(null);
    setBatch(paths.length > 1 ? { done: 0, total: paths.length } : null);
    for (const [index, path] of paths.entries()) {
      const ok = await importOne(path);
      if (paths.length > 1) setBatch({ done: index + 1, total: paths.length });
      if (!ok) break;
    }
    setBatch(null);
  };

  const files = list.data?.files ?? [];
  const notImported = files.filter((file) => file.importedExperimentId === null).map((file) => file.path);

  return (
    <main className="mx-auto w-full max-w-5xl flex-1 space-y-4 px-4 py-6" data-testid="import-page">
      <header className="flex flex-wrap items-end justify-between gap-3">
        <div className="max-w-3xl space-y-1">
          <h1 className="text-lg font-semibold text-slate-900">Import the paper&apos;s runs</h1>
          <p className="text-sm text-slate-600">
            The Reflexion authors published their real runs: GPT trajectories, verdicts and reflections for HotpotQA, ALFWorld and the programming
            benchmarks. Each log becomes an experiment with one arm — <strong>recorded by the authors, 2023</strong>, read-only — whose runs open, fold and
            compare like any other; fork a HotpotQA trial to continue it live with any model.
          </p>
        </div>
        {notImported.length > 0 ? (
          <Button variant="primary" data-testid="import-all" disabled={importing.size > 0} onClick={() => void importMany(notImported)}>
            {batch ? `Importing ${batch.done + 1} of ${batch.total}…` : `Import all (${notImported.length})`}
          </Button>
        ) : null}
      </header>

      {error ? (
        <Notice tone="error" data-testid="import-error" title={`Could not import ${error.path}`}>
          <p>{error.message}</p>
          <p className="mt-1 text-xs">Nothing of this file was imported. Check that the file is complete and unchanged (see SOURCES.md in the data folder), then try again.</p>
        </Notice>
      ) : null}
      {results.length > 0 ? (
        <div className="space-y-2" aria-live="polite">
          {results.map((result) => (
            <ImportResultNotice key={result.experimentId} result={result} />
          ))}
        </div>
      ) : null}

      {list.isPending ? (
        <p className="flex items-center gap-2 py-6 text-sm text-slate-600">
          <Spinner /> Looking for the shared data folder…
        </p>
      ) : list.error ? (
        <Notice tone="error">
          Could not list the logs: {list.error.message} Upload still works below; reload the page once the server runs.
        </Notice>
      ) : list.data.dataRoot === null ? (
        <EmptyState title="No shared data folder found" className="rounded-lg border border-slate-200 bg-white">
          <p data-testid="imports-no-data-root">
            The server looks in {DATA_ROOT_HINT}. Put the authors&apos; logs there and reload — or upload a log file below: upload works without the folder.
          </p>
        </EmptyState>
      ) : (
        <>
          <p className="text-xs text-slate-600" data-testid="imports-data-root">
            {files.length} logs in <code className="font-mono">{list.data.dataRoot}</code>
          </p>
          <PaperFigures files={files} />
          <ImportableFiles files={files} importing={importing} onImport={(paths) => void importMany(paths)} />
        </>
      )}

      <section aria-labelledby="upload-heading" className="space-y-2 rounded-lg border border-slate-200 bg-white p-4">
        <h2 id="upload-heading" className="text-sm font-semibold text-slate-900">
          Upload a log
        </h2>
        <UploadLogs />
      </section>
    </main>
  );
}
