"use client";

import { useQuery } from "@tanstack/react-query";
import dynamic from "next/dynamic";
import Link from "next/link";
import { useCallback, useState, type KeyboardEvent } from "react";
import type { TemplateDetailResponse, TemplateVersion } from "@/lib/domain/template-library";
import { environmentsQuery } from "@/lib/query";
import { labelsByVersion, TEMPLATE_ROLE_NAME, versionTitle } from "@/lib/query/template-library-view";
import { templateDetailQuery } from "@/lib/query/template-queries";
import { usedVariables } from "@/lib/query/template-variables";
import { familyName } from "@/components/experiments/labels";
import { Badge } from "@/components/ui/badge";
import { EmptyState } from "@/components/ui/notice";
import { Spinner } from "@/components/ui/spinner";
import { strategyLabel } from "@/components/ui/strategy-labels";
import { cn } from "@/lib/utils/cn";
import { AbForm } from "./ab-form";
import { LabelChips } from "./template-library";
import { TemplateDiffView } from "./template-diff-view";
import { TemplateHistory } from "./template-history";
import { TemplateLineageView } from "./template-lineage-view";
import { TemplatePreview } from "./template-preview";
import { SaveTemplate } from "./template-save";

const MonacoTemplateEditor = dynamic(() => import("./monaco-template-editor"), {
  ssr: false,
  loading: () => <p className="p-3 text-xs text-slate-500">Loading editor…</p>,
});

const NO_NAMES: readonly string[] = [];

const TABS = [
  { id: "preview", label: "Preview" },
  { id: "diff", label: "Diff" },
  { id: "history", label: "History & labels" },
  { id: "lineage", label: "Lineage" },
  { id: "ab", label: "Compare versions (A/B)" },
] as const;
type Tab = (typeof TABS)[number]["id"];

/** The tab bar under the editor (arrow keys move between tabs, as in the WAI-ARIA tabs pattern). */
function TabBar({ tab, onTab, hidden }: { tab: Tab; onTab: (tab: Tab) => void; hidden: ReadonlySet<Tab> }) {
  const shown = TABS.filter((candidate) => !hidden.has(candidate.id));
  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    const index = shown.findIndex((candidate) => candidate.id === tab);
    const delta = event.key === "ArrowRight" ? 1 : event.key === "ArrowLeft" ? -1 : 0;
    if (delta === 0) return;
    event.preventDefault();
    const next = shown[(index + delta + shown.length) % shown.length]!;
    onTab(next.id);
    document.getElementById(`template-tab-${next.id}`)?.focus();
  };
  return (
    <div role="tablist" aria-label="Template tools" className="flex flex-wrap gap-1 border-b border-slate-200">
      {shown.map((candidate) => (
        <button
          key={candidate.id}
          id={`template-tab-${candidate.id}`}
          type="button"
          role="tab"
          aria-selected={tab === candidate.id}
          aria-controls={`template-panel-${candidate.id}`}
          tabIndex={tab === candidate.id ? 0 : -1}
          data-testid={`template-tab-${candidate.id}`}
          onClick={() => onTab(candidate.id)}
          onKeyDown={onKeyDown}
          className={cn(
            "-mb-px border-b-2 px-3 py-1.5 text-xs font-medium focus-visible:outline-2 focus-visible:outline-sky-600",
            tab === candidate.id ? "border-sky-700 text-slate-900" : "border-transparent text-slate-600 hover:text-slate-900",
          )}
        >
          {candidate.label}
        </button>
      ))}
    </div>
  );
}

