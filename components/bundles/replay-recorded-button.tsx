"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { z } from "zod";
import { Button } from "@/components/ui/button";
import { fetchJson } from "@/lib/query/fetch-json";

const forkedSchema = z.object({ branchId: z.string() });

/**
 * "Replay recorded (0 model calls)" for a run that came in a bundle: forks the run at its
 * first event with `replay: "recorded"`, so every call is served from the response cache that came
 * in the bundle (no key needed), and opens the new branch. Its own component so that the rest of
 * the run header renders without an App Router (static render tests).
 */
export function ReplayRecordedButton({ runId }: { runId: string }) {
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const replay = async () => {
    setBusy(true);
    setError(null);
    try {
      const { branchId } = await fetchJson(`/api/runs/${runId}/fork`, forkedSchema, { method: "POST", body: { atSeq: 1, replay: "recorded" } });
      router.push(`/runs/${runId}?branch=${encodeURIComponent(branchId)}`);
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : String(caught));
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Button size="sm" variant="primary" onClick={() => void replay()} disabled={busy} data-testid="replay-recorded" title="Replays the run on a new branch from the response cache that came in the bundle: zero model calls, no key needed">
        {busy ? "Starting replay…" : "Replay recorded (0 model calls)"}
      </Button>
      {error ? (
        <p role="alert" className="max-w-sm text-right text-[11px] text-red-700" data-testid="replay-recorded-error">
          {error}
        </p>
      ) : null}
    </>
  );
}
