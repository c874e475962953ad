import Link from "next/link";
import type { ReactNode } from "react";
import type { LessonListResponse } from "@/lib/lessons/lesson-schema";
import { Badge } from "@/components/ui/badge";
import { Notice } from "@/components/ui/notice";
import { HowToLink } from "@/components/help/how-to-link";
import { LESSON_KEYS } from "./use-lesson-keys";
import { DEMO_MODEL_NOTE } from "@/lib/domain/model-id";
import { familyDescriptor } from "@/lib/environments/descriptors";
import { TeachAsClassLink } from "@/components/classes/teach-as-class-link";

/**
 * The Lessons page's list: each lesson with its family, length and
 * number of predictions, "Present" (presenter mode), "Open" ("Edit" for a lesson written in the app) and
 * "Teach as a class"; files that failed validation are listed with what is wrong. A server component:
 * plain data in (`actions`: the page's buttons beside the title).
 */
export function LessonList({ data, actions }: { data: LessonListResponse; actions?: ReactNode }) {
  return (
    <div className="mx-auto w-full max-w-4xl px-4 py-6">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <h1 className="text-lg font-semibold text-slate-900">Lessons</h1>
        {actions}
      </div>
      <p className="mt-1 max-w-2xl text-sm text-slate-600">
        Short narrated walks through real runs: each step moves the run to a moment, spotlights the nodes that matter, and sometimes asks you to
        predict what happens next before it shows you. The runs are made with the offline demo model ({DEMO_MODEL_NOTE}) on first use.
        Present them from a clicker: PageDown / PageUp step, Esc leaves the lesson to explore the run.
      </p>
      {data.problems.length > 0 ? (
        <Notice tone="warning" className="mt-4" title="Some lesson files could not be read" data-testid="lesson-problems">
          <ul className="list-disc pl-5">
            {data.problems.map((problem) => (
              <li key={problem.file}>{problem.message}</li>
            ))}
          </ul>
        </Notice>
      ) : null}
      {data.lessons.length === 0 ? (
        <p className="mt-6 text-sm text-slate-600">
          No lessons yet. Author one from a run (Share → Author a lesson), import a lesson file, or add one to the lessons/ folder.{" "}
          <HowToLink list="lessons">
            How to write a lesson
          </HowToLink>
        </p>
      ) : (
        <ul className="mt-4 flex flex-col gap-3" data-testid="lesson-list">
          {data.lessons.map(({ lesson, source }) => {
            const questions = lesson.steps.filter((step) => step.question).length;
            const href = `/lessons/${encodeURIComponent(lesson.id)}`;
            return (
              <li key={lesson.id} className="rounded-lg border border-slate-200 bg-white p-4" data-testid="lesson-item" data-lesson-id={lesson.id}>
                <div className="flex flex-wrap items-start justify-between gap-3">
                  <div className="min-w-0 flex-1">
                    <h2 className="text-base font-semibold text-slate-900">
                      <Link href={href} className="hover:underline">
                        {lesson.title}
                      </Link>
                    </h2>
                    <p className="mt-1 text-sm text-slate-600">{lesson.summary}</p>
                    <p className="mt-2 flex flex-wrap gap-1.5">
                      <Badge tone="sky">{familyDescriptor(lesson.family).shortLabel}</Badge>
                      <Badge tone="outline">
                        {lesson.steps.length} steps · about {lesson.minutes} min
                      </Badge>
                      {questions > 0 ? <Badge tone="violet">{questions} predictions</Badge> : null}
                      {lesson.run.kind === "imported" ? <Badge tone="amber">the authors&apos; 2023 run</Badge> : lesson.run.kind === "stored" ? <Badge tone="neutral">a stored run</Badge> : <Badge tone="neutral">demo model</Badge>}
                      {source === "authored" ? <Badge tone="violet">written in the app</Badge> : null}
                    </p>
                  </div>
                  <div className="flex flex-none flex-wrap gap-2">
                    {source === "authored" ? (
                      <Link href={`${href}/edit`} className="rounded-md border border-slate-300 px-3 py-1.5 text-sm font-medium text-slate-800 hover:bg-slate-50" data-testid="lesson-edit">
                        Edit
                      </Link>
                    ) : null}
                    <Link href={href} className="rounded-md border border-slate-300 px-3 py-1.5 text-sm font-medium text-slate-800 hover:bg-slate-50" data-testid="lesson-open">
                      Open
                    </Link>
                    <Link href={`${href}?present=1`} className="rounded-md bg-slate-900 px-3 py-1.5 text-sm font-medium text-white hover:bg-slate-700" data-testid="lesson-present">
                      Present
                    </Link>
                    <TeachAsClassLink lessonId={lesson.id} />
                  </div>
                </div>
              </li>
            );
          })}
        </ul>
      )}
      <section className="mt-6 rounded-lg border border-slate-200 bg-slate-50 p-4 text-sm text-slate-700">
        <h2 className="font-semibold text-slate-900">Keys in a lesson</h2>
        <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
          {LESSON_KEYS.map((entry) => (
            <div key={entry.keys} className="contents">
              <dt className="font-mono">{entry.keys}</dt>
              <dd>{entry.does}</dd>
            </div>
          ))}
        </dl>
      </section>
    </div>
  );
}
