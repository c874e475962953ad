import type { Metadata } from "next";
import { OverlayView } from "@/components/experiments/overlay-view";
import { parseOverlayIds } from "@/lib/query/overlay-series";

export const metadata: Metadata = { title: "Experiments overlaid" };

/** `/experiments/overlay?ids=a,b,…`: several experiments' arms on one success-by-trial chart, and final-success bars. */
export default async function OverlayPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { ids } = await searchParams;
  return <OverlayView ids={parseOverlayIds(ids)} />;
}
