#!/usr/bin/env bash
# Installs what this project needs on a fresh Debian/Ubuntu machine with Node >= 20.9.
#   bash scripts/setup.sh                 npm packages from the lockfile (skipped when already current)
#   bash scripts/setup.sh --with-browser  also Chromium from the OS packages, for the Playwright tests
set -euo pipefail
cd "$(dirname "$0")/.."

if [[ "${1:-}" == "--with-browser" ]] && ! command -v chromium >/dev/null 2>&1; then
  echo "==> Installing Chromium (Debian package) for the end-to-end tests"
  SUDO=""
  [[ "$(id -u)" -ne 0 ]] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
fi

stamp="node_modules/.package-lock.sha256"
want="$(sha256sum package-lock.json | cut -d' ' -f1)"
if [[ ! -f "$stamp" || "$(cat "$stamp")" != "$want" ]]; then
  echo "==> npm ci (the first time takes ~2 minutes: better-sqlite3 compiles from source)"
  npm ci --no-audit --no-fund --loglevel=error
  echo "$want" > "$stamp"
fi
