import { DEMO_INSIGHT_KINDS, insightLinesOf, type DemoInsightKind } from "@/lib/domain/insights-demo";
import { seededInsightHelps } from "@/lib/domain/demo-variation";

/**
 * Which kind of general insight (lib/domain/insights-demo.ts) would help the demo Actor on each
 * built-in QA task, keyed by task id: the kind of mistake its naive path makes (builtin-demo-scripts.ts).
 * `bridge`: it answers with the bridge entity or a fact about it; `titles`: it searches descriptions
 * and loops; `verify`: it trusts a name or a look-alike title.
 */
export const QA_TASK_INSIGHT_KINDS: Readonly<Record<string, DemoInsightKind["id"]>> = {
  "qa-builtin-01": "bridge",
  "qa-builtin-02": "titles",
  "qa-builtin-03": "bridge",
  "qa-builtin-04": "verify",
  "qa-builtin-05": "bridge",
  "qa-builtin-06": "verify",
  "qa-builtin-07": "titles",
  "qa-builtin-08": "bridge",
  "qa-builtin-09": "bridge",
  "qa-builtin-10": "titles",
  "qa-builtin-11": "bridge",
  "qa-builtin-12": "bridge",
};

/**
 * True when the memory block carries an insight of the task's kind (ExpeL, lib/domain/insights.ts)
 * and the seeded draw ({@link seededInsightHelps}) says the Actor acts on it. False whenever no
 * insight is carried in, so every run without one behaves exactly as before.
 * @param key the draw's key besides the seed: the question and the memory block.
 */
export function insightHelps(taskId: string, memoryBlock: string, seed: number | undefined, key: string): boolean {
  const kindId = QA_TASK_INSIGHT_KINDS[taskId];
  const kind = DEMO_INSIGHT_KINDS.find((candidate) => candidate.id === kindId);
  if (!kind) return false;
  const lines = insightLinesOf(memoryBlock);
  if (!lines.some((line) => kind.inInsight.test(line))) return false;
  return seededInsightHelps(seed, key);
}
