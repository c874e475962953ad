import { isIP } from "node:net";

type Env = Record<string, string | undefined>;

/** What {@link serverBindHost} reports when the server listens on every interface (Next's default without `-H`). */
export const ALL_INTERFACES = "0.0.0.0";

/** True for a loopback address: 127.0.0.0/8, ::1 (bracketed or not), `localhost`, an IPv4-mapped 127.x. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.trim().toLowerCase().replace(/^\[(.*)\]$/, "$1");
  if (bare === "localhost" || bare.endsWith(".localhost")) return true;
  if (isIP(bare) === 4) return bare.startsWith("127.");
  if (isIP(bare) === 6) return bare === "::1" || /^::ffff:127\./.test(bare) || /^(0+:){7}0*1$/.test(bare);
  return false;
}

/**
 * The address the web server listens on: `next start -H <host>` / `--hostname` in this process's
 * arguments; without one, Next listens on every interface ({@link ALL_INTERFACES}). `next dev` serves
 * from a forked child without those arguments: there the host of `__NEXT_PRIVATE_ORIGIN` (which Next
 * sets before instrumentation runs) is used — it reads `localhost` when no `-H` was given.
 */
export function serverBindHost(argv: readonly string[], env: Env): string {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if ((arg === "-H" || arg === "--hostname") && argv[i + 1]) return argv[i + 1]!;
    if (arg.startsWith("--hostname=")) return arg.slice("--hostname=".length);
  }
  if (env.NEXT_PRIVATE_WORKER === "1" && env.__NEXT_PRIVATE_ORIGIN) {
    try {
      return new URL(env.__NEXT_PRIVATE_ORIGIN).hostname;
    } catch {
      return ALL_INTERFACES;
    }
  }
  return ALL_INTERFACES;
}

/**
 * Why the server must not start, or null: without sign-in (embedded mode, or shared mode with
 * `REFLEXION_SIGN_IN=off`) anyone who reaches the address is the local admin, so only a loopback
 * address is allowed unless `REFLEXION_ALLOW_OPEN_NETWORK=1` says the network is trusted, or
 * `REFLEXION_CLASS_LAN=1` (class LAN mode, `npm run class`) confines other devices to the students'
 * pages and routes.
 */
export function bindRefusal(host: string, signIn: "on" | "off", env: Env): string | null {
  if (signIn === "on" || isLoopbackHost(host) || env.REFLEXION_ALLOW_OPEN_NETWORK?.trim() === "1") return null;
  // Class LAN mode (`npm run class`): other devices reach only the students' surfaces (lib/server/lan-peer.ts); start-server prints a warning.
  if (env.REFLEXION_CLASS_LAN?.trim() === "1") return null;
  const where = host === ALL_INTERFACES || host === "::" ? "every network interface" : host;
  return (
    `it would listen on ${where} without sign-in, so anyone who can reach it could do everything as the local admin. ` +
    "Listen on loopback (`next start -H 127.0.0.1`, as `npm start` does), or turn sign-in on (shared mode: REFLEXION_DATABASE_URL, BETTER_AUTH_SECRET; docs/shared-mode.md \"Security\"), " +
    "or, on a network you trust, set REFLEXION_ALLOW_OPEN_NETWORK=1."
  );
}
