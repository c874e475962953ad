"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { bundleListResponseSchema } from "@/lib/bundles/api";
import { EmptyState, Notice } from "@/components/ui/notice";
import { HowToLink } from "@/components/help/how-to-link";
import { Spinner } from "@/components/ui/spinner";
import { fetchJson } from "@/lib/query/fetch-json";
import { BundleDropZone } from "./bundle-drop-zone";

/** `/bundles`: the import box (drop or pick a file) and every bundle imported here, each linking to its `/shared/<hash>` view. */
export function BundleList() {
  const list = useQuery({ queryKey: ["bundles"], queryFn: ({ signal }) => fetchJson("/api/bundles", bundleListResponseSchema, { signal }) });
  return (
    <BundleDropZone>
      <main className="mx-auto w-full max-w-5xl px-4 py-6">
        <h1 className="text-base font-semibold text-slate-900">Shared runs (bundles)</h1>
        <p className="mt-1 text-sm text-slate-600">
          A bundle is one file with a run (or an experiment) and the cached model responses it used. Imported runs are read-only; replay them recorded with zero model calls, or fork
          them to continue live. Export one from a run&apos;s header (<em>Export bundle</em>) or with <code className="font-mono text-xs">npm run cli -- export --run &lt;id&gt; --out run.reflexion.json.gz</code>.
        </p>
        <div className="mt-4">
          {list.isPending ? <Spinner /> : null}
          {list.isError ? <Notice tone="error" title="The list could not be loaded">{list.error.message}</Notice> : null}
          {list.data && list.data.bundles.length === 0 ? <EmptyState title="No bundle imported yet" action={<HowToLink list="bundles">How to move runs between machines</HowToLink>}>Drop a bundle file on this page or use the button below.</EmptyState> : null}
          {list.data && list.data.bundles.length > 0 ? (
            <ul className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white" data-testid="bundle-list">
              {list.data.bundles.map((bundle) => (
                <li key={bundle.contentSha256} className="flex flex-wrap items-center justify-between gap-2 px-4 py-3 text-sm">
                  <Link href={`/shared/${bundle.contentSha256}`} className="font-medium text-slate-900 hover:underline">
                    {bundle.subject.title}
                  </Link>
                  <span className="text-xs text-slate-600">
                    {bundle.subject.kind} · {bundle.runs} run{bundle.runs === 1 ? "" : "s"} · {bundle.fileName} · imported {new Date(bundle.importedAt).toLocaleString()}
                  </span>
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      </main>
    </BundleDropZone>
  );
}
