import { z } from "zod";
import type { LessonDraft } from "@/lib/lessons/lesson-draft";
import { lessonEventKinds, type Lesson } from "@/lib/lessons/lesson-schema";

/**
 * Where the authoring page keeps a draft between reloads and for "Preview as a student": the tab's
 * sessionStorage (so a draft never outlives the tab nor reaches another person). The preview reads
 * the draft as it was when the button was pressed; nothing is saved on the server until Save.
 */

const PREFIX = "reflexion-playground.lesson-draft.";
/** The draft the preview page plays. */
const PREVIEW_KEY = "reflexion-playground.lesson-preview";

/**
 * A stored draft's lesson is checked for its shape only (its fields may be empty or wrong while being
 * written: the page shows those problems); strings where the schema has strings, a run, a steps list.
 */
const loosePosition = z.object({ event: z.enum(lessonEventKinds) }).loose();
const looseStep = z.object({ title: z.string(), narration: z.string(), cursor: loosePosition, spotlight: z.array(z.object({ kind: z.string(), trial: z.number() }).loose()) }).loose();
const looseLesson = z.object({ id: z.string(), title: z.string(), summary: z.string(), family: z.string(), minutes: z.number(), run: z.object({ kind: z.string() }).loose(), steps: z.array(looseStep) }).loose();
const draftLessonSchema = z.custom<Lesson>((value) => looseLesson.safeParse(value).success, "not a lesson draft");
const storedDraftSchema = z.object({ lesson: draftLessonSchema, introduction: z.string(), runId: z.string().min(1) });

function read(key: string): LessonDraft | null {
  try {
    const raw = window.sessionStorage.getItem(key);
    if (!raw) return null;
    const parsed = storedDraftSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

function write(key: string, draft: LessonDraft | null): void {
  try {
    if (draft) window.sessionStorage.setItem(key, JSON.stringify(draft));
    else window.sessionStorage.removeItem(key);
  } catch {
    // Storage full or disabled: the draft stays in the page only.
  }
}

/** The unsaved draft of one editor (`new:<runId>` or `edit:<lessonId>`), or null. */
export function readDraft(editorKey: string): LessonDraft | null {
  return read(`${PREFIX}${editorKey}`);
}

/** Keeps (or, with null, forgets) the unsaved draft of one editor. */
export function writeDraft(editorKey: string, draft: LessonDraft | null): void {
  write(`${PREFIX}${editorKey}`, draft);
}

/** The draft to preview, with the page to come back to. */
export function writePreview(draft: LessonDraft, back: string): void {
  try {
    window.sessionStorage.setItem(PREVIEW_KEY, JSON.stringify({ draft, back }));
  } catch {
    // Without storage the preview page says there is nothing to preview.
  }
}

/** The stored preview's text (a stable snapshot for useSyncExternalStore), or null. */
export function readPreviewText(): string | null {
  try {
    return window.sessionStorage.getItem(PREVIEW_KEY);
  } catch {
    return null;
  }
}

/** The draft to preview and where "Back to editing" goes, from {@link readPreviewText}'s text, or null. */
export function parsePreview(raw: string | null): { draft: LessonDraft; back: string } | null {
  try {
    if (!raw) return null;
    const parsed = z.object({ draft: storedDraftSchema, back: z.string().startsWith("/") }).safeParse(JSON.parse(raw));
    return parsed.success ? { draft: parsed.data.draft, back: parsed.data.back } : null;
  } catch {
    return null;
  }
}
