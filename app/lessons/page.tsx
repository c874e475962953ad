import type { Metadata } from "next";
import { LessonsPage } from "@/components/lessons";

export const metadata: Metadata = { title: "Lessons" };

/** `/lessons`: every lesson file (lessons/*.md), with Present and Open. */
export default function Page() {
  return <LessonsPage />;
}
