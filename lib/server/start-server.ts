import http from "node:http";
import { getServerContext } from "./app-context";
import { bindRefusal, isLoopbackHost, serverBindHost } from "./bind-rule";
import { classLanWarning, lanAddresses, serverPort } from "./class-lan-warning";
import { classLanMode, installPeerStamp } from "./lan-peer";

/**
 * Starts the web server's side of the app once per server instance (from instrumentation.ts, Node
 * runtime only): builds the server context, whose worker pool then takes up runs queued while the
 * server was down (e.g. `cli run --detach`) or left interrupted by a crash. A bad setting (e.g.
 * REFLEXION_CONCURRENCY=abc) would make every page fail, so the process refuses to start instead,
 * saying why on stderr, and exits with status 1. So does a server without sign-in on a non-loopback
 * address (lib/server/bind-rule.ts) unless `REFLEXION_ALLOW_OPEN_NETWORK=1`. In class LAN mode
 * (`REFLEXION_CLASS_LAN=1`, `npm run class`) every request is stamped with its socket's peer
 * address (lib/server/lan-peer.ts) and a warning names the LAN addresses and what students reach.
 */
export function startServer(): void {
  try {
    if (classLanMode(process.env)) {
      installPeerStamp(http.Server);
      const host = serverBindHost(process.argv, process.env);
      if (!isLoopbackHost(host)) console.warn(`\n${classLanWarning(lanAddresses(), serverPort(process.argv, process.env))}\n`);
    }
    const context = getServerContext();
    const refusal = bindRefusal(serverBindHost(process.argv, process.env), context.auth.signIn, process.env);
    if (refusal) throw new Error(refusal);
  } catch (error) {
    console.error(`Reflexion Playground cannot start: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
