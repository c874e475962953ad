"use client";

import Link from "next/link";
import { useParams } from "next/navigation";
import { EmptyState } from "@/components/ui/notice";

/** `/lessons/<unknown id>` (HTTP 404). */
export default function LessonNotFound() {
  const { lessonId } = useParams<{ lessonId?: string }>();
  return (
    <EmptyState
      title="Lesson not found"
      action={
        <Link href="/lessons" className="text-sm font-medium text-sky-700 underline">
          All lessons
        </Link>
      }
    >
      No lesson &quot;{lessonId ?? ""}&quot;. The lessons are the files in <code className="font-mono">lessons/</code> and those written in the app (All lessons lists both).
    </EmptyState>
  );
}
