#!/usr/bin/env bash
# Installs the npm dependencies when they are missing or older than the lock file.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "herald: installing npm dependencies"
  npm ci --no-audit --no-fund
fi
