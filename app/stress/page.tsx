import type { Metadata } from "next";
import { parseStressParams } from "./stress-params";
import { StressView } from "./stress-view";

export const metadata: Metadata = { title: "Graph stress page", robots: { index: false } };

/**
 * `/stress?trials=24&family=household[&view=graphs|compare][&seed=1][&collapse=off]` (or `nodes=25000`
 * instead of `trials`: as many trials as make ~25,000 graph nodes) or
 * `/stress?tree=300[&seed=1]` or `/stress?trials=1750&replay=1` (one run behind a replay cursor): a dev
 * and benchmark page (DESIGN.md §8). It renders a synthetic run log of N
 * trials (lib/graph/stress-run.ts) through the real fold, graph deriver and RunGraph — no
 * server, no database — or two such runs as two graphs side by side (`view=graphs`) or in
 * the compare view's trial lanes (`view=compare`); with `tree=N`, a synthetic LATS search tree of N
 * nodes (lib/graph/stress-tree.ts) in the search tree view. `npm run bench:graph` measures it.
 */
export default async function StressPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = parseStressParams(await searchParams);
  return <StressView key={JSON.stringify(params)} {...params} />;
}
