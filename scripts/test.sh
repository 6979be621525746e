#!/usr/bin/env bash
# `npm test`: the whole suite — unit, integration (real PostgreSQL, Kafka wire protocol) and
# end-to-end (separate processes). Installs what the machine lacks first.
#   PostgreSQL: DATABASE_URL when set and its server allows 300 connections, else an embedded server
#   started for the run (max_connections 400).
#   Kafka: KAFKA_BROKERS when set, else librdkafka's mock cluster (tools/kafka-mock).
# The route-level e2e files built on `startTopology()` run twice: standalone, and distributed (every
# service its own process; jest.config.js). HERALD_E2E_MODE=standalone|distributed runs one mode.
# Extra arguments go to Jest (e.g. `npm test -- libs/http`).
# Passing tests print nothing; the figures they measure (start times, latencies: `testReport` of
# libs/testing) go to test-results/figures.log, printed under `::: figures` once Jest is done, pass or fail.
# A failed run ends with `::: failed`: each failed test and the head of its message (scripts/failed-tests.mjs).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/node-runtime.sh
bash scripts/ensure-node-deps.sh
bash scripts/ensure-system-deps.sh
bash scripts/build.sh
figures=test-results/figures.log
results=test-results/jest-results.json
mkdir -p "$(dirname "$figures")" && : >"$figures" && rm -f "$results"
started=$(date +%s)
status=0
NODE_OPTIONS="--experimental-vm-modules --no-warnings=ExperimentalWarning ${NODE_OPTIONS:-}" npx --no-install jest --json --outputFile="$results" "$@" || status=$?
if [ -s "$figures" ]; then
  echo "::: figures ($figures)"
  cat "$figures"
fi
if [ "$status" -ne 0 ]; then
  echo "::: failed ($results)"
  node scripts/failed-tests.mjs "$results"
fi
echo "herald: test suite finished in $(( $(date +%s) - started )) s"
exit "$status"