/** The loaded workbench: editor over the chosen version, save, and the tools below. */
function Workbench({ detail }: { detail: TemplateDetailResponse }) {
  const { template, versions } = detail;
  const newest = versions[0]!;
  const [selectedId, setSelectedId] = useState(newest.id);
  const selected: TemplateVersion = versions.find((version) => version.id === selectedId) ?? newest;
  const [draft, setDraft] = useState(selected.text);
  const [generation, setGeneration] = useState(0);
  const [markers, setMarkers] = useState(0);
  const [tab, setTab] = useState<Tab>("preview");
  // The lineage's "Diff against parent" opens the Diff tab on that pair; picking the tab by hand opens the default pair.
  const [diffPair, setDiffPair] = useState<{ versionId: string; parentId: string } | null>(null);
  const chooseTab = (next: Tab) => {
    setDiffPair(null);
    setTab(next);
  };
  const openDiff = useCallback((versionId: string, parentId: string) => {
    setDiffPair({ versionId, parentId });
    setTab("diff");
    // Keyboard users land on the tab that now shows the diff, not on a node that is gone.
    requestAnimationFrame(() => document.getElementById("template-tab-diff")?.focus());
  }, []);
  const environments = useQuery(environmentsQuery());
  const roleVariables = environments.data?.environments.find((option) => option.id === template.family)?.templateVariables;
  const [previewVariables, setPreviewVariables] = useState<string[] | null>(null);
  // The summariser's names are not in GET /api/environments: the preview's answer names them.
  const known = (template.role === "summarizer" || template.role === "evaluator" || template.role === "value" ? previewVariables : roleVariables?.[template.role]) ?? previewVariables ?? NO_NAMES;
  const dirty = draft !== selected.text;
  const onMarkers = useCallback((count: number) => setMarkers(count), []);

  const load = (version: TemplateVersion) => {
    setSelectedId(version.id);
    setDraft(version.text);
    setGeneration((count) => count + 1);
  };
  const labels = labelsByVersion(template).get(selected.id) ?? [];
  const used = usedVariables(draft, known);

  return (
    <main className="flex w-full flex-1 flex-col gap-3 px-4 py-4" data-testid="template-workbench" data-template-id={template.id} data-built-in={template.builtIn}>
      <header className="space-y-1">
        <p className="text-xs text-slate-500">
          <Link href="/templates" className="text-sky-800 hover:underline">
            ← Templates
          </Link>
        </p>
        <div className="flex flex-wrap items-center gap-2">
          <h1 className="text-lg font-semibold text-slate-900" data-testid="template-name">
            {template.name}
          </h1>
          {template.builtIn ? <Badge tone="outline" data-testid="built-in-badge">built-in · read-only</Badge> : null}
          <Badge tone="neutral">{TEMPLATE_ROLE_NAME[template.role]}</Badge>
          <span className="text-xs text-slate-600">
            {familyName(template.family)} · {template.strategy === null ? "any strategy" : strategyLabel(template.strategy, template.family)}
          </span>
        </div>
        <p className="text-[11px] text-slate-500">
          <code className="font-mono">{template.id}</code>
          {template.source ? <> · text from {template.source}</> : null}
        </p>
      </header>

      <div className="flex flex-wrap items-center gap-2 text-xs text-slate-700">
        <span>
          Editing from{" "}
          <strong data-testid="editor-version" data-version-id={selected.id}>
            {versionTitle(selected, template, newest.number)}
          </strong>
        </span>
        <LabelChips labels={labels} />
        {dirty ? <Badge tone="amber" data-testid="editor-dirty">unsaved changes</Badge> : null}
        <span className="ml-auto text-[11px] text-slate-500">
          Type <kbd className="rounded border border-slate-300 px-1 font-mono">{"{"}</kbd> for the {TEMPLATE_ROLE_NAME[template.role]} variables. Tab leaves the editor.
        </span>
      </div>

      <div className="h-[52vh] min-h-72 overflow-hidden rounded-md border border-slate-300 bg-white" data-testid="template-editor" data-dirty={dirty} data-markers={markers} data-known={known.length}>
        <MonacoTemplateEditor
          // Remounted only to load another version; the variables (loaded later) update the language in place.
          key={`${selected.id}:${generation}`}
          initialText={draft}
          known={known}
          onChange={setDraft}
          onMarkers={onMarkers}
          height="100%"
          ariaLabel={`${template.name}: ${TEMPLATE_ROLE_NAME[template.role]} template text`}
        />
      </div>
      <p className="text-[11px] text-slate-600" data-testid="template-variables">
        Filled by the engine for this role:{" "}
        {known.length === 0 ? (
          <span className="text-slate-500">{environments.isPending ? "loading…" : "pick a trial in Preview to list them"}</span>
        ) : (
          known.map((name) => (
            <code key={name} className={cn("mr-1 rounded px-1 font-mono", used.includes(name) ? "bg-sky-100 text-sky-900" : "text-slate-500")}>{`{${name}}`}</code>
          ))
        )}
        {markers > 0 ? (
          <span className="ml-2 font-medium text-red-800" data-testid="template-unknown-count">
            {markers} unknown {markers === 1 ? "placeholder" : "placeholders"} (underlined; they reach the model as literal text)
          </span>
        ) : null}
      </p>

      <SaveTemplate template={template} base={selected} draft={draft} dirty={dirty} onSaved={(version) => version && load(version)} />

      <TabBar tab={tab} onTab={chooseTab} hidden={new Set(template.role === "summarizer" ? (["ab"] as Tab[]) : [])} />
      <div role="tabpanel" id={`template-panel-${tab}`} aria-labelledby={`template-tab-${tab}`} className="min-h-64">
        {tab === "preview" ? (
          <TemplatePreview template={template} text={draft} onVariables={setPreviewVariables} />
        ) : tab === "diff" ? (
          <TemplateDiffView key={diffPair ? `${diffPair.parentId}>${diffPair.versionId}` : "default"} template={template} versions={versions} draft={draft} known={known} pair={diffPair} />
        ) : tab === "history" ? (
          <TemplateHistory template={template} versions={versions} selectedId={selected.id} dirty={dirty} onOpen={load} />
        ) : tab === "lineage" ? (
          <TemplateLineageView template={template} onDiff={openDiff} />
        ) : template.role !== "summarizer" ? (
          <AbForm template={template} versions={versions} current={selected} dirty={dirty} />
        ) : null}
      </div>
    </main>
  );
}

/**
 * `/templates/:id`: the template workbench — full-width Monaco over a version
 * (variables highlighted, `{` completes them, unknown ones underlined), Save
 * version (never edits in place), live preview on a recorded trial with its
 * token count, version history with labels, Monaco's diff between any two
 * versions and against the built-in, the lineage tree, and "Compare versions (A/B)".
 */
export function TemplateWorkbench({ templateId }: { templateId: string }) {
  const detail = useQuery(templateDetailQuery(templateId));
  if (detail.isPending) {
    return (
      <div className="flex flex-1 items-center justify-center gap-2 text-sm text-slate-600">
        <Spinner /> Loading the template…
      </div>
    );
  }
  if (detail.error || !detail.data || detail.data.versions.length === 0) {
    return (
      <EmptyState
        title="Could not open this template"
        action={
          <Link href="/templates" className="text-sm font-medium text-sky-800 hover:underline">
            ← All templates
          </Link>
        }
      >
        <p role="alert">
          {detail.error?.message ?? "It has no versions."} Pick a template from the library; if you followed a link, the template may be in another database.
        </p>
      </EmptyState>
    );
  }
  // Keyed by template: another template's page starts from its own newest version.
  return <Workbench key={detail.data.template.id} detail={detail.data} />;
}
