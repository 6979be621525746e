#!/usr/bin/env bash
# `npm start`: Herald in standalone mode — every service in one process, embedded PostgreSQL in
# HERALD_DATA_DIR (default .herald/) unless DATABASE_URL is set, HTTP on PORT (default 3000).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/node-runtime.sh
bash scripts/ensure-node-deps.sh
bash scripts/build.sh
# A larger young generation (V8's default semi-space is 16 MiB): /v1/track allocates fast and short-
# lived; scavenges took a seventh of the process's CPU and lengthened its tail latency. A 1 GiB old
# generation limit: under it V8 lets the old generation grow to a smaller multiple of what is live
# (a 100,000-recipient campaign peaked at 475 MB against 630 MB). docs/operations.md, Memory. The
# flags are in scripts/node-options (the benches read the same file); flags given in NODE_OPTIONS
# come after them and win.
defaults="$(cat scripts/node-options)"
export NODE_OPTIONS="${defaults}${NODE_OPTIONS:+ $NODE_OPTIONS}"
# glibc gives each thread that allocates its own malloc arenas; with the compose threads (sending)
# they held ~50 MB of the process's resident memory under a campaign (docs/operations.md, Memory)
export MALLOC_ARENA_MAX="${MALLOC_ARENA_MAX:-2}"
# Node's module compile cache: each start after the first reads the V8 code of its ~3,700 modules
# from disk instead of compiling them (3–12% of the time to ready, docs/operations.md, Boot). Yours
# wins when set; NODE_DISABLE_COMPILE_CACHE=1 turns it off.
export NODE_COMPILE_CACHE="${NODE_COMPILE_CACHE:-${TMPDIR:-/tmp}/herald-node-compile-cache}"
exec node dist/apps/standalone/src/main.js "$@"
