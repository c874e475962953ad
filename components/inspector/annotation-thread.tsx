"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import ReactMarkdown, { type Components } from "react-markdown";
import remarkGfm from "remark-gfm";
import { annotationTargetKinds, type Annotation, type AnnotationContent, type AnnotationTargetKind } from "@/lib/domain/annotations";
import { annotationsQuery, useAnnotationMutations } from "@/lib/query/annotation-queries";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { formatTime } from "@/components/ui/format";
import { Notice } from "@/components/ui/notice";
import { AnnotationForm, useAnnotationAuthor } from "./annotation-form";
import { Section } from "./blocks";

/** Element styles for a note's Markdown: the few elements comments use; links open nothing by themselves. */
const markdown: Components = {
  p: ({ children }) => <p className="mb-1 last:mb-0">{children}</p>,
  code: ({ children }) => <code className="rounded bg-slate-100 px-1 py-px font-mono text-[0.9em]">{children}</code>,
  pre: ({ children }) => <pre className="overflow-x-auto rounded bg-slate-100 p-2 text-xs">{children}</pre>,
  ul: ({ children }) => <ul className="mb-1 list-disc pl-5">{children}</ul>,
  ol: ({ children }) => <ol className="mb-1 list-decimal pl-5">{children}</ol>,
  // react-markdown's URL transform empties an unsafe href (`javascript:` …): show such a link as its text, not a link to this page.
  a: ({ children, href }) =>
    href ? (
      <a href={href} className="text-sky-700 underline" rel="noreferrer noopener nofollow" target="_blank">
        {children}
      </a>
    ) : (
      <span>{children}</span>
    ),
  table: ({ children }) => <table className="my-1 border-collapse text-xs [&_td]:border [&_td]:border-slate-200 [&_td]:px-1 [&_th]:border [&_th]:border-slate-200 [&_th]:px-1">{children}</table>,
};

/** A comment as text-safe Markdown: GitHub-flavoured (tables, lists, strikethrough), raw HTML dropped (`skipHtml`), URLs through react-markdown's safe transform. */
export function NoteText({ text }: { text: string }) {
  if (text.trim() === "") return null;
  return (
    <div className="break-words text-sm leading-snug text-slate-800" data-testid="annotation-body">
      <ReactMarkdown components={markdown} remarkPlugins={[remarkGfm]} skipHtml>
        {text}
      </ReactMarkdown>
    </div>
  );
}

/** A note's tags and score, as badges; nothing when it has neither. */
export function ContentMarks({ content }: { content: AnnotationContent }) {
  if (content.tags.length === 0 && !content.score) return null;
  return (
    <div className="flex flex-wrap items-center gap-1">
      {content.tags.map((tag) => (
        <Badge key={tag} tone="sky" data-testid="annotation-tag">
          #{tag}
        </Badge>
      ))}
      {content.score ? (
        <Badge tone="amber" data-testid="annotation-score">
          {content.score.scale} {content.score.value}
        </Badge>
      ) : null}
    </div>
  );
}

interface NoteActions {
  author: string | null;
  onAuthor: (name: string) => void;
  reply: (parent: Annotation, content: AnnotationContent, author: string) => Promise<unknown>;
  edit: (note: Annotation, content: AnnotationContent, author: string) => Promise<unknown>;
  remove: (note: Annotation, author: string) => Promise<unknown>;
}

