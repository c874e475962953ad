import { getLessonService } from "@/lib/server/lesson-service";
import { handle } from "@/lib/server/http-errors";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Every lesson file that validates, and the files that do not (with what is wrong). */
export const GET = handle(async () => Response.json(getLessonService().list()));
