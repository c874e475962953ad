"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useEffect, useState } from "react";
import { ApiRequestError } from "@/lib/query/fetch-json";
import { classKeys, classStudentQuery } from "@/lib/query/class-queries";
import { useClassStream } from "@/lib/query/class-stream";
import { LessonMarkdown } from "@/components/lessons/lesson-markdown";
import { Button } from "@/components/ui/button";
import { EmptyState, Notice } from "@/components/ui/notice";
import { Spinner } from "@/components/ui/spinner";
import { forgetStudentCredentials, readStudentCredentials, type StudentCredentials } from "./class-credentials";
import { ClassForks } from "./class-forks";
import { StudentQuestion } from "./student-question";
import { StudentReflection } from "./student-reflection";

function NotJoined({ detail }: { detail?: string }) {
  return (
    <EmptyState
      title="You have not joined this class on this phone"
      action={
        <Link href="/join" className="rounded-md bg-slate-900 px-4 py-3 text-lg font-medium text-white" data-testid="student-join-again">
          Join with the code
        </Link>
      }
    >
      <span className="text-base" data-testid="student-not-joined">
        {detail ? `${detail} ` : ""}Type the code on the projector and pick a nickname.
      </span>
    </EmptyState>
  );
}

/**
 * `/class/<id>`: a student's phone page. Follows the teacher's step through the class stream:
 * the step's title and narration, the question to answer, the reflection to write, the forks'
 * results, the score, and "The class has ended" at the end. Needs the token this browser got
 * when it joined; without it (or when the server no longer knows it) it sends the student to /join.
 */
export function StudentClassPage({ classId }: { classId: string }) {
  const client = useQueryClient();
  const [credentials, setCredentials] = useState<StudentCredentials | null | undefined>(undefined);
  useEffect(() => {
    // The token lives in this browser's storage: read once after mount.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    setCredentials(readStudentCredentials(classId));
  }, [classId]);
  const token = credentials?.token ?? null;
  const view = useQuery(classStudentQuery(classId, token));
  // 250–750 ms after a change: thirty phones spread their refetches instead of asking at once.
  const [delayMs] = useState(() => 250 + Math.round(Math.random() * 500));
  useClassStream(classId, token !== null, delayMs);
  const refused = view.error instanceof ApiRequestError && view.error.status === 403;
  useEffect(() => {
    if (refused) forgetStudentCredentials(classId);
  }, [refused, classId]);
  const onSaved = () => void client.invalidateQueries({ queryKey: classKeys.student(classId) });

  if (credentials === null) return <NotJoined />;
  if (refused) return <NotJoined detail={view.error?.message} />;
  if (view.error) {
    return (
      <EmptyState title="Could not load the class" action={<Button onClick={() => void view.refetch()}>Try again</Button>}>
        <span className="text-base" data-testid="student-load-error">
          {view.error.message}
        </span>
      </EmptyState>
    );
  }
  if (!view.data || !token) {
    return (
      <div className="flex flex-1 items-center justify-center gap-2 text-base text-slate-700">
        <Spinner /> Joining the class…
      </div>
    );
  }
  const data = view.data;
  const ended = data.status === "ended";
  return (
    <div className="mx-auto flex w-full max-w-xl flex-col px-4 py-4" data-testid="student-class" data-status={data.status} data-step={data.step.index}>
      <p className="text-base text-slate-700">
        You are <strong className="text-slate-900" data-testid="student-nickname">{data.nickname}</strong> · step {data.step.index + 1}
      </p>
      {ended ? (
        <Notice tone="warning" className="mt-3 text-lg" data-testid="student-ended" title="The class has ended">
          Thank you for taking part. Your answers stay with the teacher&apos;s class.
        </Notice>
      ) : null}
      <h1 className="mt-2 text-2xl font-semibold text-slate-900" data-testid="student-step-title">
        {data.step.title}
      </h1>
      <LessonMarkdown text={data.step.narration} className="mt-1 text-base" />
      <StudentQuestion key={`q-${data.step.index}`} view={data} token={token} onSaved={onSaved} />
      <StudentReflection key={`r-${data.step.index}`} view={data} token={token} onSaved={onSaved} />
      {data.forks.length > 0 ? <ClassForks forks={data.forks} large={false} /> : null}
      <p className="mt-4 rounded-lg border border-slate-200 bg-white p-3 text-lg text-slate-900" data-testid="student-score">
        Your score: <strong>{data.score.correct}</strong> of {data.score.answered} revealed {data.score.answered === 1 ? "prediction" : "predictions"} right
      </p>
    </div>
  );
}
