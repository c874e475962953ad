import type { EnvironmentId } from "@/lib/domain/config";
import type { FamilyDescriptor } from "./family-descriptor";
import { qaDescriptor } from "./qa/descriptor";
import { householdDescriptor } from "./household/descriptor";
import { codeDescriptor } from "./code/descriptor";
import { openDescriptor } from "./open/descriptor";
import { externalDescriptor } from "./external/descriptor";

export type { FamilyDescriptor } from "./family-descriptor";
/** The imported-traces family's id (its runs come only from trace files: lib/importers/external/). */
export { EXTERNAL_FAMILY_ID } from "./external/descriptor";
export type { StressRunScript, SyntheticStep } from "./stress-run-script";

/**
 * The client registry: every task family's descriptor, in family order (QA, household, code,
 * open, imported agent traces). Pure, so components, lib/graph, lib/query, lib/otel, importers and the CLI may import it;
 * the server registry (./registry.ts) builds its entries from the same descriptors. Adding a
 * family is one line here (docs/adding-a-family.md). A live view: a family registered at run time
 * ({@link registerFamilyDescriptor}) appears in it, in order.
 */
export const FAMILY_DESCRIPTORS: readonly FamilyDescriptor[] = [qaDescriptor, householdDescriptor, codeDescriptor, openDescriptor, externalDescriptor].sort((a, b) => a.order - b.order);

const byId = new Map<string, FamilyDescriptor>(FAMILY_DESCRIPTORS.map((descriptor) => [descriptor.id, descriptor]));
if (byId.size !== FAMILY_DESCRIPTORS.length) throw new Error("A task family's descriptor is listed twice in FAMILY_DESCRIPTORS.");
if (new Set(FAMILY_DESCRIPTORS.map((descriptor) => descriptor.order)).size !== FAMILY_DESCRIPTORS.length) {
  throw new Error("Two task families' descriptors have the same order; each needs its own position (FamilyDescriptor.order).");
}

/**
 * Adds a family's descriptor to this registry (the server registry's `registerFamily` calls it; a
 * family defined outside lib/environments, e.g. a test's toy family, is registered this way).
 * @throws Error when `descriptor.id` is already registered or its `order` is taken.
 */
export function registerFamilyDescriptor(descriptor: FamilyDescriptor): void {
  if (byId.has(descriptor.id)) throw new Error(`Task family "${descriptor.id}" is already registered.`);
  if (FAMILY_DESCRIPTORS.some((other) => other.order === descriptor.order)) throw new Error(`Task family "${descriptor.id}": order ${descriptor.order} is taken.`);
  byId.set(descriptor.id, descriptor);
  const list = FAMILY_DESCRIPTORS as FamilyDescriptor[];
  list.push(descriptor);
  list.sort((a, b) => a.order - b.order);
}

/**
 * The descriptor of family `id`.
 * @throws Error naming the known families when `id` is not one (a stored config always holds a
 *   valid id: environmentIdSchema parses it first).
 */
export function familyDescriptor(id: EnvironmentId): FamilyDescriptor {
  const descriptor = byId.get(id);
  if (!descriptor) throw new Error(`Unknown task family "${id}". Known: ${FAMILY_DESCRIPTORS.map((d) => d.id).join(", ")}.`);
  return descriptor;
}

/** The descriptor of `id`, or undefined when `id` names no family (for ids read from outside: URLs, files). */
export function findFamilyDescriptor(id: string): FamilyDescriptor | undefined {
  return byId.get(id);
}

/** The family pickers and commands start on: the first in family order (QA). */
export function defaultFamilyId(): EnvironmentId {
  return FAMILY_DESCRIPTORS[0]!.id;
}

/** The ids of the families a new run can be started in (all but those whose runs are only imported), in family order. */
export function runnableFamilyIds(): EnvironmentId[] {
  return FAMILY_DESCRIPTORS.filter((descriptor) => !descriptor.runsImportedOnly).map((descriptor) => descriptor.id);
}

/** The families' ids in family order. */
export function familyIds(): EnvironmentId[] {
  return FAMILY_DESCRIPTORS.map((descriptor) => descriptor.id);
}
