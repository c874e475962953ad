/**
 * What the app knows about a method (a strategy: ReAct only, Reflexion, its ablations, the CoT
 * Actors) as pure data: its names, when it calls the Self-Reflection model, what the next trial's
 * Actor prompt carries from earlier trials, how a trial is shaped and how its run is drawn.
 *
 * The engine (lib/engine), the server's run-config factory, the forms and the graph read these
 * rows through lib/domain/strategies.ts (`strategyBehaviour`) and lib/methods/registry.ts; nobody
 * compares a strategy's name (ESLint forbids it outside lib/methods and the family folders). A
 * descriptor imports types only, so client code may read it. See docs/adding-a-method.md.
 *
 * @typeParam Id the strategy id as stored in run configs (`RunConfig.strategy`).
 */
export interface MethodDescriptor<Id extends string = string> {
  /** The id stored in run configs, experiments and lessons; never renamed (stored runs read it). */
  id: Id;
  /** The display name (the paper's name in brackets where it differs): "Last attempt (EPM)". */
  label: string;
  /** One sentence: what the next trial's prompt carries. Shown under the strategy pickers. */
  hint: string;
  /** Where the method comes from: paper and section, or the reference code's name. */
  source: string;
  /**
   * When the Self-Reflection model is called: `after-failure` (a failed or halted trial is followed
   * by a reflection, paper §3) or `never`.
   */
  reflects: "after-failure" | "never";
  /** What the Actor prompt of trial n > 1 carries from earlier trials. */
  remembers: {
    /** Reflections from the episodic memory, after the memory window Ω. */
    reflections: boolean;
    /** Trial n − 1's whole trajectory (the paper's EPM, reference §1.1 `LAST_ATTEMPT`). */
    lastAttempt: boolean;
    /**
     * A memory window Ω the method fixes, overriding the run's (`last-attempt-and-reflexion`: 1,
     * only the newest reflection); null: the run's Ω.
     */
    fixedMemoryWindow: number | null;
    /**
     * ExpeL's insights (Zhao et al. 2024, §4.3): before trial 1 the run reads the insights of its
     * `insights` store once, records them (`insights-carried-in`) and the Actor prompt carries them
     * from trial 1 on, outside Ω (lib/engine/insights-carry.ts). Absent: false.
     */
    insights?: boolean;
  };
  /** How one trial is shaped. */
  trial: {
    /**
     * Actor steps per trial the method fixes, overriding the request's and the family's default
     * (CoT: 1, a Thought then `Finish`); null: the run's limit.
     */
    stepsPerTrial: number | null;
    /** The Actor may call the family's tools (Search, Lookup, …); false: closed-book reasoning only. */
    usesTools: boolean;
    /**
     * `chain`: a trial is one chain of Actor steps (ReAct, CoT). `tree-search`: each trial is one
     * iteration of a Monte-Carlo tree search over Actor steps (LATS): it selects a path of the
     * search tree, samples children there, values them with the value model, follows the best and
     * rolls out to a verdict (lib/engine/tree-phase.ts, docs/decisions/0036-lats-as-trials.md).
     */
    shape: "chain" | "tree-search";
    /**
     * Self-Refine (Madaan et al. 2023, §2, Algorithm 1): once the Actor has finished with an answer,
     * the same model gives feedback on it and rewrites it, up to `maxRounds` feedback → refine
     * rounds (a run's `refineRounds` overrides it), stopping early when the feedback says there is
     * nothing left to fix (the stop phrase, `REFINE_STOP_PHRASE` in lib/domain/self-refine.ts); the
     * Evaluator then judges the last refined answer. Only an answer is refined: a trial that ends
     * without one (halted, or a household trial, judged by the world's state) goes straight to the
     * Evaluator. Null: the Evaluator judges the Actor's answer as it is.
     */
    refine: { maxRounds: number } | null;
  };
  /**
   * Which task families run the method: `all` (every family; a method that remembers the last
   * attempt runs where the family can render it, `renderLastAttempt`), or `listed` (only families
   * that name it in their `ownStrategies`: the CoT Actors need QA's closed-book templates).
   */
  families: "all" | "listed";
  /**
   * How the run graph draws the method: `lanes` (one lane per trial, left to right: trajectory,
   * verdict, reflection, memory into the next trial); `tree` (the search tree, with the lanes of
   * each iteration's trajectory beside it).
   */
  graph: "lanes" | "tree";
}
