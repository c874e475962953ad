"use client";

import { useEffect, useState } from "react";
import { cn } from "@/lib/utils/cn";
import { JoinQr } from "./join-qr";

/**
 * How students join, for the projector: the join code in big letters, the QR code of the
 * absolute student URL and the URL in words, with the count of students who joined. The URL's
 * origin is the server's first student origin (class LAN mode: the laptop's LAN address — the
 * teacher's own page is on loopback, which no phone can open), else this page's origin, read after
 * mount (the server render shows the code only).
 */
export function JoinPanel({ code, joinPath, studentOrigins, students, large, ended }: { code: string; joinPath: string; studentOrigins: readonly string[]; students: number; large: boolean; ended: boolean }) {
  const [origin, setOrigin] = useState<string | null>(null);
  useEffect(() => {
    // The page's own origin is only known in the browser.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    setOrigin(window.location.origin);
  }, []);
  const base = studentOrigins[0] ?? origin;
  const url = base ? `${base}${joinPath}` : null;
  return (
    <section aria-label="Join this class" className="flex flex-col items-center gap-2 rounded-lg border border-slate-200 bg-white p-4 text-center" data-testid="class-join-panel">
      <p className={cn("text-slate-700", large ? "text-xl" : "text-base")}>{ended ? "The code no longer lets anyone join" : "Join on your phone with the code"}</p>
      <p className={cn("font-mono font-bold tracking-[0.2em] text-slate-900", large ? "text-6xl" : "text-5xl")} data-testid="class-code">
        {code}
      </p>
      {url && !ended ? (
        <>
          <JoinQr url={url} className={cn("aspect-square w-full", large ? "max-w-72" : "max-w-56")} />
          <p className={cn("break-all font-mono text-slate-700", large ? "text-lg" : "text-base")} data-testid="class-join-url">
            {url}
          </p>
        </>
      ) : null}
      <p className={cn("font-semibold text-slate-900", large ? "text-2xl" : "text-lg")} data-testid="class-student-count" data-count={students} aria-live="polite">
        {students} {students === 1 ? "student" : "students"} joined
      </p>
    </section>
  );
}
