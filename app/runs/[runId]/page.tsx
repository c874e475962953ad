import type { Metadata } from "next";
import { RunWorkspace } from "@/components/run";

export const metadata: Metadata = { title: "Run" };

/** A run: its live graph, inspector and memory. Everything is fetched client-side through lib/query. */
export default async function RunPage({ params }: { params: Promise<{ runId: string }> }) {
  const { runId } = await params;
  return <RunWorkspace runId={runId} />;
}
