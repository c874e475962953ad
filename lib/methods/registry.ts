import { cotGoldContextMethod } from "./cot-gold-context/descriptor";
import { cotMethod } from "./cot/descriptor";
import { expelMethod } from "./expel/descriptor";
import { lastAttemptAndReflexionMethod } from "./last-attempt-and-reflexion/descriptor";
import { lastAttemptMethod } from "./last-attempt/descriptor";
import { latsMethod } from "./lats/descriptor";
import type { MethodDescriptor } from "./method-descriptor";
import { noneMethod } from "./none/descriptor";
import { reflexionMethod } from "./reflexion/descriptor";
import { selfRefineMethod } from "./self-refine/descriptor";

/**
 * The registry of methods: one line per method folder (docs/adding-a-method.md). The order is the
 * order of pickers and of the CLI's `--strategy` choices. Pure data: lib/domain (the strategy
 * schema and `strategyBehaviour`), the engine, the server and components all read it.
 */
export const METHOD_DESCRIPTORS = [
  noneMethod,
  reflexionMethod,
  lastAttemptMethod,
  lastAttemptAndReflexionMethod,
  cotMethod,
  cotGoldContextMethod,
  latsMethod,
  expelMethod,
  selfRefineMethod,
] as const;

/** A strategy id: the id of one registered method. */
export type MethodId = (typeof METHOD_DESCRIPTORS)[number]["id"];

/** Every registered method's id, in registry order (the strategy schema's options). */
export const METHOD_IDS = METHOD_DESCRIPTORS.map((method) => method.id) as [MethodId, ...MethodId[]];

const byId = new Map<string, MethodDescriptor<MethodId>>(METHOD_DESCRIPTORS.map((method) => [method.id, method]));

/**
 * The descriptor of method `id`.
 * @throws Error for an id no folder registers (a config that passed the strategy schema never has one).
 */
export function methodDescriptor(id: MethodId): MethodDescriptor<MethodId> {
  const method = byId.get(id);
  if (!method) throw new Error(`Unknown method "${id}". Registered: ${METHOD_IDS.join(", ")}.`);
  return method;
}
