"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useId, useState } from "react";
import { environmentIdSchema, type EnvironmentId } from "@/lib/domain/config";
import type { TemplateListItem } from "@/lib/domain/template-library";
import { groupTemplates, TEMPLATE_ROLE_NAME, type TemplateGroup } from "@/lib/query/template-library-view";
import { templateHref, templateListQuery, useCreateTemplate } from "@/lib/query/template-queries";
import { familyName } from "@/components/experiments/labels";
import { HowToLink } from "@/components/help/how-to-link";
import { familyIds } from "@/lib/environments/descriptors";
import { inputClass } from "@/components/home/form-field";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { formatShortTime } from "@/components/ui/format";
import { EmptyState, Notice } from "@/components/ui/notice";
import { Spinner } from "@/components/ui/spinner";
import { strategyLabel } from "@/components/ui/strategy-labels";
import { cn } from "@/lib/utils/cn";

const CLI_EXAMPLE = "cli templates list --json";

/** Label names as chips. */
export function LabelChips({ labels }: { labels: readonly string[] }) {
  return (
    <>
      {labels.map((label) => (
        <Badge key={label} tone="sky" data-testid="template-label-chip" data-label={label}>
          {label}
        </Badge>
      ))}
    </>
  );
}

/** "New template from this": copies a template's newest text into a new template (its first version's parent is that version) and opens it. */
function NewFromTemplate({ template, compact = false }: { template: TemplateListItem; compact?: boolean }) {
  const [open, setOpen] = useState(false);
  if (!open) {
    return (
      <Button size="sm" onClick={() => setOpen(true)} data-testid="new-from-template" aria-label={`${compact ? "New from this" : "New template from this"}: ${template.name}`}>
        {compact ? "New from this" : "New template from this"}
      </Button>
    );
  }
  return <NewFromTemplateForm template={template} onCancel={() => setOpen(false)} />;
}

/** The name field of {@link NewFromTemplate}; creates the template and opens its page. */
function NewFromTemplateForm({ template, onCancel }: { template: TemplateListItem; onCancel: () => void }) {
  const router = useRouter();
  const create = useCreateTemplate();
  const [name, setName] = useState(`${template.name} (edited)`);
  const id = useId();
  return (
    <form
      className="flex flex-wrap items-center gap-2"
      onSubmit={(event) => {
        event.preventDefault();
        create.mutate(
          {
            name: name.trim(),
            family: template.family,
            role: template.role,
            strategy: template.strategy,
            text: template.latestVersion.text,
            message: `From ${template.name} v${template.latestVersion.number}`,
            parentId: template.latestVersion.id,
          },
          { onSuccess: ({ template: created }) => router.push(templateHref(created.id)) },
        );
      }}
    >
      <label htmlFor={id} className="sr-only">
        Name of the new template
      </label>
      <input id={id} autoFocus data-testid="new-template-name" className={cn(inputClass, "h-7 w-56 py-0 text-xs")} value={name} maxLength={120} onChange={(event) => setName(event.target.value)} />
      <Button type="submit" size="sm" variant="primary" disabled={name.trim() === "" || create.isPending} data-testid="new-template-create">
        {create.isPending ? "Creating…" : "Create"}
      </Button>
      <Button size="sm" variant="ghost" onClick={onCancel}>
        Cancel
      </Button>
      {create.error ? <Notice tone="error" className="w-full text-xs">Could not create it: {create.error.message}</Notice> : null}
    </form>
  );
}

/** One template row: name and id, built-in/source, labels, versions, newest version, actions. */
function TemplateRow({ template }: { template: TemplateListItem }) {
  const labels = Object.keys(template.labels).sort();
  return (
    <li className="flex flex-wrap items-center gap-x-4 gap-y-1.5 px-4 py-2.5" data-testid="template-row" data-template-id={template.id} data-built-in={template.builtIn}>
      <div className="min-w-0 flex-1">
        <div className="flex flex-wrap items-center gap-1.5">
          <Link href={templateHref(template.id)} className="text-sm font-medium text-sky-800 hover:underline" data-testid="open-template">
            {template.name}
          </Link>
          {template.builtIn ? (
            <Badge tone="outline" data-testid="built-in-badge" title="Seeded from the code; its versions are read-only. Save edits as a new template.">
              built-in · read-only
            </Badge>
          ) : null}
          <LabelChips labels={labels} />
        </div>
        <p className="mt-0.5 text-[11px] text-slate-500">
          <code className="font-mono">{template.id}</code>
          {template.source ? <span data-testid="template-source"> · from {template.source}</span> : null}
        </p>
      </div>
      <span className="text-xs tabular-nums text-slate-600" data-testid="template-version-count">
        {template.versionCount} {template.versionCount === 1 ? "version" : "versions"} · newest v{template.latestVersion.number}, {formatShortTime(template.latestVersion.createdAt)}
      </span>
      <NewFromTemplate template={template} compact />
    </li>
  );
}

