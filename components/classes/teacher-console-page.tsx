"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useSearchParams } from "next/navigation";
import { ApiRequestError } from "@/lib/query/fetch-json";
import { classTeacherQuery } from "@/lib/query/class-queries";
import { useClassStream } from "@/lib/query/class-stream";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/notice";
import { Spinner } from "@/components/ui/spinner";
import { TeacherConsole } from "./teacher-console";
import { useTeacherSecret } from "./use-teacher-secret";

function NoSecret({ detail }: { detail?: string }) {
  return (
    <EmptyState
      title="This browser does not hold the teacher link of this class"
      action={
        <Link href="/classes" className="text-base font-medium text-sky-700 underline">
          Classes
        </Link>
      }
    >
      <span data-testid="class-no-secret">
        {detail ? `${detail} ` : ""}Open the teacher link that <code>cli class start</code> printed (it ends with <code>#teacher=…</code>), or use the browser that
        started the class. Students join at <code>/join</code> instead.
      </span>
    </EmptyState>
  );
}

/**
 * `/classes/<id>[?view=projector]`: takes the teacher secret from the link's fragment or this
 * browser's storage, follows the class stream and shows the console (or the projector).
 */
export function TeacherConsolePage({ classId }: { classId: string }) {
  const secret = useTeacherSecret(classId);
  const projector = useSearchParams().get("view") === "projector";
  const view = useQuery(classTeacherQuery(classId, secret ?? null, projector));
  useClassStream(classId, typeof secret === "string");
  if (secret === null) return <NoSecret />;
  if (view.error) {
    if (view.error instanceof ApiRequestError && view.error.status === 403) return <NoSecret detail={view.error.message} />;
    return (
      <EmptyState title="Could not load this class" action={<Button onClick={() => void view.refetch()}>Try again</Button>}>
        <span data-testid="class-load-error">{view.error.message}</span>
      </EmptyState>
    );
  }
  if (!view.data || !secret) {
    return (
      <div className="flex flex-1 items-center justify-center gap-2 text-base text-slate-600">
        <Spinner /> Loading the class…
      </div>
    );
  }
  return <TeacherConsole view={view.data} secret={secret} projector={projector} />;
}
