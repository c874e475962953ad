import type { Metadata } from "next";
import { AdminOnly } from "@/components/auth/admin-only";
import { DeadLettersPanel } from "@/components/jobs/dead-letters-panel";
import { RateLimitsPanel } from "@/components/jobs/rate-limits-panel";

export const metadata: Metadata = { title: "Jobs" };

/**
 * `/jobs`: the job queue of shared mode — counts and dead letters with Retry / Discard —
 * and the provider rate limits the workers share (read-only); fetched client-side.
 */
export default function JobsPage() {
  return (
    <main className="mx-auto w-full max-w-5xl flex-1 space-y-4 px-4 py-6" data-testid="jobs-page">
      <header className="space-y-1">
        <h1 className="text-lg font-semibold text-slate-900">Jobs</h1>
        <p className="max-w-3xl text-xs leading-relaxed text-slate-600">
          In shared mode every branch to drive is a job in PostgreSQL, fetched by workers on any machine; interactive runs go before
          experiment runs. A job whose attempts all fail is kept here as a dead letter; its run keeps everything it recorded — retry it (the run resumes from its log) or discard it.
        </p>
      </header>
      <AdminOnly what="Dead letters">
        <DeadLettersPanel />
      </AdminOnly>
      <RateLimitsPanel />
    </main>
  );
}
