import type pg from "pg";
import { describePgError } from "./describe-pg-error";

/**
 * Makes a node-postgres pool safe against a server that restarts or drops connections
 * (docs/shared-mode.md "What happens when … the database goes away"). Without an `error` listener
 * an idle client's "terminating connection due to administrator command" is an unhandled 'error'
 * event and kills the process; and pg-pool removes its own idle listener from a checked-out client
 * (a transaction in progress), so this adds one to every client it connects, for its whole life.
 * The broken client is discarded by the pool (it is no longer queryable) and the next query opens
 * a new connection; the query that was running fails with the error, as it should.
 *
 * Logged once per outage: `[db] <label>: lost its connection: <cause> — the next query reconnects`;
 * the next successful connection re-arms the message. `log` defaults to console.error.
 */
export function guardPool(pool: pg.Pool, label: string, log: (line: string) => void = (line) => console.error(line)): pg.Pool {
  let reported = false;
  const onError = (error: unknown) => {
    if (reported) return;
    reported = true;
    log(`[db] ${label}: lost its connection: ${describePgError(error)} — the next query reconnects`);
  };
  pool.on("error", onError);
  pool.on("connect", (client) => {
    reported = false;
    client.on("error", onError);
  });
  return pool;
}
