#!/usr/bin/env bash
# `npm run faults`: the fault suite (issue 44; docs/operations.md, "Under faults"). Builds, runs every
# scenario of test/faults/*.faults.ts (or those matching the extra arguments) against Herald
# distributed, then prints one table: scenario, acknowledged, lost, duplicated, in doubt, recovery
# time, error rate during the fault. Not part of `npm test`.
#   FAULTS_PROFILE=short (default: one fault of each kind) | long (kills every 30 s for 5 minutes, …)
#   FAULTS_RATE        requests a second of the steady load (default 10)
#   HERALD_DIST        the build folder (default dist)
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/node-runtime.sh
bash scripts/ensure-node-deps.sh
bash scripts/ensure-system-deps.sh >/dev/null
bash scripts/build.sh
out="${HERALD_DIST:-dist}"
npx --no-install swc test/faults/report.ts test/faults/print-table.ts --config-file .swcrc -d "$out" >/dev/null
rows="test-results/faults-$(basename "$out").jsonl" # report.ts: ROWS_FILE
mkdir -p test-results && rm -f "$rows"
status=0
NODE_OPTIONS="--experimental-vm-modules --no-warnings=ExperimentalWarning ${NODE_OPTIONS:-}" \
  npx --no-install jest -c test/faults/jest.config.js --runInBand "$@" || status=$?
echo "::: faults (${FAULTS_PROFILE:-short} profile, ${FAULTS_RATE:-10} requests/s)"
node "$out/test/faults/print-table.js"
exit "$status"
