/** One part of an audit entry's target as shown: its key and value, and where it links to (a run, an experiment), if anywhere. */
export interface AuditTargetPart {
  key: string;
  value: string;
  href: string | null;
}

const LINKS: Record<string, (id: string) => string> = {
  runId: (id) => `/runs/${encodeURIComponent(id)}`,
  experimentId: (id) => `/experiments/${encodeURIComponent(id)}`,
};

/** The target's parts in key order, a run or experiment id linking to its page. */
export function auditTargetParts(target: Record<string, unknown>): AuditTargetPart[] {
  return Object.entries(target).map(([key, raw]) => {
    const value = typeof raw === "string" ? raw : JSON.stringify(raw);
    const link = LINKS[key];
    return { key, value, href: link && typeof raw === "string" ? link(raw) : null };
  });
}
