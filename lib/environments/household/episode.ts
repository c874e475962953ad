import type { ActionParse, Episode, StepResult } from "@/lib/domain/environment";
import { parseHouseholdCommand } from "./commands";
import { NOTHING_HAPPENS, initialObservation } from "./feedback";
import { isGoalMet } from "./goals";
import type { HouseholdTask } from "./task";
import { HouseholdWorld, type AgentSnapshot } from "./world";

/**
 * One household episode: a fresh world built from the task's scene, driven one
 * command at a time. Deterministic: replaying the same actions gives the same
 * observations, which is how the engine rebuilds an episode.
 */

/** One executed step of an episode. */
export interface HouseholdStepRecord {
  /** The action as the Actor wrote it (cleaned line). */
  action: string;
  observation: string;
  /** True when this step was taken after the goal was met (the world was frozen). */
  afterWin: boolean;
}

/** The live state of one household episode. Create with {@link startHouseholdEpisode}. */
export class HouseholdEpisode implements Episode {
  readonly task: HouseholdTask;
  readonly world: HouseholdWorld;
  private readonly steps: HouseholdStepRecord[] = [];
  private wonFlag = false;
  private lastObservation: string;

  constructor(task: HouseholdTask) {
    this.task = task;
    this.world = HouseholdWorld.fromScene(task.scene);
    this.lastObservation = this.initialObservation();
  }

  /** The opening text: the room's receptacles and the task line. */
  initialObservation(): string {
    return initialObservation(
      this.task.scene.receptacles.map((receptacle) => receptacle.name),
      this.task.description,
    );
  }

  /** True once the goal has been met (ALFWorld `won`). */
  get won(): boolean {
    return this.wonFlag;
  }

  /** Every step so far, in order. */
  get history(): readonly HouseholdStepRecord[] {
    return this.steps;
  }

  /** Where the agent is and what it holds. */
  snapshot(): AgentSnapshot {
    return this.world.snapshot();
  }

  /**
   * Executes one parsed action.
   *
   * - Invalid action (`ok: false`) → "Nothing happens." (TextWorld's reply to any
   *   command that is not admissible), not done.
   * - A command → the world's reply (world.ts); `think: …` → "OK.".
   * - `done` is true exactly when the goal is met after this step (then `evaluate`
   *   passes); `answer` is always null.
   * - After the goal is met the world is frozen: every further action changes
   *   nothing and gets the winning step's observation again, as TextWorld's batch
   *   environment returns a finished game's last state (`textworld/envs/batch/
   *   batch_env.py`; react_examine_* show it: the `put` after the lamp is switched
   *   on answers "You turn on the desklamp 1.").
   * - `state` is `{ location, inventory }` for the UI.
   *
   * Never throws.
   */
  step(action: ActionParse): StepResult {
    if (this.wonFlag) {
      this.steps.push({ action: action.text, observation: this.lastObservation, afterWin: true });
      return this.result(this.lastObservation);
    }
    const parsed = action.ok ? parseHouseholdCommand(action.text) : null;
    const observation = parsed?.ok ? this.world.apply(parsed.command) : NOTHING_HAPPENS;
    this.wonFlag = isGoalMet(this.task, this.world);
    this.lastObservation = observation;
    this.steps.push({ action: action.text, observation, afterWin: false });
    return this.result(observation);
  }

  private result(observation: string): StepResult {
    const { location, inventory } = this.world.snapshot();
    return { observation, done: this.wonFlag, answer: null, state: { location, inventory } };
  }
}

/** A fresh episode of `task` for one trial. */
export function startHouseholdEpisode(task: HouseholdTask): HouseholdEpisode {
  return new HouseholdEpisode(task);
}
