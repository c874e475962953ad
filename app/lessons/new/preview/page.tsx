import type { Metadata } from "next";
import { Suspense } from "react";
import { LessonPreviewPage } from "@/components/lessons/authoring";

export const metadata: Metadata = { title: "Lesson preview" };

/** `/lessons/new/preview`: the authoring page's draft played as a learner sees it (kept in the tab's sessionStorage). */
export default function Page() {
  return (
    <Suspense fallback={null}>
      <LessonPreviewPage />
    </Suspense>
  );
}
