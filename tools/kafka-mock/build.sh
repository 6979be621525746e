#!/usr/bin/env bash
# Builds tools/kafka-mock/kafka-mock from kafka-mock.c against librdkafka (Debian: librdkafka-dev).
# Rebuilds only when the source (or this script) is newer than the binary.
set -euo pipefail
DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
SRC="$DIR/kafka-mock.c"
BIN="$DIR/kafka-mock"

if [[ -x "$BIN" && ! "$SRC" -nt "$BIN" && ! "${BASH_SOURCE[0]}" -nt "$BIN" ]]; then
  echo "[kafka-mock] up to date: $BIN"
  exit 0
fi
if [[ ! -f /usr/include/librdkafka/rdkafka_mock.h ]]; then
  echo "[kafka-mock] ERROR: /usr/include/librdkafka/rdkafka_mock.h missing; run scripts/ensure-system-deps.sh" >&2
  exit 1
fi
echo "[kafka-mock] building $BIN"
# Build to a temp file then rename, so concurrent builders never see a half-written binary.
TMP="$BIN.tmp.$$"
gcc -O2 -Wall -Wextra -rdynamic -o "$TMP" "$SRC" -lrdkafka -ldl
mv -f "$TMP" "$BIN"
