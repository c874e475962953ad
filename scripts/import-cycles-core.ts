import { resolve } from "node:path";
import madge from "madge";

/**
 * Import cycles in a source tree, at two grains:
 * - **files**: `a.ts` imports `b.ts`, which imports `a.ts` (type-only imports count: a type
 *   cycle is still two modules that cannot be understood apart);
 * - **rooms**: the top folders of DESIGN.md §2 (`lib/<name>`, `components`, `app`, `bin`), so
 *   `lib/db` importing `lib/llm` while `lib/llm` imports `lib/db` is a cycle even when no two
 *   files form one. A room cycle means a shared piece sits in the wrong room: move it to where
 *   both may import it (usually lib/domain), not behind a lazy `import()`.
 *
 * The dependency graph is madge's (https://github.com/pahen/madge), resolving `@/` through the
 * tsconfig's `paths`.
 */
export interface ImportCycles {
  /** Each cycle as the files on it, relative to `baseDir`, the first one imported again by the last. */
  files: string[][];
  /** Each set of rooms that import each other (a strongly connected component of the room graph, sorted). */
  rooms: string[][];
  /** For each room cycle, one file import per edge inside it (`from -> to`), so the fix can start there. */
  roomEdges: string[][];
}

/** Options of {@link findImportCycles}. */
export interface FindImportCyclesOptions {
  /** The folder the paths are relative to (the repository root). */
  baseDir: string;
  /** The tsconfig whose `paths` resolve `@/…`; relative to the working directory or absolute. */
  tsConfig: string;
}

/**
 * The room a file belongs to: `lib/<name>` for a file under a folder of lib, `lib` for a file
 * directly in it, otherwise its top folder (`components`, `app`, `bin`).
 */
export function roomOf(file: string): string {
  const parts = file.split("/");
  if (parts[0] === "lib") return parts.length > 2 ? `lib/${parts[1]}` : "lib";
  return parts[0] ?? file;
}

/**
 * Finds the file and room cycles among the `.ts`/`.tsx` files under `roots`.
 *
 * @param roots folders relative to `options.baseDir` (e.g. `["lib", "app", "components", "bin"]`).
 * @throws what madge throws when a root does not exist or the tsconfig cannot be read.
 */
export async function findImportCycles(roots: readonly string[], options: FindImportCyclesOptions): Promise<ImportCycles> {
  const result = await madge(
    roots.map((root) => resolve(options.baseDir, root)),
    {
      baseDir: options.baseDir,
      fileExtensions: ["ts", "tsx"],
      tsConfig: options.tsConfig,
    },
  );
  const graph = result.obj();
  const edges = new Map<string, Map<string, string>>();
  for (const [from, imports] of Object.entries(graph)) {
    for (const to of imports) {
      const a = roomOf(from);
      const b = roomOf(to);
      if (a === b) continue;
      const out = edges.get(a) ?? new Map<string, string>();
      if (!out.has(b)) out.set(b, `${from} -> ${to}`);
      edges.set(a, out);
    }
  }
  const rooms = stronglyConnected(edges).filter((component) => component.length > 1);
  const roomEdges = rooms.map((component) =>
    component.flatMap((a) => component.flatMap((b) => (a === b ? [] : [edges.get(a)?.get(b)].filter((edge): edge is string => edge !== undefined)))),
  );
  return { files: result.circular(), rooms, roomEdges };
}

/** Tarjan's strongly connected components of a directed graph, each sorted by name. */
function stronglyConnected(edges: ReadonlyMap<string, ReadonlyMap<string, string>>): string[][] {
  const nodes = new Set<string>();
  for (const [from, out] of edges) {
    nodes.add(from);
    for (const to of out.keys()) nodes.add(to);
  }
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  let next = 0;
  const visit = (node: string): void => {
    index.set(node, next);
    low.set(node, next);
    next += 1;
    stack.push(node);
    onStack.add(node);
    for (const to of edges.get(node)?.keys() ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node)!, low.get(to)!));
      } else if (onStack.has(to)) {
        low.set(node, Math.min(low.get(node)!, index.get(to)!));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string | undefined;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      components.push(component.sort());
    }
  };
  for (const node of [...nodes].sort()) if (!index.has(node)) visit(node);
  return components;
}

/** The report printed by `npm run lint:cycles`: one line per cycle, or a line saying there is none. */
export function formatImportCycles(cycles: ImportCycles): string {
  if (cycles.files.length === 0 && cycles.rooms.length === 0) return "No import cycle.";
  const lines: string[] = [];
  for (const cycle of cycles.files) lines.push(`file cycle: ${[...cycle, cycle[0]].join(" -> ")}`);
  cycles.rooms.forEach((rooms, i) => {
    lines.push(`room cycle: ${rooms.join(" <-> ")}`);
    for (const edge of cycles.roomEdges[i] ?? []) lines.push(`  e.g. ${edge}`);
  });
  lines.push("Move the shared piece to a module both sides may import (usually lib/domain); a lazy import() does not count as a fix.");
  return lines.join("\n");
}
