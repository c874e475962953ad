/**
 * Where a repetition lives. An experiment's cell is (task, arm, repetition); the store keeps the
 * (task, arm) link it always had and the repetition rides in the arm column as `label` for
 * repetition 1 (so experiments recorded before repeats read unchanged) and `label␟r` (U+001F, the
 * unit separator, then the 1-based repetition) for later ones (docs/decisions/0031).
 */

const SEPARATOR = "\u001f";

/** The stored arm key of a cell: the label for repetition 1, `label␟r` for repetition r > 1. */
export function cellArmKey(arm: string, repetition: number): string {
  return repetition <= 1 ? arm : `${arm}${SEPARATOR}${repetition}`;
}

/**
 * A stored arm key read back: the label and the repetition (1 when the key has no repetition, or
 * when the whole key is one of `labels`, so a label that itself contains the separator still reads).
 */
export function parseCellArmKey(key: string, labels: readonly string[] = []): { arm: string; repetition: number } {
  if (labels.includes(key)) return { arm: key, repetition: 1 };
  const at = key.lastIndexOf(SEPARATOR);
  if (at === -1) return { arm: key, repetition: 1 };
  const repetition = Number(key.slice(at + 1));
  return Number.isInteger(repetition) && repetition >= 1 ? { arm: key.slice(0, at), repetition } : { arm: key, repetition: 1 };
}

/**
 * The response-cache scope of a repetition's runs: the experiment id for repetition 1 (as before
 * repeats), `id/r<r>` for the others. Arms share identical calls within a repetition only, and a
 * resumed or replayed repetition is served exactly the responses it recorded.
 */
export function repetitionCacheScope(experimentId: string, repetition: number): string {
  return repetition <= 1 ? experimentId : `${experimentId}/r${repetition}`;
}

/**
 * The sampling seed a repetition sends: `seed + r − 1` when the arm sets one, `r − 1` when the
 * experiment has repeats and the arm sets none, and none at all for a single repetition without a
 * seed (so such runs send exactly what they sent before seeds existed).
 */
export function repetitionSeed(armSeed: number | undefined, repetition: number, repeats: number): number | undefined {
  if (armSeed !== undefined) return armSeed + repetition - 1;
  return repeats > 1 ? repetition - 1 : undefined;
}
