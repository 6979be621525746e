#!/usr/bin/env bash
# `npm run bench -- <name>`: builds, then runs bench/<name>.bench.ts and prints its figures.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/node-runtime.sh
name="${1:?usage: npm run bench -- <name>   (available: $(ls bench/*.bench.ts | xargs -n1 basename | sed 's/.bench.ts//' | tr '\n' ' '))}"
bash scripts/ensure-node-deps.sh
bash scripts/ensure-system-deps.sh >/dev/null
bash scripts/build.sh
exec node "${HERALD_DIST:-dist}/bench/${name}.bench.js"
