"use client";

import { useId, useState } from "react";
import { labelNameSchema, type Template, type TemplateVersion } from "@/lib/domain/template-library";
import { labelsByVersion } from "@/lib/query/template-library-view";
import { useMoveLabel } from "@/lib/query/template-queries";
import { inputClass } from "@/components/home/form-field";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { formatTime } from "@/components/ui/format";
import { Notice } from "@/components/ui/notice";
import { cn } from "@/lib/utils/cn";
import { LabelChips } from "./template-library";

/** Sets or moves a label (e.g. `baseline`, `candidate`) to a version; the label's old position is replaced. */
function MoveLabelForm({ template, versions, selectedId }: { template: Template; versions: readonly TemplateVersion[]; selectedId: string }) {
  const move = useMoveLabel(template.id);
  const existing = Object.keys(template.labels).sort();
  const [label, setLabel] = useState(existing[0] ?? "baseline");
  const [versionId, setVersionId] = useState(selectedId);
  const ids = { label: useId(), version: useId(), list: useId() };
  const parsed = labelNameSchema.safeParse(label);
  const problem = parsed.success ? null : (parsed.error.issues[0]?.message ?? "invalid label");
  const current = template.labels[label];
  return (
    <form
      aria-label="Move a label"
      className="flex flex-wrap items-end gap-2"
      data-testid="move-label"
      onSubmit={(event) => {
        event.preventDefault();
        if (parsed.success) move.mutate({ label: parsed.data, versionId });
      }}
    >
      <label htmlFor={ids.label} className="space-y-0.5 text-[11px] text-slate-600">
        <span className="block">Label</span>
        <input id={ids.label} list={ids.list} data-testid="label-name" className={cn(inputClass, "h-8 w-40 py-0 text-xs", problem && "border-red-500")} value={label} aria-invalid={problem !== null} onChange={(event) => setLabel(event.target.value.trim())} />
        <datalist id={ids.list}>
          {["baseline", "candidate", ...existing].filter((name, index, all) => all.indexOf(name) === index).map((name) => (
            <option key={name} value={name} />
          ))}
        </datalist>
      </label>
      <label htmlFor={ids.version} className="space-y-0.5 text-[11px] text-slate-600">
        <span className="block">points at</span>
        <select id={ids.version} data-testid="label-version" className={cn(inputClass, "h-8 w-40 py-0 text-xs")} value={versionId} onChange={(event) => setVersionId(event.target.value)}>
          {versions.map((version) => (
            <option key={version.id} value={version.id}>
              v{version.number}
            </option>
          ))}
        </select>
      </label>
      <Button type="submit" size="sm" className="h-8" disabled={problem !== null || move.isPending || current === versionId} data-testid="label-move">
        {move.isPending ? "Moving…" : current ? "Move label" : "Set label"}
      </Button>
      <p className="w-full text-[11px] text-slate-500">
        {problem ? (
          <span className="text-red-800">{problem}</span>
        ) : current ? (
          `"${label}" points at v${versions.find((version) => version.id === current)?.number ?? "?"} now; moving it changes what runs and arms that name "${template.id}@${label}" get from now on (runs already started keep their version).`
        ) : (
          `"${label}" is new on this template.`
        )}
      </p>
      {move.error ? <Notice tone="error" className="w-full text-xs">Could not move the label: {move.error.message}</Notice> : null}
    </form>
  );
}

/**
 * The template's versions, newest first: number, labels, message, time and
 * parent; "Open" loads one into the editor (saying so when that discards
 * unsaved edits). Below, set or move a label.
 */
export function TemplateHistory({
  template,
  versions,
  selectedId,
  dirty,
  onOpen,
}: {
  template: Template;
  versions: readonly TemplateVersion[];
  selectedId: string;
  /** The editor has unsaved changes (opening another version discards them; the button says so). */
  dirty: boolean;
  onOpen: (version: TemplateVersion) => void;
}) {
  const labels = labelsByVersion(template);
  const numberOf = new Map(versions.map((version) => [version.id, version.number]));
  return (
    <div className="space-y-3 pt-3">
      <ol className="divide-y divide-slate-100 rounded-md border border-slate-200 bg-white" aria-label="Versions, newest first" data-testid="version-history">
        {versions.map((version, index) => (
          <li key={version.id} className="flex flex-wrap items-center gap-x-3 gap-y-1 px-3 py-2 text-xs" data-testid="version-row" data-version-id={version.id} data-number={version.number}>
            <strong className="font-mono text-slate-900">v{version.number}</strong>
            {index === 0 ? <Badge tone="neutral">latest</Badge> : null}
            {version.builtIn ? <Badge tone="outline">built-in</Badge> : null}
            <LabelChips labels={labels.get(version.id) ?? []} />
            <span className="min-w-40 flex-1 text-slate-800">{version.message || <em className="text-slate-500">no message</em>}</span>
            <span className="text-[11px] text-slate-500">
              {formatTime(version.createdAt)}
              {version.parentId ? ` · from ${numberOf.has(version.parentId) ? `v${numberOf.get(version.parentId)}` : "another template's version"}` : ""}
            </span>
            <code className="font-mono text-[10px] text-slate-500" title="Version id (content-addressed: the same text has the same id in every clone)">
              {version.id}
            </code>
            <Button size="sm" variant={version.id === selectedId ? "secondary" : "ghost"} disabled={version.id === selectedId} onClick={() => onOpen(version)} data-testid="open-version">
              {version.id === selectedId ? "In the editor" : dirty ? "Open (discards unsaved edits)" : "Open"}
            </Button>
          </li>
        ))}
      </ol>
      <MoveLabelForm key={selectedId} template={template} versions={versions} selectedId={selectedId} />
    </div>
  );
}
