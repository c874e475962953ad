import type { Command } from "commander";
import { parseAuditQuery, type AuditEntry, type AuditPage } from "@/lib/domain/audit";
import { resolveAuditUser } from "@/lib/server/audit-user";
import { cliContext } from "./context";
import { escapeControlCharacters } from "@/lib/domain/ids";

/** A target as `key=value` pairs (`runId=9f2c…`), `-` when empty. */
function targetText(target: AuditEntry["target"]): string {
  const parts = Object.entries(target).map(([key, value]) => `${key}=${typeof value === "string" ? value : JSON.stringify(value)}`);
  return parts.length ? parts.join(" ") : "-";
}

/**
 * The human table of `cli audit`: time (UTC, to the second), who, action, target and status, newest
 * first, then how many more match. Control characters in names are escaped.
 */
export function formatAuditTable(page: AuditPage, offset = 0): string {
  if (page.entries.length === 0) return page.total === 0 ? "No audit entries match.\n" : `No entries on this page (${page.total} match; lower --offset).\n`;
  const rows = [["TIME (UTC)", "WHO", "ACTION", "TARGET", "STATUS"]];
  for (const entry of page.entries) {
    rows.push([entry.at.slice(0, 19).replace("T", " "), entry.actor.name, entry.action, targetText(entry.target), String(entry.status)].map(escapeControlCharacters));
  }
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  const lines = rows.map((row) => row.map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column]!))).join("  "));
  const rest = page.total - offset - page.entries.length;
  return `${lines.join("\n")}\n${rest > 0 ? `… ${rest} more (add --offset ${offset + page.entries.length})\n` : ""}`;
}

/** `cli audit`: who did what (docs/audit.md). */
export function registerAuditCommands(program: Command): void {
  program
    .command("audit")
    .description("List the audit log, newest first: who did what, when, to what, with what status (docs/audit.md).")
    .option("--user <id|name>", "only this person: their account id, email or name")
    .option("--action <prefix>", 'only actions starting with this, e.g. "POST /api/runs" or "cli"')
    .option("--since <time>", "only entries at or after this date or time (e.g. 2026-12-05 or 2026-12-05T14:00Z)")
    .option("--until <time>", "only entries before this date or time")
    .option("--limit <n>", "at most this many entries (1–500)", "50")
    .option("--offset <n>", "skip this many of the newest matching entries (paging)", "0")
    .option("--json", "print the page as JSON ({ entries, total })")
    .action(async (options: { user?: string; action?: string; since?: string; until?: string; limit: string; offset: string; json?: boolean }) => {
      const query = parseAuditQuery({ user: options.user, action: options.action, since: options.since, until: options.until, limit: options.limit, offset: options.offset });
      const context = cliContext();
      let page: AuditPage;
      try {
        page = await context.audit.list({ ...query, user: await resolveAuditUser(context.accounts, query.user) });
      } finally {
        await context.close();
      }
      process.stdout.write(options.json ? `${JSON.stringify(page, null, 2)}\n` : formatAuditTable(page, query.offset));
    });
}
