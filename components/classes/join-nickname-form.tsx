"use client";

import { useMutation, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect, useId, useState } from "react";
import { NICKNAME_MAX } from "@/lib/domain/class-session";
import { ApiRequestError } from "@/lib/query/fetch-json";
import { classByCodeQuery, joinClass } from "@/lib/query/class-queries";
import { Button } from "@/components/ui/button";
import { Notice } from "@/components/ui/notice";
import { Spinner } from "@/components/ui/spinner";
import { readStudentCredentials, storeStudentCredentials, type StudentCredentials } from "./class-credentials";

/** A join failure in words a student can act on (the server's message, with what to do for the common cases). */
export function joinErrorText(error: Error): string {
  if (!(error instanceof ApiRequestError)) return error.message;
  if (error.status === 429) return `Too many tries from this network right now: wait a minute, then try again. (${error.message})`;
  if (error.status === 0) return "Could not reach the class: check that your phone is on the same network as the teacher's laptop, then try again.";
  return error.message;
}

/**
 * `/join/<CODE>`: the class the code opens (or "No class with code X: check the code on the
 * projector"), a nickname field, and Join: the token the server returns is kept in this browser
 * and the student goes to `/class/<id>`. A browser that already joined is offered to continue.
 */
export function JoinNicknameForm({ code }: { code: string }) {
  const router = useRouter();
  const target = useQuery(classByCodeQuery(code));
  const [nickname, setNickname] = useState("");
  const [existing, setExisting] = useState<StudentCredentials | null>(null);
  const id = useId();
  const classId = target.data?.classId;
  useEffect(() => {
    // This browser's stored membership is only known after mount.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    if (classId) setExisting(readStudentCredentials(classId));
  }, [classId]);
  const join = useMutation({
    mutationFn: () => joinClass(code, nickname.trim()),
    onSuccess: (joined) => {
      storeStudentCredentials(joined.classId, { token: joined.studentToken, nickname: joined.nickname });
      router.push(`/class/${encodeURIComponent(joined.classId)}`);
    },
  });
  const trimmed = nickname.trim();

  return (
    <div className="mx-auto flex w-full max-w-md flex-col gap-4 px-4 py-8">
      <h1 className="text-2xl font-semibold text-slate-900">Join a class</h1>
      {target.error ? (
        <Notice tone="error" className="text-base" data-testid="join-error">
          {joinErrorText(target.error)}{" "}
          <Link href="/join" className="underline">
            Type the code again
          </Link>
        </Notice>
      ) : !target.data ? (
        <p className="flex items-center gap-2 text-base text-slate-700">
          <Spinner /> Looking for class {code}…
        </p>
      ) : target.data.status === "ended" ? (
        <Notice tone="warning" className="text-base" data-testid="join-error">
          The class “{target.data.lessonTitle}” has ended: ask your teacher for the new code.
        </Notice>
      ) : (
        <>
          <p className="text-lg text-slate-800" data-testid="join-lesson">
            {target.data.lessonTitle}
          </p>
          {existing ? (
            <Link href={`/class/${encodeURIComponent(target.data.classId)}`} className="rounded-md border border-slate-300 px-3 py-3 text-center text-lg font-medium text-slate-900" data-testid="join-continue">
              Continue as {existing.nickname}
            </Link>
          ) : null}
          <form
            className="flex flex-col gap-3"
            onSubmit={(event) => {
              event.preventDefault();
              if (trimmed && !join.isPending) join.mutate();
            }}
            data-testid="join-nickname-form"
          >
            <label htmlFor={id} className="text-lg text-slate-800">
              Your nickname (the teacher sees it; the projector and other students do not)
            </label>
            <input
              id={id}
              value={nickname}
              onChange={(event) => setNickname(event.target.value)}
              maxLength={NICKNAME_MAX}
              autoComplete="off"
              className="h-14 rounded-md border border-slate-300 bg-white px-3 text-xl text-slate-900"
              data-testid="join-nickname"
            />
            <Button type="submit" variant="primary" className="h-14 text-lg" disabled={!trimmed || join.isPending} data-testid="join-submit">
              {join.isPending ? "Joining…" : "Join"}
            </Button>
            {join.error ? (
              <Notice tone="error" className="text-base" data-testid="join-error">
                {joinErrorText(join.error)}
              </Notice>
            ) : null}
          </form>
        </>
      )}
    </div>
  );
}
