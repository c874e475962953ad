import type { Metadata } from "next";
import { Suspense } from "react";
import { LessonPage } from "@/components/lessons";
import { ensureLesson } from "@/lib/server/page-lookup";

export const metadata: Metadata = { title: "Lesson" };

/** `/lessons/:id[?step=&present=1&cursor=&node=]`: the lesson played over its run. */
export default async function Page({ params }: { params: Promise<{ lessonId: string }> }) {
  const { lessonId } = await params;
  await ensureLesson(lessonId);
  return (
    <Suspense fallback={null}>
      <LessonPage lessonId={lessonId} />
    </Suspense>
  );
}
