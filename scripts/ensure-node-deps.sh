#!/usr/bin/env bash
# Installs the npm dependencies when they are missing or older than the lock file.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "herald: installing npm dependencies"
  # `npm install` honours the lock file like `npm ci`, but tolerates optional platform binaries that
  # the registry mirror lacks (npm ci refuses a lock file without them).
  npm install --no-audit --no-fund
fi
