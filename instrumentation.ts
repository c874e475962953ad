/**
 * Next.js calls `register` once when a server instance starts (not per request):
 * the web server's worker pool starts here, so runs queued while it was down
 * (e.g. `cli run --detach`) or left interrupted by a crash are taken up at once,
 * not only after the first page load. Node runtime only; not during `next build`.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs" || process.env.NEXT_PHASE === "phase-production-build") return;
  const { getServerContext } = await import("@/lib/server/app-context");
  try {
    getServerContext();
  } catch (error) {
    // A bad setting (e.g. REFLEXION_CONCURRENCY=abc) would make every page fail: refuse to start, saying why.
    console.error(`Reflexion Playground cannot start: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
