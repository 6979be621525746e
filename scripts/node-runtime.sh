# Sourced (not run) by the project's scripts: puts the Node.js release named in .node-version first
# on PATH, so that npm, npx, Jest, Herald and the processes they spawn all run on it.
#
# The machine's `node` is used when its major version is the pinned one. Otherwise the pinned
# release is installed once into .runtime/node-v<version>/ from the npm registry: the package
# node-<os>-<arch> holds the official binary and headers, and the registry is the one thing every
# machine that can install Herald's dependencies reaches. Native addons are then built against
# that runtime's headers (HERALD_NODE_HEADERS, used by scripts/ensure-node-deps.sh).
#
# Why not the machine's Node 20: it left maintenance on 2026-04-30, and Node 24 (active LTS) runs
# /v1/track with about an eighth less CPU per request (AsyncLocalStorage without promise hooks,
# newer V8): docs/adr/0010-node-runtime.md.

herald_node_runtime() {
  local root want want_major have os arch dir tmp
  root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
  want="$(tr -d '[:space:]' < "$root/.node-version")"
  want_major="${want%%.*}"
  have="$(node -p 'process.versions.node' 2>/dev/null || true)"
  if [[ "${have%%.*}" == "$want_major" ]]; then
    return 0
  fi
  dir="$root/.runtime/node-v$want"
  if [[ ! -x "$dir/bin/node" ]]; then
    case "$(uname -s)" in
      Linux) os=linux ;;
      Darwin) os=darwin ;;
      *) echo "herald: no Node.js $want_major here (found ${have:-none}) and no package for $(uname -s); install Node.js $want yourself" >&2; return 1 ;;
    esac
    case "$(uname -m)" in
      x86_64 | amd64) arch=x64 ;;
      aarch64 | arm64) arch=arm64 ;;
      *) echo "herald: no Node.js $want_major here (found ${have:-none}) and no package for $(uname -m); install Node.js $want yourself" >&2; return 1 ;;
    esac
    echo "herald: installing Node.js $want (node-$os-$arch from the npm registry) into .runtime/ (the machine has ${have:-none})" >&2
    tmp="$(mktemp -d "$root/.runtime-XXXXXX")"
    if ! (cd "$tmp" && npm pack --silent "node-$os-$arch@$want" > /dev/null && mkdir unpacked && tar xzf node-*.tgz -C unpacked --strip-components=1); then
      rm -rf "$tmp"
      echo "herald: could not install Node.js $want from the npm registry" >&2
      return 1
    fi
    mkdir -p "$root/.runtime"
    if [[ ! -x "$dir/bin/node" ]]; then # another script may have installed it meanwhile
      rm -rf "$dir"
      mv "$tmp/unpacked" "$dir"
    fi
    rm -rf "$tmp"
  fi
  export PATH="$dir/bin:$PATH"
  export HERALD_NODE_HEADERS="$dir" # for native addon builds (scripts/ensure-node-deps.sh)
}

herald_node_runtime
