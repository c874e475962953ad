import type { Metadata } from "next";
import { NewExperimentForm } from "@/components/experiments";

export const metadata: Metadata = { title: "New experiment" };

/** Define an experiment (family, task set, tasks, arms, trials, concurrency) and start it. */
export default function NewExperimentPage() {
  return <NewExperimentForm />;
}