function groupTitle(group: TemplateGroup): string {
  const strategy = group.strategy === null ? "any strategy" : strategyLabel(group.strategy, group.family);
  return `${TEMPLATE_ROLE_NAME[group.role]} · ${strategy}`;
}

/**
 * `/templates`: the template library by family × role × strategy — built-in
 * templates (read-only, with their source), templates made here, their
 * labels and version counts — and "New template from this" on any of them.
 */
export function TemplateLibrary() {
  const [family, setFamily] = useState<EnvironmentId | "all">("all");
  const list = useQuery(templateListQuery());
  const familyId = useId();
  const items = (list.data?.templates ?? []).filter((template) => family === "all" || template.family === family);
  const groups = groupTemplates(items);
  const families = [...new Set(groups.map((group) => group.family))];
  return (
    <main className="mx-auto w-full max-w-6xl flex-1 space-y-4 px-4 py-6" data-testid="template-library">
      <header className="space-y-1.5">
        <div className="flex flex-wrap items-center gap-3">
          <h1 className="text-lg font-semibold text-slate-900">Prompt templates</h1>
          <span className="ml-auto flex items-center gap-2 text-xs">
            <label htmlFor={familyId} className="text-slate-600">
              Family
            </label>
            <select id={familyId} data-testid="template-family-filter" className={cn(inputClass, "h-8 w-auto py-0 text-xs")} value={family} onChange={(event) => setFamily(event.target.value === "all" ? "all" : environmentIdSchema.parse(event.target.value))}>
              <option value="all">All families</option>
              {familyIds().map((id) => (
                <option key={id} value={id}>
                  {familyName(id)}
                </option>
              ))}
            </select>
          </span>
        </div>
        <p className="max-w-3xl text-xs leading-relaxed text-slate-600">
          Every prompt a run sends comes from a template: the Actor&apos;s, the Self-Reflection&apos;s and the memory summariser&apos;s, per task family and strategy. A
          template has immutable versions (saving never changes an earlier one) and labels such as <code className="font-mono">baseline</code> that can move
          between versions. Built-in templates are today&apos;s defaults and cite where their text comes from; start a new template from one, edit it, preview it
          on a recorded trial, and compare two versions by what they do to the next trials (A/B). From a terminal: <code className="font-mono text-[11px]">{CLI_EXAMPLE}</code>
        </p>
      </header>

      {list.isPending ? (
        <p className="flex items-center gap-2 text-sm text-slate-600">
          <Spinner /> Loading the library…
        </p>
      ) : list.error ? (
        <Notice tone="error">Could not load the template library: {list.error.message} Check that the server is running, then reload the page.</Notice>
      ) : groups.length === 0 ? (
        <EmptyState title="No templates here" action={<HowToLink list="templates">How to use the template library</HowToLink>}>
          {family === "all" ? "The library is empty: the server seeds the built-in templates on start; restart it." : "This family has no templates; pick another family."}
        </EmptyState>
      ) : (
        families.map((id) => (
          <section key={id} aria-labelledby={`family-${id}`} className="rounded-lg border border-slate-200 bg-white" data-testid="template-family" data-family={id}>
            <h2 id={`family-${id}`} className="border-b border-slate-200 px-4 py-2.5 text-sm font-semibold text-slate-900">
              {familyName(id)}
            </h2>
            {groups
              .filter((group) => group.family === id)
              .map((group) => (
                <div key={group.key} data-testid="template-group" data-role={group.role} data-strategy={group.strategy ?? ""}>
                  <h3 className="bg-slate-50 px-4 py-1.5 text-[11px] font-semibold uppercase tracking-wide text-slate-500">{groupTitle(group)}</h3>
                  <ul className="divide-y divide-slate-100">
                    {group.templates.map((template) => (
                      <TemplateRow key={template.id} template={template} />
                    ))}
                  </ul>
                </div>
              ))}
          </section>
        ))
      )}
    </main>
  );
}
