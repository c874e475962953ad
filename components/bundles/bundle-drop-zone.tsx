"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useCallback, useRef, useState, type DragEvent, type ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { Notice } from "@/components/ui/notice";
import { Spinner } from "@/components/ui/spinner";
import { cn } from "@/lib/utils/cn";
import { uploadBundle } from "./upload-bundle";

type State =
  | { kind: "idle" }
  | { kind: "uploading"; name: string }
  | { kind: "error"; name: string; message: string }
  | { kind: "opened"; name: string; href: string; notes: string[] };

/**
 * Import a run bundle by dropping it anywhere on `children` (the home page) or with the
 * "Import a bundle" button. On success it opens `/shared/<hash>`: the bundle's runs, read-only —
 * unless some of its runs were here already, which the notice lists (reused or kept) with the link.
 * A bad file shows the server's reason (tampered, truncated, newer format…) and imports nothing.
 * The outcome (checking, refused, opened) is shown in a fixed, dismissible notice at the top of the
 * window, so a drop far down the page never looks like nothing happened.
 */
export function BundleDropZone({ children, className }: { children: ReactNode; className?: string }) {
  const router = useRouter();
  const input = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  const [state, setState] = useState<State>({ kind: "idle" });

  const importFile = useCallback(
    async (file: File) => {
      setState({ kind: "uploading", name: file.name });
      try {
        const result = await uploadBundle(file);
        const href = `/shared/${result.contentSha256}`;
        setState({ kind: "opened", name: file.name, href, notes: result.notes });
        // Runs that were here already (kept, not imported again) are said first; the person opens the runs from the notice.
        if (result.notes.length === 0) router.push(href);
      } catch (error) {
        setState({ kind: "error", name: file.name, message: error instanceof Error ? error.message : String(error) });
      }
    },
    [router],
  );

  const hasFiles = (event: DragEvent) => Array.from(event.dataTransfer.types).includes("Files");

  return (
    <div
      className={cn("relative flex flex-1 flex-col", className)}
      data-testid="bundle-drop-zone"
      onDragOver={(event) => {
        if (!hasFiles(event)) return;
        event.preventDefault();
        setDragging(true);
      }}
      onDragLeave={(event) => {
        if (event.currentTarget.contains(event.relatedTarget instanceof Node ? event.relatedTarget : null)) return;
        setDragging(false);
      }}
      onDrop={(event) => {
        if (!hasFiles(event)) return;
        event.preventDefault();
        setDragging(false);
        const file = event.dataTransfer.files[0];
        if (file) void importFile(file);
      }}
    >
      {children}
      <div className="mx-auto w-full max-w-7xl px-4 pb-6">
        <section aria-labelledby="import-bundle-heading" className="flex flex-wrap items-center gap-3 rounded-lg border border-dashed border-slate-300 bg-white px-4 py-3 text-sm text-slate-700">
          <h2 id="import-bundle-heading" className="font-semibold text-slate-900">
            Open a shared run
          </h2>
          <span className="text-slate-600">Drop a bundle (<code className="font-mono text-xs">.reflexion.json.gz</code>) anywhere on this page, or</span>
          <Button size="sm" onClick={() => input.current?.click()} disabled={state.kind === "uploading"} data-testid="import-bundle-button">
            Import a bundle…
          </Button>
          <input
            ref={input}
            type="file"
            accept=".gz,application/gzip"
            className="sr-only"
            aria-label="Bundle file to import"
            data-testid="import-bundle-input"
            onChange={(event) => {
              const file = event.target.files?.[0];
              event.target.value = "";
              if (file) void importFile(file);
            }}
          />
        </section>
      </div>
      {state.kind !== "idle" ? (
        <div className="fixed inset-x-0 top-4 z-40 flex justify-center px-4" data-testid="bundle-import-toast">
          <div className="flex w-full max-w-xl items-start gap-3 rounded-lg bg-white shadow-lg">
            {state.kind === "uploading" ? (
              <Notice className="flex-1" title={<span className="inline-flex items-center gap-2"><Spinner /> Checking and importing {state.name}…</span>} />
            ) : null}
            {state.kind === "error" ? (
              <Notice tone="error" title="The bundle was not imported" className="flex-1" data-testid="bundle-import-error">
                <p>
                  {state.name}: {state.message}
                </p>
              </Notice>
            ) : null}
            {state.kind === "opened" ? (
              <div role="alert" className="flex-1 rounded-md border border-green-300 bg-green-50 px-3 py-2 text-sm text-green-900" data-testid="bundle-import-success">
                <p className="font-medium">Bundle imported</p>
                <p className="mt-0.5">
                  {state.name} is open read-only —{" "}
                  <Link href={state.href} className="underline">
                    go to its runs
                  </Link>
                  .
                </p>
                {state.notes.length > 0 ? (
                  <ul className="mt-1 list-disc pl-5 text-xs" data-testid="bundle-import-notes">
                    {state.notes.map((note) => (
                      <li key={note}>{note}</li>
                    ))}
                  </ul>
                ) : null}
              </div>
            ) : null}
            {state.kind !== "uploading" ? (
              <Button size="sm" variant="ghost" className="mt-1 mr-1" aria-label="Dismiss" onClick={() => setState({ kind: "idle" })} data-testid="bundle-import-dismiss">
                ×
              </Button>
            ) : null}
          </div>
        </div>
      ) : null}
      {dragging ? (
        <div className="pointer-events-none fixed inset-0 z-50 flex items-center justify-center bg-slate-900/30" data-testid="bundle-drop-overlay">
          <p className="rounded-lg border-2 border-dashed border-white bg-slate-900/80 px-8 py-6 text-base font-medium text-white">Drop the bundle to open its runs (read-only)</p>
        </div>
      ) : null}
    </div>
  );
}
