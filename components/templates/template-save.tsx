"use client";

import { useRouter } from "next/navigation";
import { useId, useState } from "react";
import type { Template, TemplateVersion } from "@/lib/domain/template-library";
import { templateHref, useCreateTemplate, useSaveVersion } from "@/lib/query/template-queries";
import { inputClass } from "@/components/home/form-field";
import { Button } from "@/components/ui/button";
import { Notice } from "@/components/ui/notice";
import { cn } from "@/lib/utils/cn";

/**
 * Saving the editor's text, which never changes a version in place: on a
 * template made here, "Save version" adds a version (parent: the version the
 * edit started from) with a message; on a built-in (read-only) template,
 * "Save as new template" creates a template whose first version's parent is
 * the built-in version, and opens it.
 */
export function SaveTemplate({
  template,
  base,
  draft,
  dirty,
  onSaved,
}: {
  template: Template;
  /** The version the edit started from. */
  base: TemplateVersion;
  draft: string;
  dirty: boolean;
  /** Called with the saved version (null when a new template was created and opened instead). */
  onSaved: (version: TemplateVersion | null) => void;
}) {
  const router = useRouter();
  const save = useSaveVersion(template.id);
  const create = useCreateTemplate();
  const [message, setMessage] = useState("");
  const [name, setName] = useState(`${template.name} (edited)`);
  const [notice, setNotice] = useState<string | null>(null);
  const ids = { message: useId(), name: useId() };
  const empty = draft.trim().length === 0;
  const pending = save.isPending || create.isPending;
  const error = save.error ?? create.error;

  // The server's template check (lib/domain/template-check.ts) refused placeholders: the person may keep them on purpose.
  const placeholderRefusal = error !== null && error.message.includes("allowUnknown");

  const submit = (allowUnknown = false) => {
    setNotice(null);
    const check = allowUnknown ? { allowUnknown: true } : {};
    if (template.builtIn) {
      create.mutate(
        { name: name.trim(), family: template.family, role: template.role, strategy: template.strategy, text: draft, message: message.trim(), parentId: base.id, ...check },
        { onSuccess: ({ template: created }) => router.push(templateHref(created.id)) },
      );
      return;
    }
    save.mutate(
      { text: draft, message: message.trim(), parentId: base.id, ...check },
      {
        onSuccess: ({ version, created }) => {
          setMessage("");
          setNotice(created ? `Saved as v${version.number}.` : `This text is already v${version.number}; nothing new was saved.`);
          onSaved(version);
        },
      },
    );
  };

  return (
    <form
      aria-label={template.builtIn ? "Save as a new template" : "Save a version"}
      className="flex flex-wrap items-end gap-2 rounded-md border border-slate-200 bg-slate-50 px-3 py-2"
      data-testid="save-template"
      onSubmit={(event) => {
        event.preventDefault();
        if (!empty && !pending && (dirty || template.builtIn) && (!template.builtIn || name.trim() !== "")) submit();
      }}
    >
      {template.builtIn ? (
        <label htmlFor={ids.name} className="space-y-0.5 text-[11px] text-slate-600">
          <span className="block">New template&apos;s name</span>
          <input id={ids.name} data-testid="save-template-name" className={cn(inputClass, "h-8 w-64 py-0 text-xs")} value={name} maxLength={120} onChange={(event) => setName(event.target.value)} />
        </label>
      ) : null}
      <label htmlFor={ids.message} className="min-w-64 flex-1 space-y-0.5 text-[11px] text-slate-600">
        <span className="block">Message (what changed and why)</span>
        <input
          id={ids.message}
          data-testid="save-version-message"
          className={cn(inputClass, "h-8 py-0 text-xs")}
          value={message}
          maxLength={500}
          placeholder="e.g. Ask for one concrete plan step"
          onChange={(event) => setMessage(event.target.value)}
        />
      </label>
      <Button
        type="submit"
        variant="primary"
        size="md"
        className="h-8"
        disabled={empty || pending || (!template.builtIn && !dirty) || (template.builtIn && name.trim() === "")}
        data-testid="save-version"
        title={template.builtIn ? "Built-in versions are read-only: this creates a new template from your text" : dirty ? undefined : "Change the text to save a new version"}
      >
        {pending ? "Saving…" : template.builtIn ? "Save as new template" : "Save version"}
      </Button>
      <p className="w-full text-[11px] text-slate-500">
        {template.builtIn
          ? "Built-in versions never change. Your text becomes the first version of a new template, with this version as its parent."
          : `Saving adds a version with v${base.number} as its parent; earlier versions never change.`}
        {empty ? <span className="ml-1 font-medium text-red-800">A template cannot be empty.</span> : null}
      </p>
      {notice ? (
        <p className="w-full text-[11px] font-medium text-green-800" data-testid="save-version-notice">
          {notice}
        </p>
      ) : null}
      {error ? (
        <Notice tone="error" className="w-full text-xs">
          Could not save: {error.message} Your text is still in the editor; fix the problem and save again.
          {placeholderRefusal ? (
            <Button size="sm" className="ml-2" data-testid="save-version-anyway" disabled={pending} onClick={() => submit(true)}>
              Save anyway
            </Button>
          ) : null}
        </Notice>
      ) : null}
    </form>
  );
}
