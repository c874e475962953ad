import { gradeRequestSchema } from "@/lib/domain/judge-grades";
import { getServerContext } from "@/lib/server/app-context";
import { handle } from "@/lib/server/http-errors";
import { readRequestJson, MAX_JSON_BODY_BYTES } from "@/lib/io/bounded-body";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/**
 * `GET /api/judge-grades`: judged trials of open-task runs with any grade a person gave, and the
 * agreement with the LLM judge once enough are graded (lib/domain/judge-grades.ts
 * `judgeGradesResponseSchema`). `POST` {@link gradeRequestSchema}: grade one judged trial (pass/fail,
 * optionally per criterion); grading it again replaces the grade. 201 with the stored grade.
 */
export const GET = handle(async () => Response.json(await getServerContext().judgeGrades.overview()));

export const POST = handle(async (request: Request) => {
  const body = gradeRequestSchema.parse(await readRequestJson(request, MAX_JSON_BODY_BYTES, "grade"));
  return Response.json(await getServerContext().judgeGrades.grade(body), { status: 201 });
});
