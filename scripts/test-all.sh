#!/usr/bin/env bash
# Runs every check and test suite, then prints one line "N passed, M failed"
# totalled over lint, typecheck, Vitest and Playwright, and exits non-zero on any failure.
set -uo pipefail
cd "$(dirname "$0")/.."
export NEXT_TELEMETRY_DISABLED=1
mkdir -p .reports
rm -f .reports/*.json .reports/*.status

step() { echo; echo "==> $*"; }

step "Lint: ESLint (the layering rules of DESIGN.md §2, family and strategy literals), import cycles, doc links"
npm run lint ; echo $? > .reports/lint.status

step "TypeScript (tsc --noEmit)"
npx tsc --noEmit ; echo $? > .reports/typecheck.status

step "Vitest"
npx vitest run --reporter=default --reporter=json --outputFile.json=.reports/vitest.json ; echo $? > .reports/vitest.status

step "Next.js production build (for the end-to-end tests), with test key values in its environment"
# The values tests/settings/client-bundle.test.ts looks for: a key that leaked into the browser bundle
# would show up in .next/static. Server code reads keys at run time, so they do not reach `next start`.
OPENAI_API_KEY=sk-test-XYZ-bundle-openai-4a8a08f09d37b737 \
ANTHROPIC_API_KEY=sk-ant-test-XYZ-bundle-8277e0910d750195 \
GOOGLE_GENERATIVE_AI_API_KEY=AIza-test-XYZ-bundle-e4da3b7fbbce2345 \
OPENAI_COMPATIBLE_API_KEY=sk-test-XYZ-bundle-compat-1679091c5a880faf \
  npx next build ; build=$?
echo $build > .reports/build.status

if [[ $build -eq 0 ]]; then
  step "Vitest on the build: no key value in the client bundle"
  npx vitest run tests/settings/client-bundle.test.ts --reporter=default --reporter=json --outputFile.json=.reports/vitest-bundle.json ; echo $? > .reports/vitest-bundle.status
fi

if [[ $build -eq 0 ]]; then
  step "Playwright (system Chromium)"
  PLAYWRIGHT_JSON_OUTPUT_NAME=.reports/playwright.json npx playwright test --reporter=list,json ; echo $? > .reports/playwright.status
else
  echo "Skipping Playwright: the build failed." ; echo 1 > .reports/playwright.status
fi

node scripts/summarize-tests.mjs
