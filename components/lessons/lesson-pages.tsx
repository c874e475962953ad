"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useEffect } from "react";
import { isNotFound } from "@/lib/query";
import { lessonListQuery, lessonQuery } from "@/lib/query/lesson-queries";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/notice";
import { Spinner } from "@/components/ui/spinner";
import { LessonList } from "./lesson-list";
import { LessonPlayer } from "./lesson-player";
import { LessonImportButton } from "./authoring/lesson-import-button";

/** `/lessons`: the list, fetched from `GET /api/lessons`. */
export function LessonsPage() {
  const lessons = useQuery(lessonListQuery());
  if (lessons.error) {
    return (
      <EmptyState title="Could not load the lessons" action={<Button onClick={() => void lessons.refetch()}>Try again</Button>}>
        {lessons.error.message}
      </EmptyState>
    );
  }
  if (!lessons.data) {
    return (
      <div className="flex flex-1 items-center justify-center gap-2 text-sm text-slate-600">
        <Spinner /> Loading the lessons…
      </div>
    );
  }
  return <LessonList data={lessons.data} actions={<LessonImportButton />} />;
}

/** `/lessons/:id`: the lesson file from `GET /api/lessons/:id`, then the player; the tab's title is the lesson's. */
export function LessonPage({ lessonId }: { lessonId: string }) {
  const lesson = useQuery(lessonQuery(lessonId));
  const title = lesson.data?.lesson.title;
  useEffect(() => {
    if (title) document.title = `${title} · Reflexion Playground`;
  }, [title]);
  if (lesson.error) {
    return (
      <EmptyState
        title={isNotFound(lesson.error) ? "Lesson not found" : "Could not load this lesson"}
        action={
          <Link href="/lessons" className="text-sm font-medium text-sky-700 underline">
            All lessons
          </Link>
        }
      >
        {lesson.error.message}
      </EmptyState>
    );
  }
  if (!lesson.data) {
    return (
      <div className="flex flex-1 items-center justify-center gap-2 text-sm text-slate-600">
        <Spinner /> Loading the lesson…
      </div>
    );
  }
  return <LessonPlayer document={lesson.data} />;
}
