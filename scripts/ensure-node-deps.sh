#!/usr/bin/env bash
# Installs the npm dependencies when they are missing or older than the lock file, and rebuilds the
# native addons when node_modules was installed for another Node.js ABI (a runtime change).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/node-runtime.sh
abi="$(node -p 'process.versions.modules')"
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "herald: installing npm dependencies"
  # `npm install` honours the lock file like `npm ci`, but tolerates optional platform binaries that
  # the registry mirror lacks (npm ci refuses a lock file without them).
  npm install --no-audit --no-fund
fi
stamp=node_modules/.herald-node-abi
if [ "$(cat "$stamp" 2>/dev/null)" != "$abi" ]; then
  if [ -f "$stamp" ] || [ -n "$(find node_modules -name '*.node' -path '*/build/Release/*' -print -quit)" ]; then
    echo "herald: rebuilding native addons for Node.js $(node --version)"
    npm rebuild --no-audit --no-fund >/dev/null
  fi
  echo "$abi" > "$stamp"
fi
