"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { importLessonFile } from "./lesson-file-actions";

/**
 * "Import a lesson" on the Lessons page: a `.md` lesson file (from Export, or a file of another
 * installation's lessons folder) stored as a lesson written in the app, then opened in the editor.
 * A file that does not validate is refused with what is wrong (by file, step and field); nothing is stored.
 */
export function LessonImportButton() {
  const input = useRef<HTMLInputElement>(null);
  const router = useRouter();
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const onFile = async (file: File | undefined) => {
    if (!file) return;
    setBusy(true);
    setError(null);
    try {
      const imported = await importLessonFile(file);
      await queryClient.invalidateQueries({ queryKey: ["lessons"] });
      router.push(`/lessons/${encodeURIComponent(imported.lesson.lesson.id)}/edit?imported=1${imported.renamedFrom ? `&renamedFrom=${encodeURIComponent(imported.renamedFrom)}` : ""}`);
    } catch (failure) {
      setError(`${file.name}: ${failure instanceof Error ? failure.message : String(failure)}`);
    } finally {
      setBusy(false);
      if (input.current) input.current.value = "";
    }
  };
  return (
    <div className="flex flex-col items-end gap-1">
      <Button size="sm" onClick={() => input.current?.click()} disabled={busy} data-testid="lessons-import">
        {busy ? "Importing…" : "Import a lesson (.md)"}
      </Button>
      <input ref={input} type="file" accept=".md,text/markdown,text/plain" className="hidden" data-testid="lessons-import-file" onChange={(event) => void onFile(event.target.files?.[0])} />
      {error ? (
        <p role="alert" className="max-w-sm text-right text-xs text-red-700" data-testid="lessons-import-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}
