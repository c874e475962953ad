import { BundleDropZone } from "@/components/bundles/bundle-drop-zone";
import { NewRunForm } from "./new-run-form";
import { RecentRuns } from "./recent-runs";

/** The start page: a new-run form next to the recent runs; a run bundle dropped anywhere on it is imported. */
export function HomePage() {
  return (
    <BundleDropZone>
      <main className="mx-auto grid w-full max-w-7xl flex-1 grid-cols-1 gap-6 px-4 py-6 lg:grid-cols-[minmax(0,30rem)_minmax(0,1fr)]">
        <section aria-labelledby="new-run-heading" className="h-fit rounded-lg border border-slate-200 bg-white p-4">
          <h1 id="new-run-heading" className="mb-4 text-base font-semibold text-slate-900">
            New run
          </h1>
          <NewRunForm />
        </section>
        <RecentRuns />
      </main>
    </BundleDropZone>
  );
}
