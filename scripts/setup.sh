#!/usr/bin/env bash
# Installs what this project needs on a fresh Debian/Ubuntu machine with any Node >= 18 and npm: the
# project's own runtime (Node 24, the `node` npm package, decision 0028) comes with the npm packages,
# and every npm script — and the rest of this script — runs on it.
#   bash scripts/setup.sh                 npm packages from the lockfile (skipped when node_modules already matches it)
#   bash scripts/setup.sh --with-browser  also Chromium from the OS packages, for the Playwright tests, and PostgreSQL's
#                                         server binaries, for the shared-mode tests (they start throw-away servers)
#   bash scripts/setup.sh --build         also the production build (`next build`), skipped when nothing changed since
#                                         the last one (what `npm run playground` runs before `next start`)
# The decisions are made by scripts/playground-state.mjs, which prints why.
set -euo pipefail
cd "$(dirname "$0")/.."
# The project's Node (node_modules/.bin/node, once installed) before the system's, as npm scripts have it.
export PATH="$PWD/node_modules/.bin:$PATH"

with_browser=0
build=0
for arg in "$@"; do
  case "$arg" in
    --with-browser) with_browser=1 ;;
    --build) build=1 ;;
    *) echo "setup.sh: unknown option $arg (use --with-browser and/or --build)" >&2; exit 2 ;;
  esac
done

if [[ $with_browser -eq 1 ]] && ! command -v chromium >/dev/null 2>&1; then
  echo "==> Installing Chromium (Debian package) for the end-to-end tests"
  SUDO=""
  [[ "$(id -u)" -ne 0 ]] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
fi

# PostgreSQL: tests/helpers/postgres-server.ts runs the machine's initdb + postgres in a temporary
# directory on 127.0.0.1; only the binaries are needed. If this cannot install them, those tests fail and say how.
if [[ $with_browser -eq 1 ]] && ! compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null; then
  echo "==> Installing PostgreSQL (Debian package) for the shared-mode tests"
  SUDO=""
  [[ "$(id -u)" -ne 0 ]] && SUDO="sudo"
  if ! { $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq postgresql >/dev/null; }; then
    echo "warning: could not install PostgreSQL; the PostgreSQL tests will fail until \`apt-get install -y postgresql\` succeeds" >&2
  fi
fi

# Each phase prints how long it took, and the end the total, so a slow first start says where it went.
started=$SECONDS
phase_start=$SECONDS
phase_done() { echo "    ($1 took $((SECONDS - phase_start)) s)"; phase_start=$SECONDS; }

# npm packages. "Current" is read from npm's own record of its last install
# (node_modules/.package-lock.json, written by every `npm ci` and `npm install`), compared entry by
# entry with package-lock.json — so an install done by hand counts, and only a real change of what the
# lockfile pins (or a missing package) reinstalls. Nothing compiles: the embedded database is Node's
# own node:sqlite (decision 0035), and the other native parts ship prebuilt for this platform.
installed=0
if reason="$(node scripts/playground-state.mjs install)"; then
  echo "==> npm packages are current: $reason"
else
  echo "==> npm ci: $reason (about 40 s with a warm npm cache)"
  npm ci --no-audit --no-fund --loglevel=error
  installed=1
  phase_done "npm ci"
fi
rm -f node_modules/.package-lock.sha256 # the stamp earlier versions of this script wrote; no longer read

# Python sandbox: the persisted Pyodide memory snapshot of this build (decision 0019), so the first
# Python request is served in under a second. A current, SHA-256-verified snapshot is only checked;
# this step never fails the setup (the first use makes the snapshot instead).
echo "==> $(node_modules/.bin/tsx lib/sandbox/prepare-snapshot.ts 2>&1 | tail -1 || echo 'Python sandbox snapshot skipped')"
phase_start=$SECONDS

# Production build. Its inputs (every file git tracks or would track, except docs; the lockfile; the
# Node version and NEXT_PUBLIC_* variables) are fingerprinted *before* building and stamped next to
# .next/BUILD_ID after a successful build; a missing, foreign or stale build is rebuilt.
if [[ $build -eq 1 ]]; then
  fingerprint="$(node scripts/playground-state.mjs fingerprint)"
  if [[ $installed -eq 1 ]]; then
    reason="the npm packages were reinstalled"
  elif reason="$(node scripts/playground-state.mjs build "$fingerprint")"; then
    echo "==> next build skipped: $reason"
    echo "==> ready to serve after $((SECONDS - started)) s of setup"
    exit 0
  fi
  echo "==> next build: $reason"
  node scripts/playground-state.mjs forget-build
  NEXT_TELEMETRY_DISABLED=1 node_modules/.bin/next build
  node scripts/playground-state.mjs record-build "$fingerprint"
  phase_done "next build"
  echo "==> ready to serve after $((SECONDS - started)) s of setup"
fi
