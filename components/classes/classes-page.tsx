"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter, useSearchParams } from "next/navigation";
import { useId, useState } from "react";
import { CLASS_MINUTES } from "@/lib/domain/class-session";
import { classKeys, classListQuery, createClass } from "@/lib/query/class-queries";
import { lessonListQuery } from "@/lib/query/lesson-queries";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Notice } from "@/components/ui/notice";
import { Spinner } from "@/components/ui/spinner";
import { storeTeacherSecret } from "./class-credentials";

/**
 * `/classes`: start a class for a lesson (`?lesson=<id>` preselects it: the lessons' "Teach as a
 * class" buttons link here) and the classes started so far, newest first. Starting stores the
 * teacher secret in this browser and opens the teacher console.
 */
export function ClassesPage() {
  const router = useRouter();
  const client = useQueryClient();
  const lessons = useQuery(lessonListQuery());
  const classes = useQuery(classListQuery());
  const preset = useSearchParams().get("lesson");
  const [lessonId, setLessonId] = useState<string | null>(null);
  const [minutes, setMinutes] = useState<number>(CLASS_MINUTES.default);
  const chosen = lessonId ?? preset ?? lessons.data?.lessons[0]?.lesson.id ?? "";
  const ids = { lesson: useId(), minutes: useId() };
  const start = useMutation({
    mutationFn: () => createClass({ lessonId: chosen, minutes }),
    onSuccess: (created) => {
      storeTeacherSecret(created.class.id, created.teacherSecret);
      void client.invalidateQueries({ queryKey: classKeys.list() });
      router.push(`/classes/${encodeURIComponent(created.class.id)}`);
    },
  });
  const minutesValid = Number.isInteger(minutes) && minutes >= CLASS_MINUTES.min && minutes <= CLASS_MINUTES.max;

  return (
    <div className="mx-auto w-full max-w-4xl px-4 py-6">
      <h1 className="text-xl font-semibold text-slate-900">Classes</h1>
      <p className="mt-1 max-w-2xl text-base text-slate-700">
        Teach a lesson to a room: students join on their phones with a code, answer the predictions and write reflections; you reveal the class&apos;s answers
        on the projector and run trial N+1 with the reflections you pick. Students need no account.
      </p>
      <form
        className="mt-4 flex flex-wrap items-end gap-3 rounded-lg border border-slate-200 bg-white p-4"
        onSubmit={(event) => {
          event.preventDefault();
          if (chosen && minutesValid) start.mutate();
        }}
        data-testid="class-start-form"
      >
        <label htmlFor={ids.lesson} className="flex min-w-0 flex-1 flex-col gap-1 text-base font-medium text-slate-800">
          Lesson
          <select
            id={ids.lesson}
            value={chosen}
            onChange={(event) => setLessonId(event.target.value)}
            className="h-10 min-w-0 rounded-md border border-slate-300 bg-white px-2 text-base text-slate-900"
            data-testid="class-lesson"
            disabled={!lessons.data}
          >
            {lessons.data?.lessons.map(({ lesson }) => (
              <option key={lesson.id} value={lesson.id}>
                {lesson.title}
              </option>
            ))}
          </select>
        </label>
        <label htmlFor={ids.minutes} className="flex flex-col gap-1 text-base font-medium text-slate-800">
          Minutes
          <input
            id={ids.minutes}
            type="number"
            min={CLASS_MINUTES.min}
            max={CLASS_MINUTES.max}
            value={Number.isNaN(minutes) ? "" : minutes}
            onChange={(event) => setMinutes(event.target.valueAsNumber)}
            className="h-10 w-24 rounded-md border border-slate-300 bg-white px-2 text-base text-slate-900"
            data-testid="class-minutes"
          />
        </label>
        <Button type="submit" variant="primary" className="h-10 px-4 text-base" disabled={!chosen || !minutesValid || start.isPending} data-testid="class-start">
          {start.isPending ? "Starting…" : "Start the class"}
        </Button>
        {!minutesValid ? (
          <p className="w-full text-base text-red-800">
            A class lasts {CLASS_MINUTES.min} to {CLASS_MINUTES.max} minutes.
          </p>
        ) : null}
        {start.error ? (
          <Notice tone="error" className="w-full text-base" data-testid="class-start-error">
            {start.error.message}
          </Notice>
        ) : null}
      </form>
      <h2 className="mt-6 text-lg font-semibold text-slate-900">Your classes</h2>
      {classes.error ? (
        <Notice tone="error" className="mt-2 text-base">
          {classes.error.message}
        </Notice>
      ) : !classes.data ? (
        <p className="mt-2 flex items-center gap-2 text-base text-slate-600">
          <Spinner /> Loading the classes…
        </p>
      ) : classes.data.classes.length === 0 ? (
        <p className="mt-2 text-base text-slate-700">No class yet: start one above, or with <code>cli class start --lesson &lt;id&gt;</code>.</p>
      ) : (
        <ul className="mt-2 flex flex-col gap-2" data-testid="class-list">
          {classes.data.classes.map((entry) => (
            <li key={entry.id} className="flex flex-wrap items-center gap-3 rounded-lg border border-slate-200 bg-white p-3 text-base" data-testid="class-item" data-class-id={entry.id}>
              <Link href={`/classes/${encodeURIComponent(entry.id)}`} className="min-w-0 flex-1 font-medium text-slate-900 underline">
                {entry.lessonTitle}
              </Link>
              <span className="font-mono text-slate-800">{entry.code}</span>
              <span className="text-slate-700">
                {entry.students} {entry.students === 1 ? "student" : "students"}
              </span>
              <Badge tone={entry.status === "ended" ? "neutral" : "sky"}>{entry.status}</Badge>
              <span className="text-slate-700">{new Date(entry.createdAt).toLocaleString()}</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
