# The process environment `npm start` and `npm run start:distributed` run Herald's processes with
# (sourced by scripts/start.sh and scripts/start-distributed.sh; bench/support.ts mirrors it). A value
# you set wins: NODE_OPTIONS flags come after the defaults, the other variables are kept as given.

# A larger young generation (V8's default semi-space is 16 MiB): /v1/track allocates fast and short-
# lived; scavenges took a seventh of the process's CPU and lengthened its tail latency. A 1 GiB old
# generation limit: under it V8 lets the old generation grow to a smaller multiple of what is live
# (a 100,000-recipient campaign peaked at 475 MB against 630 MB). docs/operations.md, Memory. The
# flags are in scripts/node-options (the benches read the same file).
defaults="$(cat scripts/node-options)"
export NODE_OPTIONS="${defaults}${NODE_OPTIONS:+ $NODE_OPTIONS}"
# glibc gives each thread that allocates its own malloc arenas; with the compose threads (sending)
# they held ~50 MB of the process's resident memory under a campaign (docs/operations.md, Memory)
export MALLOC_ARENA_MAX="${MALLOC_ARENA_MAX:-2}"
# Node's module compile cache: each start after the first reads the compiled top-level code of its
# ~3,700 modules from disk (12% of the time to ready on a fast machine, within the noise on a slow
# one: docs/operations.md, Boot). NODE_DISABLE_COMPILE_CACHE=1 turns it off.
export NODE_COMPILE_CACHE="${NODE_COMPILE_CACHE:-${TMPDIR:-/tmp}/herald-node-compile-cache}"
