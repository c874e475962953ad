/**
 * Which user guide (docs/guides/<guide>.md) and which of its sections answers "how do I use this
 * page?", by route. Pure data and lookups: the header's `?` link (a client component) and the
 * empty states read it; tests/help/help-map.test.ts checks every section against the guide's
 * headings, so a renamed heading fails a test instead of opening the top of the page.
 */

/** The user guides, by file name (without `.md`), with the title of each guide's `#` heading. */
export const GUIDE_TITLES = {
  teaching: "Teaching with the playground",
  "tuning-templates": "Tuning prompt templates",
  "comparing-methods": "Comparing methods",
  "running-a-lab": "Running a lab",
  contributing: "Contributing",
} as const;

/** A guide's file name without `.md`: one of {@link GUIDE_TITLES}' keys. */
export type GuideName = keyof typeof GUIDE_TITLES;

/** A place in a guide: the guide and a heading's GitHub-style anchor (lib/utils/heading-slug.ts). */
export interface HelpTarget {
  guide: GuideName;
  section: string;
}

/**
 * Route prefix → guide section. A prefix matches the path itself and anything under it
 * (`/experiments` matches `/experiments/abc`); `/` matches only the home page. Longest prefix wins.
 */
export const HELP_BY_ROUTE = {
  "/": { guide: "teaching", section: "4-replay-any-run-at-class-speed" },
  "/runs": { guide: "teaching", section: "4-replay-any-run-at-class-speed" },
  "/experiments": { guide: "comparing-methods", section: "1-an-experiment-tasks--arms--trials" },
  "/compare": { guide: "comparing-methods", section: "1-an-experiment-tasks--arms--trials" },
  "/imports": { guide: "comparing-methods", section: "3-the-papers-own-runs" },
  "/reflections": { guide: "comparing-methods", section: "3-the-papers-own-runs" },
  "/judge": { guide: "comparing-methods", section: "4-other-families" },
  "/templates": { guide: "tuning-templates", section: "1-look-at-the-built-in-templates" },
  "/lessons": { guide: "teaching", section: "1-start-the-playground-and-open-a-lesson" },
  "/bundles": { guide: "running-a-lab", section: "4-moving-runs-between-machines" },
  "/shared": { guide: "running-a-lab", section: "4-moving-runs-between-machines" },
  "/jobs": { guide: "running-a-lab", section: "1-the-worker-model-offline-on-one-machine" },
  "/settings": { guide: "running-a-lab", section: "switching-to-a-real-model" },
} as const satisfies Readonly<Record<string, HelpTarget>>;

/** A route prefix of {@link HELP_BY_ROUTE}. */
export type HelpRoute = keyof typeof HELP_BY_ROUTE;

/**
 * The main lists' empty states → the guide section that says how to fill them (the "How to …"
 * link). Mostly the page's own section; a list filled by writing files (lessons) points at how to
 * write one.
 */
export const EMPTY_STATE_HELP = {
  runs: HELP_BY_ROUTE["/"],
  experiments: HELP_BY_ROUTE["/experiments"],
  templates: HELP_BY_ROUTE["/templates"],
  lessons: { guide: "teaching", section: "writing-a-lesson" },
  bundles: HELP_BY_ROUTE["/bundles"],
} as const satisfies Readonly<Record<string, HelpTarget>>;

/** A list with a "How to …" link in its empty state: a key of {@link EMPTY_STATE_HELP}. */
export type EmptyStateList = keyof typeof EMPTY_STATE_HELP;

/** True when `name` is one of the user guides. */
export function isGuideName(name: string): name is GuideName {
  return Object.hasOwn(GUIDE_TITLES, name);
}

/** The in-app address of a guide, or of one of its sections: `/help/<guide>` or `/help/<guide>#<section>`. */
export function helpHref(guide: GuideName, section?: string): string {
  return `/help/${guide}${section ? `#${section}` : ""}`;
}

/**
 * The guide section for the page at `pathname` (a URL path, no query), by the longest matching
 * prefix of {@link HELP_BY_ROUTE}; `null` for pages no guide covers (the help pages themselves).
 */
export function helpForPath(pathname: string): HelpTarget | null {
  let best: HelpRoute | null = null;
  for (const prefix of Object.keys(HELP_BY_ROUTE) as HelpRoute[]) {
    const matches = prefix === "/" ? pathname === "/" : pathname === prefix || pathname.startsWith(`${prefix}/`);
    if (matches && (best === null || prefix.length > best.length)) best = prefix;
  }
  return best === null ? null : HELP_BY_ROUTE[best];
}
