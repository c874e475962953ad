import type { Metadata } from "next";
import { Suspense } from "react";
import { SharedBundleView } from "@/components/bundles";
import { ensureSharedBundle } from "@/lib/server/page-lookup";

export const metadata: Metadata = { title: "Shared run" };

/** `/shared/<hash>`: the runs of a bundle imported here, read-only; `?run=&branch=&cursor=&node=` open a moment of a run. */
export default async function SharedPage({ params }: { params: Promise<{ hash: string }> }) {
  const { hash } = await params;
  await ensureSharedBundle(hash);
  return (
    <Suspense>
      <SharedBundleView hash={hash} />
    </Suspense>
  );
}
