"use client";

import { useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import type { EnvironmentId, Strategy } from "@/lib/domain/config";
import type { ExperimentRecord } from "@/lib/domain/experiment";
import { experimentQuery } from "./experiment-queries";

/**
 * "Run these tasks yourself": the new-experiment form prefilled
 * from an experiment — usually one imported from the authors' logs — with the
 * same environment, task set and task ids, one arm per arm of theirs (same
 * strategy, the person's default model), so the new curve can be drawn beside
 * the authors' on the overlay.
 */

/** The form's URL parameter naming the experiment to copy. */
export const FROM_PARAM = "from";

/** The new-experiment form prefilled from experiment `experimentId`. */
export function runTheseTasksHref(experimentId: string): string {
  return `/experiments/new?${FROM_PARAM}=${encodeURIComponent(experimentId)}`;
}

/** What the form starts with when prefilled. */
export interface ExperimentPrefill {
  sourceId: string;
  sourceName: string;
  name: string;
  environment: EnvironmentId;
  taskSet: string;
  taskIds: string[];
  arms: Array<{ label: string; strategy: Strategy }>;
  maxTrials: number;
}

/** Labels fit the arm schema's 60 characters. */
const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** The prefill of an experiment: its family, task set, task ids and trial budget; its arms' strategies under "You: <label>"; named "Yours: <arms> on the same N tasks". Pure. */
export function prefillFromExperiment(record: Pick<ExperimentRecord, "id" | "definition">): ExperimentPrefill {
  const definition = record.definition;
  return {
    sourceId: record.id,
    sourceName: definition.name,
    name: clip(`Yours: ${definition.arms.map((arm) => arm.label).join(" vs ")} on the same ${definition.taskIds.length} tasks`, 120),
    environment: definition.environment,
    taskSet: definition.taskSet,
    taskIds: [...definition.taskIds],
    arms: definition.arms.map((arm) => ({ label: clip(`You: ${arm.label}`, 60), strategy: arm.strategy })),
    maxTrials: Math.max(...definition.arms.map((arm) => arm.maxTrials ?? definition.maxTrials), 1),
  };
}

/**
 * The prefill named by the page's `?from=` (read in the browser after mount,
 * so the form needs no router context), once that experiment has loaded; null
 * without one. `error` when it could not be loaded.
 */
export function useExperimentPrefill(): { prefill: ExperimentPrefill | null; error: Error | null } {
  const [fromId, setFromId] = useState<string | null>(null);
  useEffect(() => {
    const id = new URLSearchParams(window.location.search).get(FROM_PARAM);
    // eslint-disable-next-line react-hooks/set-state-in-effect -- the URL is only readable after mount (the page is prerendered)
    if (id) setFromId(id);
  }, []);
  const source = useQuery({ ...experimentQuery(fromId ?? ""), enabled: fromId !== null, refetchInterval: false });
  return { prefill: source.data ? prefillFromExperiment(source.data.experiment) : null, error: source.error };
}
