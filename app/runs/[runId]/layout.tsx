import type { ReactNode } from "react";
import { ensureRun } from "@/lib/server/page-lookup";

/**
 * Answers HTTP 404 for an unknown run id. The check sits in the layout, above `loading.tsx`'s
 * Suspense boundary: thrown from the page it would come after the 200 shell had streamed.
 */
export default async function RunLayout({ children, params }: { children: ReactNode; params: Promise<{ runId: string }> }) {
  const { runId } = await params;
  await ensureRun(runId);
  return children;
}
