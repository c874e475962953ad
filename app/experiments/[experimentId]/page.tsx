import type { Metadata } from "next";
import { ExperimentResults } from "@/components/experiments";
import { ensureExperiment } from "@/lib/server/page-lookup";

export const metadata: Metadata = { title: "Experiment" };

/** An experiment's results, live while it runs: progress, success-by-trial curves, per-arm table, task × arm grid. */
export default async function ExperimentPage({ params }: { params: Promise<{ experimentId: string }> }) {
  const { experimentId } = await params;
  await ensureExperiment(experimentId);
  return <ExperimentResults experimentId={experimentId} />;
}
