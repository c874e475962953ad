import type { Metadata } from "next";
import { NewLessonPage } from "@/components/lessons/authoring";

export const metadata: Metadata = { title: "Author a lesson" };

/** `/lessons/new?run=<runId>[&cursor=<events shown>][&branch=<id>]`: write a lesson over a stored run (it plays the run's main branch). */
export default async function Page({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  const run = typeof params.run === "string" && params.run.trim() ? params.run.trim() : null;
  const cursor = typeof params.cursor === "string" && /^\d{1,9}$/.test(params.cursor) ? Number(params.cursor) : null;
  const branch = typeof params.branch === "string" && params.branch.trim() ? params.branch.trim() : null;
  return <NewLessonPage runId={run} cursor={cursor} branch={branch} />;
}
