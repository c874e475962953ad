import type { Metadata } from "next";
import { StudentClassPage } from "@/components/classes/student-class-page";

export const metadata: Metadata = { title: "Class" };

/** `/class/<id>`: a student's phone page for a class they joined. */
export default async function Page({ params }: { params: Promise<{ classId: string }> }) {
  const { classId } = await params;
  return <StudentClassPage classId={classId} />;
}
