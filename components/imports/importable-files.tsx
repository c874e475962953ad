"use client";

import Link from "next/link";
import type { EnvironmentId } from "@/lib/domain/config";
import type { ImportableFile } from "@/lib/domain/paper-import";
import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";
import { FAMILY_DESCRIPTORS, familyDescriptor } from "@/lib/environments/descriptors";

/** The benchmark behind a family of logs, as the paper names it. */
export function logFamilyName(family: EnvironmentId): string {
  return familyDescriptor(family).paperLogName;
}

/** Files grouped by family in the paper's order (HotpotQA, ALFWorld, programming), each group sorted by path. */
export function groupByFamily(files: readonly ImportableFile[]): Array<{ family: EnvironmentId; files: ImportableFile[] }> {
  return FAMILY_DESCRIPTORS.map(({ id: family }) => ({ family, files: files.filter((file) => file.family === family).sort((a, b) => a.path.localeCompare(b.path)) })).filter(
    (group) => group.files.length > 0,
  );
}

/** Bytes as "1.8 MB" / "33 KB". */
export function formatBytes(bytes: number): string {
  if (bytes >= 1_000_000) return `${(bytes / 1_000_000).toFixed(1)} MB`;
  if (bytes >= 1_000) return `${Math.round(bytes / 1_000)} KB`;
  return `${bytes} B`;
}

/**
 * The shared folder's logs, one table per family: label, path, size and
 * Import (or Open, once imported: a link to its experiment). `importing` is the
 * set of paths on their way.
 */
export function ImportableFiles({ files, importing, onImport }: { files: readonly ImportableFile[]; importing: ReadonlySet<string>; onImport: (paths: string[]) => void }) {
  return (
    <div className="space-y-4">
      {groupByFamily(files).map((group) => (
        <section key={group.family} aria-labelledby={`family-${group.family}`} className="rounded-lg border border-slate-200 bg-white" data-testid="import-family" data-family={group.family}>
          <h2 id={`family-${group.family}`} className="border-b border-slate-200 px-4 py-2 text-sm font-semibold text-slate-900">
            {logFamilyName(group.family)}
          </h2>
          <table className="w-full text-left text-sm">
            <thead className="sr-only">
              <tr>
                <th scope="col">Log</th>
                <th scope="col">Size</th>
                <th scope="col">Action</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {group.files.map((file) => (
                <tr key={file.path} data-testid="importable-file" data-path={file.path} data-imported={file.importedExperimentId !== null}>
                  <td className="px-4 py-2">
                    <span className="block font-medium text-slate-900">{file.label}</span>
                    <code className="block break-all text-[11px] text-slate-500">{file.path}</code>
                  </td>
                  <td className="whitespace-nowrap px-2 py-2 text-right text-xs tabular-nums text-slate-600">{formatBytes(file.sizeBytes)}</td>
                  <td className="w-32 px-4 py-2 text-right">
                    {file.importedExperimentId ? (
                      <Link
                        href={`/experiments/${encodeURIComponent(file.importedExperimentId)}`}
                        className="inline-flex h-8 items-center rounded-md border border-slate-300 px-3 text-xs font-medium text-sky-800 hover:bg-slate-50"
                        data-testid="open-import"
                      >
                        Open →
                      </Link>
                    ) : (
                      <Button size="sm" variant="primary" data-testid="import-file" disabled={importing.has(file.path)} onClick={() => onImport([file.path])}>
                        {importing.has(file.path) ? (
                          <>
                            <Spinner className="size-3" label="Importing" /> Importing…
                          </>
                        ) : (
                          "Import"
                        )}
                      </Button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      ))}
    </div>
  );
}
