"use client";

import { useId, useState, useSyncExternalStore, type FormEvent } from "react";
import { SCORE_SCALES, type AnnotationContent } from "@/lib/domain/annotations";
import { Button } from "@/components/ui/button";
import { Notice } from "@/components/ui/notice";

/** Where this browser keeps the name a person writes notes under (asked once). */
export const AUTHOR_STORAGE_KEY = "reflexion.annotation-author";

/** Who listens for a change of the name (every open note form), and the name when storage is blocked. */
const listeners = new Set<() => void>();
let unstoredName: string | null = null;

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  window.addEventListener("storage", listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener("storage", listener);
  };
}

function storedName(): string | null {
  try {
    return window.localStorage.getItem(AUTHOR_STORAGE_KEY)?.trim() || unstoredName;
  } catch {
    return unstoredName;
  }
}

/**
 * The name notes are written under, from this browser's localStorage (no accounts in embedded mode):
 * null until the person gives one (and on the server render). `setAuthor` stores it for next time.
 */
export function useAnnotationAuthor(): [string | null, (name: string) => void] {
  const author = useSyncExternalStore(subscribe, storedName, () => null);
  const setAuthor = (name: string) => {
    const trimmed = name.trim();
    unstoredName = trimmed || null;
    try {
      if (trimmed) window.localStorage.setItem(AUTHOR_STORAGE_KEY, trimmed);
      else window.localStorage.removeItem(AUTHOR_STORAGE_KEY);
    } catch {
      // Storage blocked (private mode): kept for this page only.
    }
    for (const listener of listeners) listener();
  };
  return [author, setAuthor];
}

/** Tags as typed: split on commas and spaces, lower-cased, without repeats (the server checks their shape). */
export function parseTags(text: string): string[] {
  return [...new Set(text.split(/[\s,]+/u).map((tag) => tag.trim().toLowerCase()).filter(Boolean))];
}

const EMPTY: AnnotationContent = { text: "", tags: [], score: null };
/** The server's tag shape (lib/domain/annotations.ts `annotationTagSchema`), checked before sending so the form can say which tag is wrong. */
const TAG_SHAPE = /^[a-z0-9][a-z0-9_-]{0,39}$/u;

/**
 * The form that writes a note, a reply or an edit: the comment (Markdown), tags, a score on one of
 * {@link SCORE_SCALES}, and — the first time in this browser — the author's name. `onSubmit`
 * rejects with a message to show (the server's, e.g. an unknown tag shape); the text is kept then.
 */
