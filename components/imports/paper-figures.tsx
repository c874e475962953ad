import Link from "next/link";
import type { ImportableFile } from "@/lib/domain/paper-import";
import { overlayHref } from "@/lib/query/overlay-series";

/**
 * The paper's comparisons, each as the logs it overlays (by the end of their
 * path under the data root): HotpotQA ReAct vs ReAct + Reflexion and the CoT
 * arms (Fig. 4), ALFWorld Reflexion vs ReAct only over 15 / 7 trials (Fig. 3),
 * the Rust ablation's four bars (Table 4 / §4.5).
 */
export const PAPER_FIGURES: ReadonlyArray<{ title: string; paths: readonly string[] }> = [
  { title: "HotpotQA: ReAct only vs ReAct + Reflexion", paths: ["hotpotqa_runs/root/ReAct/base/100_questions_5_trials.txt", "hotpotqa_runs/root/ReAct/reflexion/100_questions_5_trials.txt"] },
  {
    title: "HotpotQA: CoT only vs CoT + Reflexion (closed book) and CoT (GT) + Reflexion",
    paths: [
      "hotpotqa_runs/root/CoT/no_context/base/100_questions_5_trials.txt",
      "hotpotqa_runs/root/CoT/no_context/reflexion/100_questions_5_trials.txt",
      "hotpotqa_runs/root/CoT/context/reflexion/100_questions_5_trials.txt",
    ],
  },
  { title: "HotpotQA: CoT (GT) + EPM vs + EPM + Reflexion (the episodic-memory ablation)", paths: ["hotpotqa_runs/root/CoT/context/last_trial/100_questions_8_trials.txt", "hotpotqa_runs/root/CoT/context/last_trial_and_reflexion/100_questions_5_trials.txt"] },
  { title: "ALFWorld: ReAct only vs ReAct + Reflexion", paths: ["alfworld_runs/root/base_run_logs", "alfworld_runs/root/reflexion_run_logs"] },
  {
    title: "HumanEval-Rs hard 50: the ablation (full, no test generation, no self-reflection, base)",
    paths: [
      "programming_runs/root/reflexion_humaneval_rs_hard50",
      "programming_runs/root/immediate_reflexion_humaneval_rs_hardest50",
      "programming_runs/root/immediate_refinement_humaneval_rs_hardest50",
      "programming_runs/root/simple_humaneval_rs_hard50",
    ],
  },
  { title: "MBPP-Py: simple vs Reflexion", paths: ["programming_runs/root/simple_mbpp_py", "programming_runs/root/reflexion_mbpp_py"] },
];

/** The list's file a figure's path names: the one whose path ends with it (a file) or lies under it (a folder's one log). */
function fileFor(files: readonly ImportableFile[], suffix: string): ImportableFile | undefined {
  return files.find((file) => file.path.endsWith(suffix) || file.path.includes(`${suffix}/`));
}

/**
 * Links to the overlay of each of the paper's comparisons whose logs are
 * all imported; the others say how many of their logs are still to import.
 */
export function PaperFigures({ files }: { files: readonly ImportableFile[] }) {
  const figures = PAPER_FIGURES.map((figure) => {
    const members = figure.paths.map((suffix) => fileFor(files, suffix));
    const ids = members.map((file) => file?.importedExperimentId ?? null);
    return { ...figure, found: members.every((file) => file !== undefined), ids, missing: ids.filter((id) => id === null).length };
  }).filter((figure) => figure.found);
  if (figures.length === 0) return null;
  return (
    <section aria-labelledby="paper-figures-heading" className="rounded-lg border border-slate-200 bg-white px-4 py-3" data-testid="paper-figures">
      <h2 id="paper-figures-heading" className="text-sm font-semibold text-slate-900">
        The paper&apos;s comparisons, rebuilt from the logs
      </h2>
      <ul className="mt-1.5 space-y-1 text-sm">
        {figures.map((figure) => (
          <li key={figure.title} data-testid="paper-figure" data-ready={figure.missing === 0}>
            {figure.missing === 0 ? (
              <Link href={overlayHref(figure.ids.filter((id): id is string => id !== null))} className="font-medium text-sky-800 hover:underline">
                {figure.title} →
              </Link>
            ) : (
              <span className="text-slate-600">
                {figure.title} <span className="text-xs text-slate-500">(import {figure.missing} more {figure.missing === 1 ? "log" : "logs"} below)</span>
              </span>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
