/**
 * `npm run lint:cycles` (part of `npm run lint`): fails (exit 1) when a file of lib, app,
 * components or bin is on an import cycle, or when two rooms (lib/<name>, components, app, bin)
 * import each other. See scripts/import-cycles-core.ts.
 */
import { findImportCycles, formatImportCycles } from "./import-cycles-core";

const ROOTS = ["lib", "app", "components", "bin"];

async function main(): Promise<number> {
  const cycles = await findImportCycles(ROOTS, { baseDir: process.cwd(), tsConfig: "tsconfig.json" });
  const report = formatImportCycles(cycles);
  if (cycles.files.length === 0 && cycles.rooms.length === 0) {
    console.log(`lint:cycles: ${report}`);
    return 0;
  }
  console.error(report);
  return 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`lint:cycles: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(2);
  },
);
