import type { Metadata } from "next";
import { Suspense } from "react";
import { ReflectionsPage } from "@/components/reflections/reflections-page";

export const metadata: Metadata = { title: "Reflections that worked" };

/** `/reflections?experimentId=&q=&helped=true|false`: reflections with the failed trial they came from and the next trial's outcome. */
export default function Page() {
  return (
    <Suspense fallback={null}>
      <ReflectionsPage />
    </Suspense>
  );
}
