#!/usr/bin/env bash
# MCP Apps in a real host: the view of examples/apps rendered by a web page built on
# @modelcontextprotocol/ext-apps's host bridge, in headless Chromium:
#
#   interop/apps_run.sh APPS_BINARY          (e.g. target/debug/apps)
#
# Starts `APPS_BINARY --http 127.0.0.1:PORT` on a free loopback port, waits until it listens, and
# runs node/apps_check.mjs (see its header) against http://127.0.0.1:PORT/mcp: the host lists the
# tools, calls `forecast`, reads its view, renders it in a sandbox proxy and sends it the result;
# the script checks the view's table, clicks its Refresh button (an app-only tool called through
# the host) and checks the new table. Stops the server on any exit. Prints every PASS/FAIL line,
# then `interop apps: N passed, M failed`; exits 1 on any failure.
#
# Screenshots go to target/apps-host/ (INTEROP_APPS_ARTIFACTS to change; not committed).
#
# Environment:
#   INTEROP_TIMEOUT     wait for each page state, in seconds (default 30)
#   CHROMIUM            the browser (default: `chromium` on PATH; Debian's package `chromium`)
# Installs nothing: run interop/setup.sh first.
set -uo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
[ $# -eq 1 ] || {
  echo "usage: interop/apps_run.sh APPS_BINARY" >&2
  exit 2
}
node22="$here/node/node_modules/node/bin/node"
if [ ! -x "$node22" ] || [ ! -d "$here/node/node_modules/@modelcontextprotocol/ext-apps" ] \
  || [ ! -d "$here/node/node_modules/playwright-core" ] || [ ! -d "$here/node/node_modules/esbuild" ]; then
  echo "interop/apps_run.sh: the interop clients are not installed; run interop/setup.sh first" >&2
  exit 2
fi
command -v "$1" >/dev/null 2>&1 || [ -x "$1" ] || {
  echo "interop/apps_run.sh: no such server binary: $1" >&2
  exit 2
}
chromium="${CHROMIUM:-$(command -v chromium || true)}"
[ -n "$chromium" ] && [ -x "$chromium" ] || {
  echo "interop/apps_run.sh: no chromium on PATH (apt-get install chromium, or set CHROMIUM)" >&2
  exit 2
}
timeout_s="${INTEROP_TIMEOUT:-30}"
artifacts="${INTEROP_APPS_ARTIFACTS:-$here/../target/apps-host}"

script="interop/apps_run.sh"
# shellcheck source=interop/http_server.sh
source "$here/http_server.sh"

echo
echo "######## MCP Apps in a host (ext-apps AppBridge, Chromium)"
host_port="$(free_port)"
# The host page's origin may call the server from the browser (CORS), as a web host's would.
after_http=(--allow-origin "http://127.0.0.1:$host_port")
if start_http_server "$1"; then
  "$node22" "$here/node/apps_check.mjs" --url "$url" --host-port "$host_port" --chromium "$chromium" --timeout "$timeout_s" \
    --artifacts "$artifacts" 2>&1 | tee "$work/apps.out"
  rc=${PIPESTATUS[0]}
  stop_server
  show_server_stderr "$rc"
else
  echo "FAIL apps: the server never listened" | tee "$work/apps.out"
  rc=1
fi

read -r passed nfailed < <(awk '
  /^apps: [0-9]+ passed, [0-9]+ failed$/ { p += $2; f += $4 }
  END { print p + 0, f + 0 }' "$work/apps.out")
echo
# A run that died before its summary line still fails the total.
[ "$rc" -eq 0 ] || [ "$nfailed" -ne 0 ] || nfailed=1
echo "interop apps: $passed passed, $nfailed failed"
[ "$rc" -eq 0 ]
