#!/usr/bin/env bash
# `npm start`: Herald in standalone mode — every service in one process, embedded PostgreSQL in
# HERALD_DATA_DIR (default .herald/) unless DATABASE_URL is set, HTTP on PORT (default 3000).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-node-deps.sh
bash scripts/build.sh
# A larger young generation (V8's default semi-space is 16 MiB): /v1/track allocates fast and short-
# lived; scavenges took a seventh of the process's CPU and lengthened its tail latency
# (docs/operations.md, Memory). Flags given in NODE_OPTIONS come after this one and win.
# bench/support.ts (START_NODE_OPTIONS) starts Herald with the same flag.
export NODE_OPTIONS="--max-semi-space-size=128${NODE_OPTIONS:+ $NODE_OPTIONS}"
exec node dist/apps/standalone/src/main.js "$@"
