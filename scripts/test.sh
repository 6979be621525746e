#!/usr/bin/env bash
# `npm test`: the whole suite — unit, integration (real PostgreSQL, Kafka wire protocol) and
# end-to-end (separate processes). Installs what the machine lacks first.
#   PostgreSQL: DATABASE_URL when set, else an embedded server started for the run.
#   Kafka: KAFKA_BROKERS when set, else librdkafka's mock cluster (tools/kafka-mock).
# Extra arguments go to Jest (e.g. `npm test -- libs/http`).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/node-runtime.sh
bash scripts/ensure-node-deps.sh
bash scripts/ensure-system-deps.sh
bash scripts/build.sh
started=$(date +%s)
NODE_OPTIONS="--experimental-vm-modules --no-warnings=ExperimentalWarning ${NODE_OPTIONS:-}" npx --no-install jest "$@"
echo "herald: test suite finished in $(( $(date +%s) - started )) s"
