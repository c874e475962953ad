// Totals the results written by scripts/test-all.sh into one line "N passed, M failed"
// (the plain closing line CI reads) and exits 1 if anything failed.
// With --quick (scripts/test-quick.sh, `npm test`) there is no build, client-bundle check or Playwright
// to count: only lint, typecheck and Vitest.
import fs from "node:fs";

const dir = ".reports";
const read = (name) => (fs.existsSync(`${dir}/${name}`) ? fs.readFileSync(`${dir}/${name}`, "utf8").trim() : null);
let passed = 0;
let failed = 0;
const lines = [];
const quick = process.argv.includes("--quick");

for (const check of quick ? ["lint", "typecheck"] : ["lint", "typecheck", "build"]) {
  const status = read(`${check}.status`);
  if (status === "0") passed += 1;
  else failed += 1;
  lines.push(`${check}: ${status === "0" ? "ok" : "FAILED"}`);
}

const vitest = read("vitest.json");
if (vitest) {
  const report = JSON.parse(vitest);
  // A test file that fails to load (e.g. a missing fixture) has no test results of its own: count it as one failure.
  const brokenFiles = report.testResults.filter((file) => file.status === "failed" && file.assertionResults.length === 0);
  passed += report.numPassedTests;
  failed += report.numFailedTests + brokenFiles.length;
  lines.push(`vitest: ${report.numPassedTests} passed, ${report.numFailedTests} failed, ${report.numPendingTests ?? 0} skipped`);
  for (const file of brokenFiles) lines.push(`vitest: FAILED TO LOAD ${file.name}: ${String(file.message).split("\n")[0]}`);
  // Name every failed test with the first line of its message, so a red CI log says what to look at.
  for (const file of report.testResults) {
    for (const test of file.assertionResults.filter((result) => result.status === "failed")) {
      const message = String(test.failureMessages?.[0] ?? "").split("\n")[0].slice(0, 300);
      lines.push(`vitest: FAILED ${file.name.replace(process.cwd() + "/", "")} › ${test.fullName}: ${message}`);
    }
  }
  if (read("vitest.status") !== "0" && report.numFailedTests === 0) {
    failed += 1;
    lines.push("vitest: exited non-zero (a suite failed to load?)");
  }
} else {
  failed += 1;
  lines.push("vitest: no report");
}

// The client-bundle check runs after the build (it reads .next/static); absent when the build failed.
const bundle = read("vitest-bundle.json");
if (quick) {
  // npm test builds nothing; npm run test:all checks the bundle.
} else if (bundle) {
  const report = JSON.parse(bundle);
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  lines.push(`vitest (client bundle): ${report.numPassedTests} passed, ${report.numFailedTests} failed, ${report.numPendingTests ?? 0} skipped`);
  if (read("vitest-bundle.status") !== "0" && report.numFailedTests === 0) {
    failed += 1;
    lines.push("vitest (client bundle): exited non-zero");
  }
} else if (read("build.status") === "0") {
  failed += 1;
  lines.push("vitest (client bundle): no report");
}

const playwright = read("playwright.json");
if (quick) {
  // npm test runs no browser; npm run test:all does.
} else if (playwright) {
  const parsed = JSON.parse(playwright);
  const stats = parsed.stats;
  // Name every unexpected or flaky spec (the JSON reporter nests suites by file and describe block).
  const walk = (suite) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        if (test.status === "unexpected" || test.status === "flaky") {
          lines.push(`playwright: ${test.status.toUpperCase()} ${spec.file}:${spec.line} › ${spec.title}`);
        }
      }
    }
    for (const child of suite.suites ?? []) walk(child);
  };
  for (const suite of parsed.suites ?? []) walk(suite);
  passed += stats.expected;
  failed += stats.unexpected + stats.flaky;
  lines.push(`playwright: ${stats.expected} passed, ${stats.unexpected} failed, ${stats.flaky} flaky, ${stats.skipped} skipped`);
  if (read("playwright.status") !== "0" && stats.unexpected === 0) {
    failed += 1;
    lines.push("playwright: exited non-zero");
  }
} else {
  failed += 1;
  lines.push("playwright: no report");
}

console.log("");
for (const line of lines) console.log(line);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
