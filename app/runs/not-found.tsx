"use client";

import Link from "next/link";
import { useParams } from "next/navigation";
import { EmptyState } from "@/components/ui/notice";

/** `/runs/<unknown id>` (HTTP 404): the run workspace's own message. */
export default function RunNotFound() {
  const { runId } = useParams<{ runId?: string }>();
  return (
    <EmptyState
      title="Run not found"
      action={
        <Link href="/" className="text-sm font-medium text-sky-700 underline">
          Back to all runs
        </Link>
      }
    >
      There is no run with id <code className="font-mono">{runId ?? ""}</code>. It may have been created against another database.
    </EmptyState>
  );
}
