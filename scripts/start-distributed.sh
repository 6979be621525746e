#!/usr/bin/env bash
# `npm run start:distributed`: Herald in distributed mode on one machine — each service its own
# process over Kafka (the mock broker unless KAFKA_BROKERS is set), PostgreSQL from DATABASE_URL or
# embedded in HERALD_DATA_DIR (default .herald-distributed/), the gateway on HERALD_BASE_PORT
# (default 3000) and the others on the next ports. Ctrl-C stops everything. See scripts/start-distributed.ts.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/node-runtime.sh
bash scripts/ensure-node-deps.sh
# The mock broker (tools/kafka-mock) needs librdkafka-dev and gcc: installed here as `npm test` does
# (skipped when KAFKA_BROKERS names a cluster).
bash scripts/ensure-system-deps.sh
bash scripts/build.sh
# The services run with the same V8 flags, malloc arenas and compile cache as `npm start`.
source scripts/node-env.sh
exec node "${HERALD_DIST:-dist}/scripts/start-distributed.js" "$@"
