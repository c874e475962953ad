/**
 * "Write your own reflection" (T2).
 *
 * For T1's lesson player: render `<ReflectionPractice runId={…} branchId={…} trial={…} />`
 * inside a TanStack Query provider (the app's Providers) — it needs nothing
 * else: it reads the branch's events itself (`useRunEvents(runId, branchId)`,
 * the same query the workspace uses, so no second fetch), and `branchId` is
 * the page's `?branch=` value (null = the root branch). `trial` is a failed
 * trial with a reflection (the fork starts at the checkpoint after it). Pass
 * `onForked(branchId)` to stay in the lesson; by default it opens the fork on
 * the run page. `assessReflection` is pure if you want the
 * rubric without the component (key facts: `keyFactsQuery` in lib/query).
 */
export { ReflectionPractice, type ReflectionPracticeProps } from "./reflection-practice";
export { practiceCursor } from "./practice-cursor";
export { assessReflection, MAX_WORDS, MIN_WORDS, mistakeCandidates, PRACTICE_MAX_CHARS, practiceCharCount, type ReflectionRubric } from "./rubric";
export { WordDiff } from "./word-diff";
