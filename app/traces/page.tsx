import type { Metadata } from "next";
import { Suspense } from "react";
import { TracesPage } from "@/components/traces/traces-page";

export const metadata: Metadata = { title: "Reflect on your agent's traces" };

/** `/traces`: import an outside agent's traces, reflect on its failures, hand the lessons back. */
export default function Page() {
  return (
    <Suspense>
      <TracesPage />
    </Suspense>
  );
}
