import type { Metadata } from "next";
import { Suspense } from "react";
import { TeacherConsolePage } from "@/components/classes/teacher-console-page";

export const metadata: Metadata = { title: "Class" };

/** `/classes/<id>[?view=projector][#teacher=<secret>]`: the teacher's console, or the projector view. */
export default async function Page({ params }: { params: Promise<{ classId: string }> }) {
  const { classId } = await params;
  return (
    <Suspense fallback={null}>
      <TeacherConsolePage classId={classId} />
    </Suspense>
  );
}
