"use client";

import dynamic from "next/dynamic";
import { useId, useState } from "react";
import type { Template, TemplateVersion } from "@/lib/domain/template-library";
import { inputClass } from "@/components/home/form-field";
import { Notice } from "@/components/ui/notice";
import { cn } from "@/lib/utils/cn";
import { useBaseVersion } from "./use-base-version";

const MonacoTemplateDiff = dynamic(() => import("./monaco-template-diff"), {
  ssr: false,
  loading: () => <p className="p-3 text-xs text-slate-500">Loading diff…</p>,
});

const EDITOR = "editor";
const BASE = "base";

/**
 * Monaco's diff editor between any two versions of the template, the
 * editor's unsaved text, and the built-in the template was made from
 * (default: the built-in on the left, the editor's text on the right; or
 * the `pair` it is opened on).
 */
export function TemplateDiffView({
  template,
  versions,
  draft,
  known,
  pair,
}: {
  template: Template;
  versions: readonly TemplateVersion[];
  draft: string;
  known: readonly string[];
  /** A version and its parent to open on (the lineage's "Diff against parent"): the parent on the left. */
  pair?: { versionId: string; parentId: string } | null;
}) {
  const { ref: baseRef, external: externalBase, detail: base } = useBaseVersion(template, versions);
  // A parent outside the template is the base it was edited from (the first version's parent).
  const pairLeft = pair ? (versions.some((version) => version.id === pair.parentId) ? pair.parentId : pair.parentId === baseRef && externalBase ? BASE : null) : null;
  const [chosenLeft, setLeft] = useState<string | null>(pairLeft);
  // Until one is picked: the base (it may resolve after the library list loads), else the oldest version.
  const left = chosenLeft ?? (baseRef === null ? (versions.at(-1)?.id ?? EDITOR) : externalBase ? BASE : baseRef);
  const [right, setRight] = useState(pair && versions.some((version) => version.id === pair.versionId) ? pair.versionId : EDITOR);
  const ids = { left: useId(), right: useId() };

  const textOf = (choice: string): string | null => {
    if (choice === EDITOR) return draft;
    if (choice === BASE) return base.data?.version.text ?? null;
    return versions.find((version) => version.id === choice)?.text ?? null;
  };
  const baseName = base.data ? `${base.data.template.name} v${base.data.version.number}${base.data.template.builtIn ? " (built-in)" : ""}` : "the built-in";
  const options = [
    { value: EDITOR, label: "The editor's text (unsaved changes included)" },
    ...(externalBase ? [{ value: BASE, label: `Built-in: ${baseName}` }] : []),
    ...versions.map((version) => ({ value: version.id, label: `v${version.number}${version.builtIn ? " (built-in)" : ""}${version.message ? ` — ${version.message.slice(0, 60)}` : ""}` })),
  ];
  const original = textOf(left);
  const modified = textOf(right);

  return (
    <div className="space-y-2 pt-3" data-testid="template-diff" data-left={left} data-right={right}>
      <div className="flex flex-wrap items-end gap-3 text-[11px] text-slate-600">
        <label htmlFor={ids.left} className="space-y-0.5">
          <span className="block">Left (before)</span>
          <select id={ids.left} data-testid="diff-left" className={cn(inputClass, "h-8 w-80 py-0 text-xs")} value={left} onChange={(event) => setLeft(event.target.value)}>
            {options.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        </label>
        <label htmlFor={ids.right} className="space-y-0.5">
          <span className="block">Right (after)</span>
          <select id={ids.right} data-testid="diff-right" className={cn(inputClass, "h-8 w-80 py-0 text-xs")} value={right} onChange={(event) => setRight(event.target.value)}>
            {options.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        </label>
        {original !== null && modified !== null ? (
          <span data-testid="diff-same" data-same={original === modified} className="pb-2">
            {original === modified ? "The two texts are identical." : "Removed text is on the left in red, added text on the right in green."}
          </span>
        ) : null}
      </div>
      {base.error && left === BASE ? (
        <Notice tone="error" className="text-xs">
          Could not load {baseName}: {base.error.message} Pick another version on the left.
        </Notice>
      ) : original === null || modified === null ? (
        <p className="text-xs text-slate-500">Loading the texts…</p>
      ) : (
        <div className="h-[40vh] min-h-64 overflow-hidden rounded-md border border-slate-300 bg-white">
          <MonacoTemplateDiff original={original} modified={modified} known={known} height="100%" />
        </div>
      )}
    </div>
  );
}
