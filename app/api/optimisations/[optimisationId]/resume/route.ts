import { resumeOptimisationRequestSchema } from "@/lib/domain/optimiser/types";
import { readTextBounded, MAX_JSON_BODY_BYTES } from "@/lib/io/bounded-body";
import { getServerContext } from "@/lib/server/app-context";
import { handle } from "@/lib/server/http-errors";
import { runInBackground } from "@/lib/server/optimiser/background";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/**
 * Resumes a stopped optimisation (body `{ budget? }`: a new budget replaces the old one, null = no
 * limit; an empty body keeps it) → `{ optimisation }` (202); 409 while any process (this server,
 * or `cli templates optimise`) holds its lease, naming the holder and when its lease expires.
 */
export const POST = handle(async (request: Request, context: { params: Promise<{ optimisationId: string }> }) => {
  const { optimisationId } = await context.params;
  // An empty body keeps the budget; the text is read within the same bound as every JSON request.
  const text = await readTextBounded(request, MAX_JSON_BODY_BYTES, "resume request");
  const body = resumeOptimisationRequestSchema.parse(text.trim() === "" ? {} : (JSON.parse(text) as unknown));
  const server = getServerContext();
  const optimisation = await server.optimiser.resume(optimisationId, body);
  runInBackground(server, optimisation.id);
  return Response.json({ optimisation }, { status: 202 });
});
