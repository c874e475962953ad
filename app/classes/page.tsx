import type { Metadata } from "next";
import { Suspense } from "react";
import { ClassesPage } from "@/components/classes/classes-page";

export const metadata: Metadata = { title: "Classes" };

/** `/classes[?lesson=<id>]`: start a class for a lesson, and the classes started so far. */
export default function Page() {
  return (
    <Suspense fallback={null}>
      <ClassesPage />
    </Suspense>
  );
}
