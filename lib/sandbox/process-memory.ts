import fs from "node:fs";

/** Linux page size in bytes (resident counts in /proc/<pid>/statm are pages). */
const PAGE_BYTES = 4096;

function childrenOf(pid: number): number[] {
  const result: number[] = [];
  let tasks: string[] = [];
  try {
    tasks = fs.readdirSync(`/proc/${pid}/task`);
  } catch {
    return result;
  }
  for (const task of tasks) {
    try {
      for (const child of fs.readFileSync(`/proc/${pid}/task/${task}/children`, "utf8").trim().split(/\s+/)) {
        if (child) result.push(Number(child));
      }
    } catch {
      /* task gone */
    }
  }
  return result;
}

function rssOf(pid: number): number {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/statm`, "utf8").split(" ");
    return Number(fields[1]) * PAGE_BYTES;
  } catch {
    return 0;
  }
}

/**
 * Resident set size of `pid` and all its descendants, in bytes (Linux /proc;
 * 0 elsewhere). A sandbox child may sit under `setpriv`/`unshare` wrappers, so the
 * whole tree is summed.
 */
export function treeRssBytes(pid: number): number {
  let total = 0;
  const stack = [pid];
  const seen = new Set<number>();
  while (stack.length > 0 && seen.size < 32) {
    const current = stack.pop()!;
    if (seen.has(current)) continue;
    seen.add(current);
    total += rssOf(current);
    stack.push(...childrenOf(current));
  }
  return total;
}
