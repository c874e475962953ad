/**
 * The first-visit tour of the app's chrome: about a minute
 * of reading, each step anchored to an element that carries the selector
 * below. Steps whose element is not on the current page are left out
 * ({@link stepsOnPage}), so the same tour works on the home page and on a run.
 */

/** One stop of the tour: a CSS selector (null: a centred popover) and its text. */
export interface TourStop {
  selector: string | null;
  title: string;
  text: string;
}

/** localStorage key: set once the tour has been shown (started, finished or skipped). */
export const TOUR_SEEN_KEY = "reflexion-tour-seen";

/** The stops in order. */
export const TOUR_STOPS: readonly TourStop[] = [
  {
    selector: null,
    title: "Reflexion Playground in one minute",
    text: "An Actor tries a task, an Evaluator judges the trial, a Self-Reflection writes a lesson into episodic memory, and the next trial reads it. Use → or Next; Esc skips the tour.",
  },
  { selector: '[data-tour="nav"]', title: "Where things are", text: "Runs (start one here), Experiments (ReAct vs Reflexion over a task set), the paper's own runs, reflections that worked, prompt templates and lessons." },
  { selector: '[data-testid="environment-select"]', title: "Start a run", text: "Pick a family (QA, household, code) and a built-in task. The offline demo model is a scripted stand-in: no key, no network." },
  { selector: '[data-testid="run-graph-viewport"]', title: "The run graph", text: "One lane per trial: thought → action → observation, then the Evaluator's verdict and the reflection; amber edges carry memory into the next trial. Click a node to inspect it." },
  { selector: '[data-testid="branch-tree-card"]', title: "Branches", text: "Fork at an evaluation or reflection node to try another path, e.g. with your own reflection; every branch is listed here." },
  { selector: '[data-testid="run-side-panel"]', title: "Inspector and memory", text: "The exact prompt and completion of the selected node, and the episodic memory you can edit while the run is paused." },
  { selector: '[data-testid="theme-toggle"]', title: "Light, dark or system", text: "The theme follows your system setting unless you pick one here." },
  { selector: '[data-testid="tour-button"]', title: "That's it", text: "Open this tour again any time from here." },
];

/** The stops whose element is on the page (and visible), in order. */
export function stepsOnPage(stops: readonly TourStop[], query: (selector: string) => Element | null): TourStop[] {
  return stops.filter((stop) => {
    if (stop.selector === null) return true;
    const element = query(stop.selector);
    return element !== null && (!(element instanceof HTMLElement) || element.getClientRects().length > 0);
  });
}
