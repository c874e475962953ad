import Link from "next/link";
import { cn } from "@/lib/utils/cn";

/** "Teach as a class": opens `/classes` with this lesson chosen in the start form. */
export function TeachAsClassLink({ lessonId, className }: { lessonId: string; className?: string }) {
  return (
    <Link
      href={`/classes?lesson=${encodeURIComponent(lessonId)}`}
      className={cn("rounded-md border border-slate-300 px-3 py-1.5 text-sm font-medium text-slate-800 hover:bg-slate-50", className)}
      data-testid="lesson-teach-class"
    >
      Teach as a class
    </Link>
  );
}
