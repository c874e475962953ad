"use client";

import Link from "next/link";
import { useParams } from "next/navigation";
import { EmptyState } from "@/components/ui/notice";

/** `/experiments/<unknown id>` (HTTP 404). */
export default function ExperimentNotFound() {
  const { experimentId } = useParams<{ experimentId?: string }>();
  return (
    <EmptyState
      title="Experiment not found"
      action={
        <Link href="/experiments" className="text-sm font-medium text-sky-700 underline">
          All experiments
        </Link>
      }
    >
      No experiment <code className="font-mono">{experimentId ?? ""}</code>. It may have been made with another database (REFLEXION_DB_PATH); <code className="font-mono">npm run cli -- experiment list</code> shows this one&apos;s.
    </EmptyState>
  );
}
