#!/usr/bin/env bash
# Compiles every app, lib and script to dist/ (ES modules, path aliases resolved) with SWC.
set -euo pipefail
cd "$(dirname "$0")/.."
rm -rf dist
npx --no-install swc apps libs scripts bench --config-file .swcrc -d dist --ignore '**/*.spec.ts' --ignore '**/*.mjs' >/dev/null
echo '{"type":"module"}' > dist/package.json
