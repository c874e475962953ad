import { z } from "zod";
import { annotationContentSchema, annotationTargetSchema, type Annotation } from "./annotations";

/**
 * Wire shapes of the annotation routes (`/api/runs/:runId/annotations`): an {@link Annotation} as
 * the fold gives it, and the list a branch sees. The client parses responses with these.
 */
export const annotationSchema = z.object({
  id: z.string(),
  target: annotationTargetSchema,
  parentId: z.string().nullable(),
  author: z.string(),
  content: annotationContentSchema,
  origin: z.object({ queueId: z.string(), itemId: z.string() }).nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  updatedBy: z.string(),
  deleted: z.boolean(),
  history: z.array(z.object({ content: annotationContentSchema, replacedAt: z.string(), replacedBy: z.string() })),
}) satisfies z.ZodType<Annotation>;

/** `GET /api/runs/:runId/annotations?branch=` → the annotations the branch sees, oldest first (deleted ones marked). */
export const annotationListResponseSchema = z.object({ runId: z.string(), branchId: z.string(), annotations: z.array(annotationSchema) });
export type AnnotationListResponse = z.infer<typeof annotationListResponseSchema>;

/** `POST` and `PATCH` → the annotation as it stands after the change. */
export const annotationResponseSchema = z.object({ annotation: annotationSchema });
export type AnnotationResponse = z.infer<typeof annotationResponseSchema>;
