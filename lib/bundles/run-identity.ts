import { contentSha256 } from "./content-hash";
import type { BundleRun } from "./format";

/**
 * SHA-256 of a run's recorded content — its id, title, times, branches and every event — with the
 * `run-start` config's `provenance` left out: an import replaces the provenance (with "Imported
 * bundle" and the file it came in), so a run imported from one bundle and the same run in another
 * bundle (e.g. its experiment's) have one hash, while a run with another branch or event has another.
 * People's annotations are left out too: they are notes beside the recorded run, not part of it.
 */
export function runContentSha256(bundled: BundleRun): string {
  const { annotations: _annotations, ...run } = bundled;
  const events = run.events.map((event) => (event.type === "run-start" ? { ...event, data: { ...event.data, config: { ...event.data.config, provenance: null } } } : event));
  return contentSha256({ ...run, events });
}
