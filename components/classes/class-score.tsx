import type { ClassTeacherView } from "@/lib/domain/class-session";
import { cn } from "@/lib/utils/cn";

/**
 * The class score table (revealed questions only, best first): nicknames on the teacher's console,
 * "Student 1, 2…" on the projector (the projector never shows who).
 */
export function ClassScore({ score, large }: { score: ClassTeacherView["score"]; large: boolean }) {
  if (score.length === 0) return null;
  return (
    <section aria-label="Class score" className="mt-4" data-testid="class-score">
      <h3 className={cn("font-semibold text-slate-900", large ? "text-2xl" : "text-lg")}>Class score</h3>
      <table className={cn("mt-2 w-full max-w-lg text-left", large ? "text-xl" : "text-base")}>
        <thead>
          <tr className="border-b border-slate-200 text-slate-700">
            <th scope="col" className="py-1 pr-4 font-medium">
              Student
            </th>
            <th scope="col" className="py-1 font-medium">
              Right
            </th>
          </tr>
        </thead>
        <tbody>
          {score.map((row, index) => (
            <tr key={index} className="border-b border-slate-100" data-testid="class-score-row">
              <td className="py-1 pr-4 text-slate-900">{row.nickname ?? `Student ${index + 1}`}</td>
              <td className="py-1 tabular-nums text-slate-900">
                {row.correct} of {row.answered}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
