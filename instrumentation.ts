/**
 * Next.js calls `register` once when a server instance starts (not per request): the web
 * server's worker pool starts here (lib/server/start-server.ts), so queued or interrupted runs are
 * taken up at once, not only after the first page load. Node runtime only, and not during
 * `next build`. The import sits inside the `NEXT_RUNTIME === "nodejs"` branch, which Next resolves
 * at compile time, so the Edge compilation never sees the Node-only code.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    if (process.env.NEXT_PHASE === "phase-production-build") return;
    const { startServer } = await import("@/lib/server/start-server");
    startServer();
  }
}
