"use client";

import { useState } from "react";
import { z } from "zod";
import { Button } from "@/components/ui/button";
import { Popover } from "@/components/ui/popover";
import { fetchJson } from "@/lib/query/fetch-json";
import { parseRunUrlState } from "@/lib/query/url-state";
import { ReplayRecordedButton } from "./replay-recorded-button";
import { StripNamesToggle, withNames } from "./strip-names-toggle";

const sentSchema = z.object({ endpoint: z.string(), spans: z.number(), requests: z.number() });

type Message = { tone: "ok" | "error"; text: string } | null;

/** `/lessons/new?run=<id>[&cursor=<events shown>][&branch=]`: the authoring page, at the run page's replay cursor (read from its URL). */
function authorLessonHref(runId: string, search: string): string {
  const { cursor, branch } = parseRunUrlState(search);
  return `/lessons/new?run=${encodeURIComponent(runId)}${cursor !== null ? `&cursor=${cursor}` : ""}${branch ? `&branch=${encodeURIComponent(branch)}` : ""}`;
}

const LINK = "inline-flex h-7 items-center rounded-md border border-slate-300 bg-white px-2.5 text-xs font-medium text-slate-800 hover:bg-slate-50";

/**
 * "Share" in the run header: download the run as a bundle (all branches, replayable
 * elsewhere with no key), download its traces as OTLP JSON lines, send them to the server's OTLP
 * endpoint (Phoenix, Langfuse; set on the server), author a lesson over it, and — for a run that came in a bundle — replay it
 * recorded from the imported response cache (zero model calls) on a new branch.
 */
export function ShareRunMenu({ runId, bundled }: { runId: string; bundled: boolean }) {
  const [busy, setBusy] = useState<"send" | null>(null);
  const [message, setMessage] = useState<Message>(null);
  const [open, setOpen] = useState(false);
  const [stripNames, setStripNames] = useState(false);

  const send = async () => {
    setBusy("send");
    setMessage(null);
    try {
      const sent = await fetchJson(withNames(`/api/runs/${runId}/otlp`, stripNames), sentSchema, { method: "POST", body: {} });
      setMessage({ tone: "ok", text: `Sent ${sent.spans} spans to ${sent.endpoint}.` });
    } catch (error) {
      setMessage({ tone: "error", text: error instanceof Error ? error.message : String(error) });
    } finally {
      setBusy(null);
    }
  };

  return (
    <div className="flex flex-col items-end gap-1" data-testid="share-run">
      <div className="flex flex-wrap items-center justify-end gap-1.5">
        {bundled ? <ReplayRecordedButton runId={runId} /> : null}
        <Popover
          open={open}
          onClose={() => setOpen(false)}
          className="w-72 space-y-2"
          data-testid="share-panel"
          trigger={
            <Button size="sm" onClick={() => setOpen((value) => !value)} aria-expanded={open} data-testid="share-menu">
              Share ▾
            </Button>
          }
        >
          <StripNamesToggle checked={stripNames} onChange={setStripNames} />
          <div>
            <a href={withNames(`/api/runs/${runId}/bundle`, stripNames)} download className={LINK} data-testid="export-bundle">
              Export bundle
            </a>
            <p className="mt-1 text-[11px] text-slate-600">One file with every branch, the cached model responses and the task — no keys. Imported elsewhere, it replays with zero model calls.</p>
          </div>
          <div>
            <a href={withNames(`/api/runs/${runId}/otlp.jsonl`, stripNames)} download className={LINK} data-testid="export-otlp-jsonl">
              OTLP file
            </a>
            <p className="mt-1 text-[11px] text-slate-600">The traces as OTLP JSON lines (OpenInference + gen_ai attributes), for an OTel Collector.</p>
          </div>
          <div>
            <a
              href={authorLessonHref(runId, "")}
              // The replay cursor is read from the page's URL when the link is followed (it moves after render).
              onClick={(event) => {
                event.currentTarget.href = authorLessonHref(runId, window.location.search);
              }}
              className={LINK}
              data-testid="author-lesson"
            >
              Author a lesson
            </a>
            <p className="mt-1 text-[11px] text-slate-600">Write a lesson over this run, starting at the replay cursor: steps, narration, predictions answered by the log.</p>
          </div>
          <div>
            <Button size="sm" onClick={() => void send()} disabled={busy !== null} data-testid="send-otlp">
              {busy === "send" ? "Sending…" : "Send to OTLP endpoint"}
            </Button>
            <p className="mt-1 text-[11px] text-slate-600">To Phoenix or Langfuse, as set on the server (Settings → OpenTelemetry export).</p>
          </div>
          {message ? (
            <p role={message.tone === "error" ? "alert" : "status"} className={message.tone === "error" ? "text-[11px] text-red-700" : "text-[11px] text-green-800"} data-testid="share-message">
              {message.text}
            </p>
          ) : null}
        </Popover>
      </div>
      {message?.tone === "error" && !open ? (
        <p role="alert" className="max-w-sm text-right text-[11px] text-red-700">
          {message.text}
        </p>
      ) : null}
    </div>
  );
}
