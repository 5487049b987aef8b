#!/usr/bin/env bash
# Install the pinned interop clients. Idempotent: a part whose lock file has not changed since it
# was last installed is left alone (a stamp file holds the lock's checksum). Fails loudly.
#
#   interop/python/.venv   the official Python SDK, mcp 2.3.0, from python/requirements.txt
#                          (a full lock; installed with --no-deps, then `pip check`)
#   interop/node/node_modules  `npm ci` from node/package-lock.json: @modelcontextprotocol/sdk,
#                          @modelcontextprotocol/client, @modelcontextprotocol/inspector,
#                          @modelcontextprotocol/conformance, @modelcontextprotocol/ext-tasks,
#                          @anthropic-ai/mcpb (MCPB bundles: validate, pack),
#                          @modelcontextprotocol/ext-apps (the MCP Apps host bridge and its
#                          schema, which ajv checks `_meta.ui` against), esbuild
#                          (bundles the host page) and playwright-core (drives the system
#                          chromium; apps_run.sh), oidc-provider 9.13.3 (the authorization
#                          server of http-tests/tests/jwt.rs, run by interop/auth/provider.mjs),
#                          and the `node` package (a Node 22 binary for the Inspector, which
#                          needs Node >= 22.19)
#
# Needs: python3 (>= 3.10; the lock was made on 3.11) with venv, npm (any Node >= 20), and the
# PyPI and npm registries. Set PYTHON to use another interpreter. Set INTEROP_FORCE=1 to
# reinstall everything.
set -Eeuo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
py_dir="$here/python"
node_dir="$here/node"
python="${PYTHON:-python3}"
force="${INTEROP_FORCE:-0}"

die() {
  echo "interop/setup.sh: FAILED: $*" >&2
  exit 1
}
trap 'die "command failed (line $LINENO): $BASH_COMMAND"' ERR

checksum() { cat "$@" | sha256sum | cut -d' ' -f1; }

# ---------------------------------------------------------------- Python SDK
setup_python() {
  local venv="$py_dir/.venv" stamp="$py_dir/.venv/.interop-stamp" want
  want="$(checksum "$py_dir/requirements.txt")"
  if [ "$force" != 1 ] && [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] && "$venv/bin/python" -c 'import mcp' 2>/dev/null; then
    echo "== python: $venv is up to date"
    return
  fi
  command -v "$python" >/dev/null || die "no $python on PATH (set PYTHON)"
  "$python" - <<'PY' || die "$python is too old: the mcp SDK needs Python >= 3.10"
import sys
sys.exit(0 if sys.version_info >= (3, 10) else 1)
PY
  echo "== python: creating $venv with $("$python" --version 2>&1)"
  rm -rf "$venv"
  "$python" -m venv "$venv" || die "python -m venv failed (on Debian: apt-get install python3-venv)"
  "$venv/bin/python" -m pip install --disable-pip-version-check --no-input --quiet --no-deps \
    -r "$py_dir/requirements.txt" || die "pip install -r python/requirements.txt failed"
  "$venv/bin/python" -m pip check --disable-pip-version-check || die "pip check: python/requirements.txt is not a complete, consistent lock"
  "$venv/bin/python" -c 'from importlib.metadata import version; import mcp; print("   mcp", version("mcp"))' \
    || die "the venv cannot import mcp"
  echo "$want" >"$stamp"
}

# ---------------------------------------------------------------- npm side
setup_node() {
  local stamp="$node_dir/node_modules/.interop-stamp" want
  want="$(checksum "$node_dir/package.json" "$node_dir/package-lock.json")"
  if [ "$force" != 1 ] && [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] \
    && "$node_dir/node_modules/node/bin/node" --version >/dev/null 2>&1; then
    echo "== node: $node_dir/node_modules is up to date"
    return
  fi
  command -v npm >/dev/null || die "no npm on PATH (Node >= 20 with npm is needed to install)"
  echo "== node: npm ci in $node_dir (npm $(npm --version 2>/dev/null), node $(node --version 2>/dev/null))"
  # The Inspector's dependencies declare engines node >= 22 and npm (running on the system Node)
  # warns about them; they only ever run on the Node 22 binary installed here.
  (cd "$node_dir" && npm ci --no-audit --no-fund) || die "npm ci failed"
  local node22="$node_dir/node_modules/node/bin/node"
  [ -x "$node22" ] || die "$node22 missing: the 'node' package's preinstall script (allowed in package.json allowScripts) did not run"
  local v
  v="$("$node22" --version)" || die "$node22 does not run"
  case "$v" in
    v22.*) ;;
    *) die "$node22 is $v, expected v22.x" ;;
  esac
  for f in @modelcontextprotocol/sdk/package.json @modelcontextprotocol/client/package.json \
    @modelcontextprotocol/ext-tasks/dist/client/index.js \
    @modelcontextprotocol/inspector/clients/launcher/build/index.js \
    @modelcontextprotocol/inspector/clients/cli/build/index.js \
    @modelcontextprotocol/conformance/dist/index.js \
    @anthropic-ai/mcpb/dist/cli/cli.js \
    @modelcontextprotocol/ext-apps/dist/src/app-bridge.js playwright-core/package.json \
    esbuild/lib/main.js; do
    [ -f "$node_dir/node_modules/$f" ] || die "node_modules/$f missing after npm ci"
  done
  "$node22" "$node_dir/node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js" --version >/dev/null \
    || die "the Inspector does not start on $node22"
  # esbuild's install script is denied (allowScripts): its binary comes in the optional
  # dependency @esbuild/<platform>, which the API finds without the script.
  (cd "$node_dir" && "$node22" -e 'require("esbuild").transformSync("let a = 1")') >/dev/null \
    || die "esbuild does not run (is its @esbuild/<platform> package installed?)"
  echo "   node $v for the Inspector; $(cd "$node_dir" && "$node22" -e '
    for (const p of ["sdk", "client", "inspector", "conformance", "ext-tasks", "ext-apps"]) {
      const v = JSON.parse(require("fs").readFileSync(`node_modules/@modelcontextprotocol/${p}/package.json`)).version;
      process.stdout.write(`@modelcontextprotocol/${p} ${v}  `);
    }
    const mcpb = JSON.parse(require("fs").readFileSync("node_modules/@anthropic-ai/mcpb/package.json"));
    process.stdout.write(`@anthropic-ai/mcpb ${mcpb.version}`);')"
  echo "$want" >"$stamp"
}

setup_python
setup_node
trap - ERR
echo "== interop clients ready (run: interop/run.sh EXPECTATIONS.json -- SERVER_COMMAND...)"
