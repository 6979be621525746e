#!/usr/bin/env bash
# Installs the npm dependencies when they are missing or older than the lock file, and rebuilds the
# native addons when node_modules was installed for another Node.js ABI (a runtime change).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/node-runtime.sh
abi="$(node -p 'process.versions.modules')"
# npm with native addons built against the headers of the runtime it runs on (node-gyp would
# otherwise take those of a nodedir set in the user's npmrc, or download them)
npm_building() {
  if [ -n "${HERALD_NODE_HEADERS:-}" ]; then npm_config_nodedir="$HERALD_NODE_HEADERS" npm "$@"; else npm "$@"; fi
}
stamp=node_modules/.herald-node-abi # the ABI node_modules was installed or last rebuilt for
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  fresh=$([ -d node_modules ] && echo 0 || echo 1)
  echo "herald: installing npm dependencies"
  # `npm install` honours the lock file like `npm ci`, but tolerates optional platform binaries that
  # the registry mirror lacks (npm ci refuses a lock file without them).
  npm_building install --no-audit --no-fund
  if [ "$fresh" = 1 ]; then echo "$abi" > "$stamp"; fi
fi
if [ "$(cat "$stamp" 2>/dev/null)" != "$abi" ]; then
  echo "herald: rebuilding native addons for Node.js $(node --version)"
  npm_building rebuild --no-audit --no-fund >/dev/null
  echo "$abi" > "$stamp"
fi
