import type { RunGraphEdge } from "./types";

/**
 * Value equality for the deriver's structural sharing: a node or edge whose
 * data is equal by value to last time's is handed back as the same object.
 */

/** Equal by value for node data: primitives, and arrays / plain objects of them (an inventory, a code view). */
export function sameValue(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((item, index) => sameValue(item, b[index]));
  if (a === null || b === null || typeof a !== "object" || typeof b !== "object" || Array.isArray(a) || Array.isArray(b)) return false;
  return sameRecord(a as Record<string, unknown>, b as Record<string, unknown>);
}

/** Same keys, each equal by {@link sameValue}. */
export function sameRecord(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const keysA = Object.keys(a);
  if (keysA.length !== Object.keys(b).length) return false;
  return keysA.every((key) => sameValue(a[key], b[key]));
}

/** Same endpoints, handles, label, class and data. */
export function sameEdge(a: RunGraphEdge, b: RunGraphEdge): boolean {
  return (
    a.source === b.source &&
    a.target === b.target &&
    a.sourceHandle === b.sourceHandle &&
    a.targetHandle === b.targetHandle &&
    a.label === b.label &&
    a.className === b.className &&
    sameRecord(a.data, b.data)
  );
}