export function AnnotationForm({
  initial = EMPTY,
  submitLabel,
  author,
  onAuthor,
  onSubmit,
  onCancel,
  testId,
}: {
  initial?: AnnotationContent;
  submitLabel: string;
  author: string | null;
  onAuthor: (name: string) => void;
  onSubmit: (content: AnnotationContent, author: string) => Promise<unknown>;
  onCancel?: () => void;
  testId: string;
}) {
  const id = useId();
  const [text, setText] = useState(initial.text);
  const [tags, setTags] = useState(initial.tags.join(", "));
  const [scale, setScale] = useState(initial.score?.scale ?? "");
  const [value, setValue] = useState(initial.score ? String(initial.score.value) : "");
  const [name, setName] = useState("");
  const [changingName, setChangingName] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const chosen = SCORE_SCALES.find((candidate) => candidate.name === scale) ?? null;
  const askName = author === null || changingName;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const writer = askName ? name.trim() : author;
    if (!writer) return setError("Say who you are: type your name (it is kept in this browser for your next notes).");
    if (text.trim() === "" && parseTags(tags).length === 0 && !chosen) return setError("Write a comment, a tag or a score.");
    const badTag = parseTags(tags).find((tag) => !TAG_SHAPE.test(tag));
    if (badTag) return setError(`“${badTag}” is not a tag: a tag is 1–40 letters, digits, - or _ (e.g. loop, false-positive).`);
    if (chosen && value === "") return setError(`Pick a ${chosen.name} score (${chosen.min}–${chosen.max}) or choose “No score”.`);
    setError(null);
    setBusy(true);
    try {
      await onSubmit({ text, tags: parseTags(tags), score: chosen ? { scale: chosen.name, value: Number(value) } : null }, writer);
      if (askName) {
        onAuthor(writer);
        setChangingName(false);
      }
      if (initial === EMPTY) {
        setText("");
        setTags("");
        setScale("");
        setValue("");
      }
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : String(caught));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={(event) => void submit(event)} className="space-y-2 rounded-md border border-slate-200 bg-slate-50 p-2" data-testid={testId} aria-label={submitLabel}>
      {askName ? (
        <div className="space-y-1">
          <label htmlFor={`${id}-name`} className="block text-xs font-medium text-slate-700">
            Your name <span className="font-normal text-slate-500">(kept in this browser; shown on your notes)</span>
          </label>
          <input id={`${id}-name`} data-testid="annotation-author" value={name} onChange={(event) => setName(event.target.value)} maxLength={60} autoComplete="name" className="w-full rounded border border-slate-300 bg-white px-2 py-1 text-sm" />
        </div>
      ) : (
        <p className="text-xs text-slate-500">
          Writing as <span className="font-medium text-slate-700">{author}</span> ·{" "}
          <button type="button" className="text-sky-700 underline" onClick={() => setChangingName(true)} data-testid="annotation-change-author">
            not you?
          </button>
        </p>
      )}
      <div className="space-y-1">
        <label htmlFor={`${id}-text`} className="block text-xs font-medium text-slate-700">
          Comment <span className="font-normal text-slate-500">(Markdown)</span>
        </label>
        <textarea id={`${id}-text`} data-testid="annotation-text" value={text} onChange={(event) => setText(event.target.value)} rows={3} maxLength={10_000} className="w-full rounded border border-slate-300 bg-white px-2 py-1 text-sm" />
      </div>
      <div className="grid grid-cols-1 gap-2 sm:grid-cols-2">
        <div className="space-y-1">
          <label htmlFor={`${id}-tags`} className="block text-xs font-medium text-slate-700">
            Tags <span className="font-normal text-slate-500">(separated by commas or spaces, e.g. loop, false-positive)</span>
          </label>
          <input
            id={`${id}-tags`}
            data-testid="annotation-tags"
            value={tags}
            onChange={(event) => setTags(event.target.value)}
            aria-describedby={`${id}-tags-preview`}
            className="w-full rounded border border-slate-300 bg-white px-2 py-1 text-sm"
          />
          {/* Spaces split tags too: show what will be stored, so "bad tag" visibly becomes two tags. */}
          <p id={`${id}-tags-preview`} className="text-xs text-slate-600" data-testid="annotation-tags-preview" aria-live="polite">
            {parseTags(tags).length > 0 ? `Saved as: ${parseTags(tags).map((tag) => `#${tag}`).join(" ")}` : ""}
          </p>
        </div>
        <fieldset className="space-y-1">
          <legend className="text-xs font-medium text-slate-700">Score</legend>
          <div className="flex gap-1">
            <select
              aria-label="Score scale"
              data-testid="annotation-score-scale"
              value={scale}
              onChange={(event) => {
                setScale(event.target.value);
                setValue("");
              }}
              className="min-w-0 flex-1 rounded border border-slate-300 bg-white px-1 py-1 text-sm"
            >
              <option value="">No score</option>
              {SCORE_SCALES.map((candidate) => (
                <option key={candidate.name} value={candidate.name} title={candidate.description}>
                  {candidate.name} ({candidate.min}–{candidate.max})
                </option>
              ))}
            </select>
            {chosen ? (
              <select aria-label={`${chosen.name} score: ${chosen.description}`} data-testid="annotation-score-value" value={value} onChange={(event) => setValue(event.target.value)} className="rounded border border-slate-300 bg-white px-1 py-1 text-sm">
                <option value="">–</option>
                {Array.from({ length: chosen.max - chosen.min + 1 }, (_, index) => chosen.min + index).map((score) => (
                  <option key={score} value={score}>
                    {score}
                  </option>
                ))}
              </select>
            ) : null}
          </div>
          {chosen ? <p className="text-[11px] text-slate-500">{chosen.description}</p> : null}
        </fieldset>
      </div>
      {error ? (
        <Notice tone="error" className="text-xs" data-testid="annotation-error">
          {error}
        </Notice>
      ) : null}
      <div className="flex gap-2">
        <Button type="submit" variant="primary" size="sm" disabled={busy} data-testid={`${testId}-submit`}>
          {busy ? "Saving…" : submitLabel}
        </Button>
        {onCancel ? (
          <Button size="sm" variant="ghost" onClick={onCancel}>
            Cancel
          </Button>
        ) : null}
      </div>
    </form>
  );
}
