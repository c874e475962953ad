/**
 * A p-value as people read it in a sentence: `p < 0.001` below a thousandth, `p = 1` at (or rounding to) 1,
 * else `p = ` and two significant digits (`p = 0.031`, `p = 0.62`). Never `p = < 0.001`.
 */
export function pValueText(p: number): string {
  if (p < 0.001) return "p < 0.001";
  if (p >= 0.995) return "p = 1";
  return `p = ${Number(p.toPrecision(2))}`;
}
