import type { EnvironmentId, Strategy } from "@/lib/domain/config";
import type { PaperLogCurveRules } from "@/lib/domain/paper-curves";
import type { StressRunScript } from "./stress-run-script";

/**
 * What the app knows about a task family that is pure data: names, the metric and how honest it
 * is, what the Evaluator reports, which files the family imports, and the family's wording of
 * strategies and form texts. Every client (components, lib/graph, lib/query, lib/otel, importers,
 * the CLI) reads it through lib/environments/descriptors.ts; the server registry
 * (lib/environments/registry.ts) adds the family's world, Evaluator and loaders to it.
 *
 * A descriptor imports types and, besides them, only its family's client modules
 * (lib/environments/<family>/client/: pure, no Node, no React); none of its family's server parts
 * (tests/environments/descriptors.test.ts walks the import graph). See docs/adding-a-family.md.
 */
export interface FamilyDescriptor {
  /** The family's id, as stored in run configs and task sets. */
  id: EnvironmentId;
  /** Shown in pickers (the task-family select, the CLI's family list). */
  label: string;
  /** The name alone, without the benchmark it follows (badges, template names): "Multi-hop QA". */
  shortLabel: string;
  /** The shorter full name used in headings and tables. */
  heading: string;
  /** Position in lists of families (template library, imported paper logs), lowest first. */
  order: number;
  /** What a solved task means, as the paper reports it. */
  metric: {
    /** Column and axis name, e.g. "EM", "pass@1". */
    name: string;
    /** The Evaluator behind the metric in one sentence, honest about oracles. */
    explanation: string;
    /**
     * The metric reads the gold answer (HotpotQA's exact match): an oracle signal, not
     * self-evaluation, so the UI labels it "oracle signal" (paper §4.2).
     */
    oracle: boolean;
    /** Token F1 (hotpot_evaluate_v1) is reported next to the metric for the family's answers. */
    reportsF1: boolean;
  };
  /**
   * How the inspector shows a trial's evaluation: `answer-match` (the answer beside the gold
   * answer, EM and F1: lib/graph/qa-scores.ts), `tests` (internal and hidden test results:
   * lib/graph/code-views.ts), `goal` (the world's success check), `judge` (the rubric's scores).
   */
  evaluationView: "answer-match" | "tests" | "goal" | "judge";
  /** A trial can stop at the step limit or in a loop (a halt), and result tables count halts. */
  reportsHalts: boolean;
  /**
   * The Evaluator also reports hidden tests besides the internal tests the agent sees, so a false
   * positive (internal pass, hidden fail) is measurable (paper §4.3).
   */
  hiddenTests: boolean;
  /** How a step reads (the graph's nodes, the inspector, the steering panel). */
  step: {
    /**
     * `bracket`: ReAct's `Verb[argument]` (`Search[Alan Turing]`); `command`: the command as the
     * world reads it (`go to desk 1`, `think: …`: ALFWorld, reference §3.3).
     */
    actionSyntax: "bracket" | "command";
    /** Reasoning is an action (`think: …`) the world answers, drawn as the step's thought. */
    thinkIsAction: boolean;
    /** Every step has a thought (`Thought n:`), so an empty one is shown: the model skipped it. */
    alwaysShowsThought: boolean;
    /** An action is a whole program (or the internal tests), shown and edited as code. */
    actionIsCode: boolean;
    /** An example action for the steering panel's placeholder. */
    example: string;
    /** The OpenTelemetry tool name of an action: `<toolPrefix>.<verb>`, or the bare verb when null. */
    toolPrefix: string | null;
    /** The tool span's description; null: "<family> environment action". */
    toolDescription: string | null;
  };
  /** The standard dataset formats this family imports, for help texts. */
  importFormats: string;
  /** The upload control of the new-run form. */
  upload: {
    /** The button's text. */
    buttonLabel: string;
    /** The file input's `accept` attribute. */
    accept: string;
  };
  /** Names this family gives some strategies instead of the shared ones (components/ui/strategy-labels.ts). */
  strategyLabels: Partial<Record<Strategy, string>>;
  /** This family's one-sentence strategy hints where they differ from the shared ones. */
  strategyHints: Partial<Record<Strategy, string>>;
  /** The benchmark behind the paper's logs of this family, as the paper names it. */
  paperLogName: string;
  /** Why an imported run of the paper's logs of this family cannot be forked; null: it can be. */
  paperLogNotForkable: string | null;
  /**
   * What the curves of this family's imported paper logs must say about themselves
   * (docs/decisions/0031): trials the logs do not record, and the points the paper reports.
   * Read through lib/domain/paper-curves.ts `paperCurveNotes`.
   */
  paperLogCurves: PaperLogCurveRules;
  /**
   * How a synthetic run of this family reads (lib/environments/<family>/client/stress-run.ts), for
   * the stress page (`/stress`), the graph bench and tests (lib/graph/stress-run.ts); null: the
   * generator does not imitate this family.
   */
  stressRun: StressRunScript | null;
  /**
   * The family's runs are only ever imported (an outside agent's traces): no task loader, no world
   * to run or fork in, so it is left out of the new-run form, the CLI's run options and the
   * conformance suite.
   */
  runsImportedOnly: boolean;
  /** Where the family's built-in prompts come from (the template library's "source"). */
  templateSource: string;
  /** Texts of the new-run form. */
  texts: {
    /** What a run of the family does, above the form. */
    runIntro: string;
    /** The label of the "show what the Evaluator checks" disclosure. */
    referenceLabel: string;
    /** Where the run header shows the task's setting: its summary's title. */
    settingTitle: string;
    /** What a trial does under a strategy that writes no reflection and carries no trajectory (completes "…: no reflections are written, so …"). */
    noMemoryTrials: string;
    /** What the demo model does on tasks it has no script for (completes "The demo model has scripts only for the built-in tasks; …"). */
    demoOnImported: string;
  };
}