/** One note with its replies below it (indented), and its reply / edit / delete controls. */
function Note({ note, replies, actions, depth }: { note: Annotation; replies: Map<string, Annotation[]>; actions: NoteActions; depth: number }) {
  const [mode, setMode] = useState<"view" | "reply" | "edit">("view");
  const [error, setError] = useState<string | null>(null);
  const children = replies.get(note.id) ?? [];
  const remove = async () => {
    if (!actions.author) {
      setError("Say who you are first: add a note or a reply with your name, then delete.");
      return;
    }
    if (!window.confirm("Delete this note? It stays in the log, marked as deleted by you.")) return;
    try {
      setError(null);
      await actions.remove(note, actions.author);
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : String(caught));
    }
  };
  return (
    <li className={depth > 0 ? "border-l-2 border-slate-200 pl-3" : undefined} data-testid="annotation" data-annotation-id={note.id} data-deleted={note.deleted || undefined}>
      <article className="space-y-1 py-1.5" aria-label={`Note by ${note.author}`}>
        <header className="flex flex-wrap items-baseline gap-x-2 text-xs text-slate-500">
          <span className="font-medium text-slate-800" data-testid="annotation-author-name">
            {note.author}
          </span>
          <time dateTime={note.createdAt}>{formatTime(note.createdAt)}</time>
          {!note.deleted && note.history.length > 0 ? (
            <span data-testid="annotation-edited">
              edited{note.updatedBy !== note.author ? ` by ${note.updatedBy}` : ""}
            </span>
          ) : null}
        </header>
        {note.deleted ? (
          <p className="text-xs italic text-slate-500" data-testid="annotation-deleted">
            Deleted by {note.updatedBy} ({formatTime(note.updatedAt)}).
          </p>
        ) : mode === "edit" ? (
          <AnnotationForm
            initial={note.content}
            submitLabel="Save edit"
            testId="annotation-edit-form"
            author={actions.author}
            onAuthor={actions.onAuthor}
            onSubmit={async (content, author) => {
              await actions.edit(note, content, author);
              setMode("view");
            }}
            onCancel={() => setMode("view")}
          />
        ) : (
          <>
            <NoteText text={note.content.text} />
            <ContentMarks content={note.content} />
          </>
        )}
        {note.history.length > 0 ? (
          <details className="text-xs text-slate-600" data-testid="annotation-history">
            <summary className="cursor-pointer select-none">Earlier versions ({note.history.length})</summary>
            <ol className="mt-1 space-y-1">
              {note.history.map((version) => (
                <li key={version.replacedAt} className="rounded border border-slate-200 bg-slate-50 p-1.5">
                  <p className="mb-0.5 text-[11px] text-slate-500">
                    replaced by {version.replacedBy} · {formatTime(version.replacedAt)}
                  </p>
                  <NoteText text={version.content.text} />
                  <ContentMarks content={version.content} />
                </li>
              ))}
            </ol>
          </details>
        ) : null}
        {!note.deleted && mode === "view" ? (
          <div className="flex gap-1">
            <Button size="sm" variant="ghost" onClick={() => setMode("reply")} data-testid="annotation-reply">
              Reply
            </Button>
            <Button size="sm" variant="ghost" onClick={() => setMode("edit")} data-testid="annotation-edit">
              Edit
            </Button>
            <Button size="sm" variant="ghost" onClick={() => void remove()} data-testid="annotation-delete">
              Delete
            </Button>
          </div>
        ) : null}
        {error ? (
          <Notice tone="error" className="text-xs">
            {error}
          </Notice>
        ) : null}
        {mode === "reply" ? (
          <AnnotationForm
            submitLabel="Reply"
            testId="annotation-reply-form"
            author={actions.author}
            onAuthor={actions.onAuthor}
            onSubmit={async (content, author) => {
              await actions.reply(note, content, author);
              setMode("view");
            }}
            onCancel={() => setMode("view")}
          />
        ) : null}
      </article>
      {children.length > 0 ? (
        <ol className="space-y-1" aria-label={`Replies to ${note.author}`}>
          {children.map((child) => (
            <Note key={child.id} note={child} replies={replies} actions={actions} depth={depth + 1} />
          ))}
        </ol>
      ) : null}
    </li>
  );
}

/** The annotation kind of a graph node type (the server reads the real kind from the event anyway). */
function kindOf(nodeType: string): AnnotationTargetKind {
  return (annotationTargetKinds as readonly string[]).includes(nodeType) ? (nodeType as AnnotationTargetKind) : "run";
}

/**
 * The inspector's "Notes" section for one node: its thread (Markdown shown text-safe, author, time,
 * tags, score, "edited" with earlier versions, deleted notes as "Deleted by X"), and forms to add,
 * reply, edit and delete. Reads the branch's one annotation list (shared with the graph's badges).
 */
export function AnnotationThread({ runId, branchId, eventId, nodeType }: { runId: string; branchId: string | null; eventId: string; nodeType: string }) {
  const list = useQuery(annotationsQuery(runId, branchId));
  const { create, change } = useAnnotationMutations(runId);
  const [author, setAuthor] = useAnnotationAuthor();
  const notes = (list.data?.annotations ?? []).filter((annotation) => annotation.target.eventId === eventId);
  const ids = new Set(notes.map((note) => note.id));
  const replies = new Map<string, Annotation[]>();
  const roots: Annotation[] = [];
  for (const note of notes) {
    if (note.parentId !== null && ids.has(note.parentId)) replies.set(note.parentId, [...(replies.get(note.parentId) ?? []), note]);
    else roots.push(note);
  }
  const branch = list.data?.branchId ?? branchId ?? "";
  const target = { branchId: branch, eventId, kind: kindOf(nodeType), trial: null, step: null, seq: null };
  const actions: NoteActions = {
    author,
    onAuthor: setAuthor,
    reply: (parent, content, writer) => create.mutateAsync({ target, parentId: parent.id, author: writer, content }),
    edit: (note, content, writer) => change.mutateAsync({ annotationId: note.id, request: { author: writer, content } }),
    remove: (note, writer) => change.mutateAsync({ annotationId: note.id, request: { author: writer, delete: true } }),
  };
  const live = notes.filter((note) => !note.deleted).length;

  return (
    <Section title={`Notes${live > 0 ? ` (${live})` : ""}`}>
      <div data-testid="annotation-thread" className="space-y-2">
        {list.isPending ? <p className="text-xs text-slate-500">Loading notes…</p> : null}
        {list.error ? (
          <Notice tone="error" className="text-xs">
            Could not load the notes: {list.error.message}
          </Notice>
        ) : null}
        {list.data && roots.length === 0 ? (
          <p className="text-xs text-slate-500" data-testid="annotation-empty">
            No notes on this node yet.
          </p>
        ) : null}
        {roots.length > 0 ? (
          <ol className="divide-y divide-slate-100" aria-label="Notes on this node">
            {roots.map((note) => (
              <Note key={note.id} note={note} replies={replies} actions={actions} depth={0} />
            ))}
          </ol>
        ) : null}
        {list.data ? (
          <AnnotationForm
            submitLabel="Add note"
            testId="annotation-form"
            author={author}
            onAuthor={setAuthor}
            onSubmit={(content, writer) => create.mutateAsync({ target, parentId: null, author: writer, content })}
          />
        ) : null}
      </div>
    </Section>
  );
}
