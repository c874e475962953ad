import { annotationListResponseSchema, annotationResponseSchema } from "@/lib/domain/annotation-api";
import { ANNOTATION_TEXT_MAX, annotationCreateRequestSchema } from "@/lib/domain/annotations";
import { readRequestJson } from "@/lib/io/bounded-body";
import { getServerContext } from "@/lib/server/app-context";
import { branchParam } from "@/lib/server/branch-param";
import { handle } from "@/lib/server/http-errors";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Largest request body, in bytes: a 10,000-character comment with tags and a score, with room for UTF-8. */
const MAX_ANNOTATION_BODY_BYTES = 64 * 1024;

/**
 * `GET /api/runs/:runId/annotations?branch=<id>` → the annotations that branch (default the root)
 * sees: those on its own events and on the shared prefix it inherits; deleted ones marked.
 * 404 for an unknown run or a branch of another run.
 */
export const GET = handle(async (request: Request, context: { params: Promise<{ runId: string }> }) => {
  const { runId } = await context.params;
  const listing = await getServerContext().annotations.listing(runId, branchParam(request) ?? undefined);
  return Response.json(annotationListResponseSchema.parse(listing), { headers: { "cache-control": "no-store" } });
});

/**
 * `POST /api/runs/:runId/annotations` with `annotationCreateRequestSchema` → 201 `{ annotation }`.
 * The target's kind, trial, step and seq are read from the run's log; 404 for an unknown node or
 * parent, 400 for an event that draws no node or bad content (an off-scale score, a bad tag).
 */
export const POST = handle(async (request: Request, context: { params: Promise<{ runId: string }> }) => {
  const { runId } = await context.params;
  const body = annotationCreateRequestSchema.parse(await readRequestJson(request, MAX_ANNOTATION_BODY_BYTES, "annotation", `Send a shorter note: a comment is at most ${ANNOTATION_TEXT_MAX.toLocaleString("en")} characters.`));
  const annotation = await getServerContext().annotations.create(runId, body);
  return Response.json(annotationResponseSchema.parse({ annotation }), { status: 201 });
});
