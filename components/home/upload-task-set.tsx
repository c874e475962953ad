"use client";

import { useId, useRef } from "react";
import type { TaskListResponse } from "@/lib/domain/api";
import type { EnvironmentId } from "@/lib/domain/config";
import { useUploadTaskSet } from "@/lib/query";
import { Notice } from "@/components/ui/notice";
import { Spinner } from "@/components/ui/spinner";
import { familyDescriptor } from "@/lib/environments/descriptors";

/** Upload a dataset file (HotpotQA JSON; code: HumanEval/MBPP/MultiPL-E/HumanEval-X JSONL, .gz too); reports how many tasks loaded and what was skipped. */
export function UploadTaskSet({
  environment,
  formats,
  onUploaded,
}: {
  environment: EnvironmentId;
  formats: string;
  onUploaded: (response: TaskListResponse) => void;
}) {
  const upload = useUploadTaskSet(environment);
  const input = useRef<HTMLInputElement>(null);
  const inputId = useId();
  // Grid items of the task-set row: the button beside the picker, the messages below both.
  return (
    <>
      <label
        htmlFor={inputId}
        className="inline-flex h-8.5 cursor-pointer items-center gap-1.5 rounded-md border border-slate-300 bg-white px-2.5 text-xs font-medium text-slate-800 hover:bg-slate-50 has-[:focus-visible]:outline has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-sky-600"
      >
        {upload.isPending ? <Spinner className="size-3" label="Uploading" /> : <span aria-hidden>⤒</span>}
        <span title={formats}>{familyDescriptor(environment).upload.buttonLabel}</span>
        <input
          ref={input}
          id={inputId}
          type="file"
          accept={familyDescriptor(environment).upload.accept}
          className="sr-only"
          data-testid="upload-task-set"
          onChange={(event) => {
            const file = event.target.files?.[0];
            if (!file) return;
            upload.mutate(file, {
              onSuccess: (response) => onUploaded(response),
              onSettled: () => {
                if (input.current) input.current.value = "";
              },
            });
          }}
        />
      </label>
      {upload.error ? (
        <Notice tone="error" data-testid="upload-error" className="col-span-2">
          {upload.error.message}
        </Notice>
      ) : null}
      {upload.data ? (
        <Notice
          tone={upload.data.tasks.length === 0 ? "error" : upload.data.problems.length > 0 ? "warning" : "success"}
          data-testid="upload-result"
          className="col-span-2"
        >
          Loaded {upload.data.tasks.length} {upload.data.tasks.length === 1 ? "task" : "tasks"} from {upload.data.taskSet.name}
          {upload.data.problems.length > 0 ? `; ${upload.data.problems.length} skipped:` : "."}
          {upload.data.problems.length > 0 ? (
            <ul className="mt-1 max-h-28 list-disc overflow-auto pl-5 text-xs" data-testid="upload-problems">
              {upload.data.problems.map((problem, index) => (
                <li key={index}>{problem}</li>
              ))}
            </ul>
          ) : null}
        </Notice>
      ) : null}
    </>
  );
}

