import type { DraftIssue } from "@/lib/lessons/lesson-draft";

/** A field's problems, under it, named by step and field as lessonSchema and the log check say them (nothing when there are none). */
export function FieldIssues({ issues }: { issues: readonly DraftIssue[] }) {
  if (issues.length === 0) return null;
  return (
    <ul className="text-xs text-red-700" role="alert" data-testid="field-issues">
      {issues.map((issue) => (
        <li key={`${issue.key}:${issue.message}`}>
          {issue.where}: {issue.message}
        </li>
      ))}
    </ul>
  );
}
