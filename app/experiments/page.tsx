import type { Metadata } from "next";
import { ExperimentList } from "@/components/experiments";

export const metadata: Metadata = { title: "Experiments" };

/** Every experiment (task set × arms × trials), newest first; fetched client-side through lib/query. */
export default function ExperimentsPage() {
  return <ExperimentList />;
}
