#!/usr/bin/env bash
# Compiles every app, lib and script to dist/ (ES modules, path aliases resolved) with SWC.
# Specs and their support files (`*.spec-support.ts`, next to the specs) are left out.
# HERALD_DIST names another output folder inside the repository (parallel work trees of one checkout).
set -euo pipefail
cd "$(dirname "$0")/.."
out="${HERALD_DIST:-dist}"
rm -rf "$out"
npx --no-install swc apps libs scripts bench --config-file .swcrc -d "$out" --ignore '**/*.spec.ts' --ignore '**/*.spec-support.ts' --ignore '**/*.mjs' --ignore 'apps/dashboard/**' >/dev/null
echo '{"type":"module"}' > "$out/package.json"
# the dashboard (apps/dashboard, ADR 0028): Vite bundles it into $out/dashboard, which the gateway serves
# at /; prints the gzipped size of the first screen's JavaScript and fails past its budget
HERALD_DIST="$out" npx --no-install vite build --config apps/dashboard/vite.config.mjs
# the OpenAPI document (`npm run openapi`), which the gateway serves at GET /openapi.json
if [ -f docs/openapi.json ]; then mkdir -p "$out/docs" && cp docs/openapi.json "$out/docs/"; fi
# the API reference page's files (GET /docs): swagger-ui-dist, a dev dependency the image does not install
if [ -d node_modules/swagger-ui-dist ]; then
  mkdir -p "$out/docs/swagger-ui"
  cp node_modules/swagger-ui-dist/{swagger-ui.css,swagger-ui-bundle.js,LICENSE,NOTICE} "$out/docs/swagger-ui/"
fi
