import type { Strategy } from "@/lib/domain/config";
import type { Episode, EnvironmentFamily } from "@/lib/domain/environment";
import type { RunState, TrialView } from "@/lib/domain/fold-run";
import { trajectoryOf } from "./prompts";

/**
 * The episode of the trial being played, kept between two steps of one drive,
 * so a step of a deterministic family (QA, household) applies only the actions
 * recorded since, instead of replaying the whole trial: per-step cost stays flat
 * however long a trial gets. The log stays the truth — the episode is rebuilt
 * from it whenever the cache cannot vouch for it (another trial, a fresh drive,
 * or after anything went wrong: {@link clear}).
 *
 * Families that rebuild episodes from recorded observations (`restoreEpisode`,
 * code) are always restored, never cached.
 */
export class EpisodeCache {
  private entry: { trial: number; applied: number; episode: Episode } | null = null;

  /** The trial's episode with every recorded step applied. */
  async episodeFor<Task>(family: EnvironmentFamily<Task>, task: Task, state: RunState, trial: TrialView, strategy: Strategy): Promise<Episode> {
    if (family.restoreEpisode) {
      // Only families that rebuild episodes from recorded steps read earlier trials.
      const earlierTrials = state.trials.filter((t) => t.trial < trial.trial).map(trajectoryOf);
      return family.restoreEpisode(task, trajectoryOf(trial), { strategy, trial: trial.trial, earlierTrials });
    }
    const recorded = trial.steps.filter((step) => step.action !== null && step.observation !== null);
    if (!this.entry || this.entry.trial !== trial.trial || this.entry.applied > recorded.length) {
      this.entry = { trial: trial.trial, applied: 0, episode: family.startEpisode(task, { strategy, trial: trial.trial, earlierTrials: [] }) };
    }
    const entry = this.entry;
    for (const step of recorded.slice(entry.applied)) {
      if (step.action) await entry.episode.step(family.parseAction(step.action.text, { trial: trial.trial, step: step.step }));
      entry.applied += 1;
    }
    return entry.episode;
  }

  /** The episode handed out took one more step, and that step is now recorded. */
  advanced(): void {
    if (this.entry) this.entry.applied += 1;
  }

  /** Forget the episode (it may be ahead of or behind the log). */
  clear(): void {
    this.entry = null;
  }
}
