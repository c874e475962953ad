#!/usr/bin/env bash
# Runs every check and test suite, then prints one line "N passed, M failed"
# totalled over lint, typecheck, Vitest and Playwright, and exits non-zero on any failure.
set -uo pipefail
cd "$(dirname "$0")/.."
export NEXT_TELEMETRY_DISABLED=1
mkdir -p .reports
rm -f .reports/*.json .reports/*.status

step() { echo; echo "==> $*"; }

step "ESLint (includes the layering rules of DESIGN.md §2)"
npx eslint . ; echo $? > .reports/lint.status

step "TypeScript (tsc --noEmit)"
npx tsc --noEmit ; echo $? > .reports/typecheck.status

step "Vitest"
npx vitest run --reporter=default --reporter=json --outputFile.json=.reports/vitest.json ; echo $? > .reports/vitest.status

step "Next.js production build (for the end-to-end tests)"
npx next build ; build=$?
echo $build > .reports/build.status

if [[ $build -eq 0 ]]; then
  step "Playwright (system Chromium)"
  PLAYWRIGHT_JSON_OUTPUT_NAME=.reports/playwright.json npx playwright test --reporter=list,json ; echo $? > .reports/playwright.status
else
  echo "Skipping Playwright: the build failed." ; echo 1 > .reports/playwright.status
fi

node scripts/summarize-tests.mjs
