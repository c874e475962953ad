import { notFound } from "next/navigation";
import { isAppError } from "@/lib/domain/errors";
import { getServerContext } from "@/lib/server/app-context";
import { getLessonService } from "@/lib/server/lesson-service";
import { decodeParam } from "@/lib/server/template-service";

// The one server module that server pages and layouts (app/**/page.tsx, layout.tsx) may import
// (eslint.config.mjs): they only ask whether an id exists; everything else still goes through
// lib/query and the HTTP API. Never import it from a "use client" file.

/**
 * For server pages whose client component fetches the thing by id: answers HTTP 404 (Next's
 * `notFound()`, rendered by the nearest `not-found.tsx`) when `lookup` throws a `not-found`
 * {@link AppError} or returns `null` / `undefined`. Any other failure is left to the page's client
 * component, which fetches again and shows its own message (e.g. "Could not load this lesson").
 */
export async function notFoundUnless(lookup: () => unknown): Promise<void> {
  let missing = false;
  try {
    missing = (await lookup()) == null;
  } catch (error) {
    missing = isAppError(error, "not-found");
  }
  if (missing) notFound();
}

/** 404 unless the run `runId` exists. */
export function ensureRun(runId: string): Promise<void> {
  return notFoundUnless(() => getServerContext().service.getRun(runId));
}

/** 404 unless the lesson `lessonId` exists (a lesson file that does not validate is not a 404: the page shows its problem). */
export function ensureLesson(lessonId: string): Promise<void> {
  return notFoundUnless(() => getLessonService().get(lessonId));
}

/** 404 unless the experiment `experimentId` exists. */
export function ensureExperiment(experimentId: string): Promise<void> {
  return notFoundUnless(() => getServerContext().experiments.get(experimentId));
}

/** 404 unless the template exists; `templateParam` is the route param (ids with `/` come as `%2F`). */
export function ensureTemplate(templateParam: string): Promise<void> {
  return notFoundUnless(() => getServerContext().templates.detail(decodeParam(templateParam)));
}

/** 404 unless a bundle with content hash `hash` was imported here. */
export function ensureSharedBundle(hash: string): Promise<void> {
  return notFoundUnless(() => getServerContext().bundles.sharedView(hash));
}

/** 404 unless the review queue `queueId` exists. */
export function ensureReviewQueue(queueId: string): Promise<void> {
  return notFoundUnless(() => getServerContext().reviews.detail(queueId));
}
