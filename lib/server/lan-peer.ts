import { isLoopbackHost } from "./bind-rule";
import { isStudentPage } from "@/lib/domain/class-rules";

/**
 * LAN mode for a class (`npm run class`, `REFLEXION_CLASS_LAN=1`; docs/guides/teaching.md): the
 * embedded server listens on every interface so phones on the room's network can join, but a
 * peer that is not the laptop itself (loopback) may reach only the students' surfaces. Everything
 * else answers 403 to it.
 *
 * Who the peer is must not come from a header the client can write. Next 16 fills
 * `X-Forwarded-For` from the socket only when the client sent none (`??=` in
 * next/dist/server/base-server.js), so a phone could claim to be 127.0.0.1. Instead, in LAN mode
 * the server process stamps every request with {@link PEER_HEADER} from `req.socket.remoteAddress`
 * as it arrives ({@link installPeerStamp}, from instrumentation.ts), overwriting whatever the
 * client sent under that name; the proxy (proxy.ts) decides with {@link lanAccess}. A request that
 * reached the app without the stamp (e.g. before the stamp was installed at start-up) counts as
 * not loopback: refused unless it is a student surface.
 */

/** The header the LAN-mode server writes with the socket's peer address (a client's own value is overwritten). */
export const PEER_HEADER = "x-reflexion-peer";

/** True when `REFLEXION_CLASS_LAN=1` (`npm run class`). */
export function classLanMode(env: Record<string, string | undefined> = process.env): boolean {
  return env.REFLEXION_CLASS_LAN?.trim() === "1";
}


const STUDENT_APIS: Array<{ method: string; path: RegExp }> = [
  { method: "POST", path: /^\/api\/classes\/join\/?$/ },
  { method: "GET", path: /^\/api\/classes\/by-code\/[^/]+\/?$/ },
  { method: "GET", path: /^\/api\/classes\/[^/]+\/student\/?$/ },
  { method: "GET", path: /^\/api\/classes\/[^/]+\/stream\/?$/ },
  { method: "POST", path: /^\/api\/classes\/[^/]+\/answers\/?$/ },
  { method: "POST", path: /^\/api\/classes\/[^/]+\/reflections\/?$/ },
  // What every page's header asks (who am I, is sign-in on): public routes that show no lab data.
  { method: "GET", path: /^\/api\/me\/?$/ },
  { method: "GET", path: /^\/api\/auth\/get-session\/?$/ },
];

/** Next's build output and the app's icons: what a student page loads besides its own HTML. */
const ASSETS = [/^\/_next\/static\//, /^\/favicon\.ico$/, /^\/icon\.svg$/];

/** True for a path (and method) a phone on the LAN may reach: the students' pages and APIs, and Next's static assets. */
export function isStudentSurface(pathname: string, method: string): boolean {
  const verb = method.toUpperCase();
  const read = verb === "GET" || verb === "HEAD";
  if (read && (isStudentPage(pathname) || ASSETS.some((asset) => asset.test(pathname)))) return true;
  // A page's React Server Component fetches (same path, POST for server actions) are not used by the student pages.
  return STUDENT_APIS.some((api) => (api.method === verb || (api.method === "GET" && verb === "HEAD")) && api.path.test(pathname));
}

/**
 * The LAN rule, pure: outside LAN mode everything passes (the other gates apply); in LAN mode a
 * loopback peer passes, and any other peer (or none known) passes only on a student surface.
 */
export function lanAccess(input: { lanMode: boolean; peer: string | null; pathname: string; method: string }): "allow" | "refuse" {
  if (!isLanPhone(input.lanMode, input.peer)) return "allow";
  return isStudentSurface(input.pathname, input.method) ? "allow" : "refuse";
}

/** True in LAN mode for a peer other than the laptop itself (or an unknown one): a phone, confined to the students' surfaces. */
export function isLanPhone(lanMode: boolean, peer: string | null): boolean {
  return lanMode && !(peer && isLoopbackHost(peer));
}

/** What a refused LAN peer reads (403). */
export const LAN_REFUSAL = "This server is in class mode: from another device only the student pages (/join) are open. The teacher uses the laptop running the server.";

const INSTALLED = Symbol.for("reflexion-playground.peer-stamp");

/** The part of node:http the stamp patches (injected, so the Edge bundle never sees node:http). */
interface HttpServerClass {
  prototype: { emit(event: string | symbol, ...args: unknown[]): boolean };
}

/**
 * Stamps every HTTP request this process serves with {@link PEER_HEADER} = the socket's remote
 * address, before Next sees it: wraps `http.Server.prototype.emit` for `request` events. Idempotent.
 */
export function installPeerStamp(server: HttpServerClass): void {
  const proto = server.prototype as HttpServerClass["prototype"] & { [INSTALLED]?: true };
  if (proto[INSTALLED]) return;
  const emit = proto.emit;
  proto.emit = function stamped(this: unknown, event: string | symbol, ...args: unknown[]): boolean {
    if (event === "request") {
      const req = args[0] as { headers?: Record<string, string | string[] | undefined>; socket?: { remoteAddress?: string } } | undefined;
      if (req?.headers) {
        const peer = req.socket?.remoteAddress;
        if (peer) req.headers[PEER_HEADER] = peer;
        else delete req.headers[PEER_HEADER];
      }
    }
    return emit.call(this, event, ...args);
  };
  proto[INSTALLED] = true;
}
