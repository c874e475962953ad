import type { Metadata } from "next";
import { Suspense } from "react";
import { EditLessonPage } from "@/components/lessons/authoring";
import { ensureLesson } from "@/lib/server/page-lookup";

export const metadata: Metadata = { title: "Edit lesson" };

/** `/lessons/:id/edit`: the lesson in the authoring editor (a folder lesson is saved as a copy under another id). */
export default async function Page({ params }: { params: Promise<{ lessonId: string }> }) {
  const { lessonId } = await params;
  await ensureLesson(lessonId);
  return (
    <Suspense fallback={null}>
      <EditLessonPage lessonId={lessonId} />
    </Suspense>
  );
}
