#!/usr/bin/env bash
# Run every official client against one stdio MCP server and check what each sees.
#
#   interop/run.sh EXPECTATIONS.json -- SERVER_COMMAND [ARGS...]
#
# Installs nothing: run interop/setup.sh first. Paths and the server command are taken relative to
# the current directory. Runs, in order (each is one client, each prints PASS/FAIL lines and its
# own `N passed, M failed` line):
#   python       official Python SDK `mcp` 2.3.0: era legacy (initialize, 2025-11-25) and era
#                modern (server/discover, 2026-07-28)
#   node-sdk     @modelcontextprotocol/sdk 1.32.2 (TypeScript, 1.x): legacy only (2025-11-25)
#   node-client  @modelcontextprotocol/client 2.4.0 (TypeScript, 2.x): initialize at each of
#                2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25, and modern (2026-07-28)
#   inspector    @modelcontextprotocol/inspector 2.12.0 --cli on Node 22: legacy and modern
#                (no progress, logging, cancellation, subscription or completion checks: those
#                print SKIP lines)
# then a total `interop: N passed, M failed[, S skipped]` line. Exits 1 if any client failed.
#
# Environment:
#   INTEROP_CLIENTS   space-separated subset of "python node-sdk node-client inspector"
#   INTEROP_TIMEOUT   per-request timeout in seconds (default 30)
#   INTEROP_FORWARD_ENV  extra variable names the Inspector should pass to the server (it passes
#                     only HOME/PATH/SHELL/TERM and CARGO_*/RUST*/LANG/LC_*/... by default)
set -uo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
usage() {
  echo "usage: interop/run.sh EXPECTATIONS.json -- SERVER_COMMAND [ARGS...]" >&2
  echo "       INTEROP_HTTP=1 interop/run.sh --url http://HOST:PORT/mcp EXPECTATIONS.json" >&2
  exit 2
}
# --url URL (Streamable HTTP only): every client connects to that running endpoint instead of
# starting a server (interop/fleet_run.sh: nginx in front of a fleet).
url=""
if [ "${1:-}" = "--url" ]; then
  [ $# -eq 3 ] && [ "${INTEROP_HTTP:-0}" = 1 ] || usage
  url="$2"
  expectations="$3"
  set --
else
  [ $# -ge 3 ] && [ "$2" = "--" ] || usage
  expectations="$1"
  shift 2
fi
[ -f "$expectations" ] || { echo "interop/run.sh: no such expectations file: $expectations" >&2; exit 2; }

py="$here/python/.venv/bin/python"
node22="$here/node/node_modules/node/bin/node"
if [ ! -x "$py" ] || [ ! -x "$node22" ] || [ ! -d "$here/node/node_modules/@modelcontextprotocol/client" ]; then
  echo "interop/run.sh: the interop clients are not installed; run interop/setup.sh first" >&2
  exit 2
fi
timeout_s="${INTEROP_TIMEOUT:-30}"
# INTEROP_HTTP=1 (what http_run.sh sets): Streamable HTTP instead of stdio.
http=()
[ "${INTEROP_HTTP:-0}" = 1 ] && http=(--http)
# What the clients drive: the server command, or (--url) the running endpoint.
target=(-- "$@")
if [ -n "$url" ]; then
  http=(--url "$url")
  target=()
fi
clients="${INTEROP_CLIENTS:-python node-sdk node-client inspector}"

log="$(mktemp)"
trap 'rm -f "$log"' EXIT
failed_clients=()
run_client() {
  local name="$1"
  shift
  echo
  echo "######## $name"
  "$@" 2>&1 | tee -a "$log"
  local rc=${PIPESTATUS[0]}
  if [ "$rc" -ne 0 ]; then
    failed_clients+=("$name (exit $rc)")
  fi
}

for client in $clients; do
  case "$client" in
    python) run_client python "$py" "$here/python/check_server.py" "${http[@]}" --timeout "$timeout_s" "$expectations" "${target[@]}" ;;
    node-sdk) run_client node-sdk "$node22" "$here/node/check_server.mjs" "${http[@]}" --sdk sdk --timeout "$timeout_s" "$expectations" "${target[@]}" ;;
    node-client) run_client node-client "$node22" "$here/node/check_server.mjs" "${http[@]}" --sdk client --timeout "$timeout_s" "$expectations" "${target[@]}" ;;
    inspector)
      [ -z "$url" ] || { echo "interop/run.sh: the Inspector starts its own server; it takes no --url" >&2; exit 2; }
      run_client inspector "$node22" "$here/node/inspector_check.mjs" --timeout "$timeout_s" "$expectations" -- "$@" ;;
    *) echo "interop/run.sh: unknown client '$client' in INTEROP_CLIENTS" >&2; exit 2 ;;
  esac
done

# Sum every client's closing `who: N passed, M failed[, S skipped]` line.
read -r passed failed skipped < <(awk '
  /^[a-z-]+: [0-9]+ passed, [0-9]+ failed(, [0-9]+ skipped)?$/ {
    p += $2; f += $4; if (NF >= 7) s += $6
  }
  END { print p + 0, f + 0, s + 0 }' "$log")
echo
if [ ${#failed_clients[@]} -ne 0 ]; then
  echo "FAILED clients: ${failed_clients[*]}"
  # A client that crashed before its summary line must still fail the total.
  [ "$failed" -eq 0 ] && failed=${#failed_clients[@]}
fi
echo "interop: $passed passed, $failed failed$([ "$skipped" -gt 0 ] && echo ", $skipped skipped")"
[ ${#failed_clients[@]} -eq 0 ]
