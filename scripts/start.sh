#!/usr/bin/env bash
# `npm start`: Herald in standalone mode — every service in one process, embedded PostgreSQL in
# HERALD_DATA_DIR (default .herald/) unless DATABASE_URL is set, HTTP on PORT (default 3000).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/node-runtime.sh
bash scripts/ensure-node-deps.sh
bash scripts/build.sh
# V8 flags, malloc arenas and the module compile cache (scripts/node-env.sh)
source scripts/node-env.sh
exec node dist/apps/standalone/src/main.js "$@"
