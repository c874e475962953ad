import { transform } from "esbuild";

/**
 * TypeScript → JavaScript for the sandbox: esbuild `transform` with the `ts`
 * loader (types are stripped, nothing is type-checked), script semantics kept
 * (no module format), ES2022 output for QuickJS. Runs in the app process on
 * untrusted *text* only; nothing is executed here.
 */

/** The transpiled code, or a readable error naming the line. */
export type TranspileResult = { ok: true; code: string } | { ok: false; message: string };

interface EsbuildFailure {
  errors?: Array<{ text: string; location?: { line: number; column: number; lineText?: string } | null }>;
}

/** Transpiles one TypeScript snippet; `label` names it in error messages ("candidate", "test 'x'"). */
export async function transpileTypeScript(source: string, label: string): Promise<TranspileResult> {
  try {
    const result = await transform(source, { loader: "ts", target: "es2022", sourcemap: false, minify: false });
    return { ok: true, code: result.code };
  } catch (error) {
    const first = (error as EsbuildFailure).errors?.[0];
    if (!first) return { ok: false, message: `TypeScript transpile of the ${label} failed: ${String(error)}` };
    const where = first.location ? ` (line ${first.location.line}: ${(first.location.lineText ?? "").trim().slice(0, 200)})` : "";
    return { ok: false, message: `TypeScript transpile of the ${label} failed: ${first.text}${where}` };
  }
}
