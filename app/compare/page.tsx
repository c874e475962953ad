import type { Metadata } from "next";
import { CompareView } from "@/components/compare";
import { parseCompareRuns } from "@/lib/query/compare-params";

export const metadata: Metadata = { title: "Compare runs" };

/** `/compare?runs=<id>,<id>[,…]`: runs side by side, trial lanes aligned; with one run, pick another run of the same task. */
export default async function ComparePage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { runs } = await searchParams;
  const runIds = parseCompareRuns(runs);
  return <CompareView key={runIds.join(",")} runIds={runIds} />;
}
