#!/usr/bin/env bash
# The contributor's check (`npm test`): lint, typecheck and every Vitest file except the tests tagged
# `slow` (see vitest.config.ts), each phase with its time, then the closing line "N passed, M failed".
# No build and no Playwright: `npm run test:all` (CI) runs those, and the slow tests, as well.
set -uo pipefail
cd "$(dirname "$0")/.."
export NEXT_TELEMETRY_DISABLED=1
mkdir -p .reports
rm -f .reports/*.json .reports/*.status

timings=()
started=$SECONDS
phase_start=$SECONDS
step() { echo; echo "==> $*"; phase_start=$SECONDS; }
took() { timings+=("$1: $((SECONDS - phase_start)) s"); }

step "Lint: ESLint (the layering rules of DESIGN.md §2, family and strategy literals), import cycles, doc links"
npm run lint ; echo $? > .reports/lint.status ; took lint

step "TypeScript (tsc --noEmit)"
npx tsc --noEmit ; echo $? > .reports/typecheck.status ; took typecheck

step "Vitest, without the tests tagged slow (npm run test:slow runs those)"
npx vitest run --tags-filter='!slow' --reporter=default --reporter=json --outputFile.json=.reports/vitest.json ; echo $? > .reports/vitest.status ; took vitest

echo
for line in "${timings[@]}"; do echo "time $line"; done
echo "time total: $((SECONDS - started)) s"
node scripts/summarize-tests.mjs --quick
