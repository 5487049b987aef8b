#!/usr/bin/env bash
# Tasks with the official clients that speak them, over stdio and over Streamable HTTP:
#
#   interop/tasks_run.sh SERVER_BINARY [SERVER_ARGS...]      (e.g. target/debug/tasks)
#   interop/tasks_run.sh --url http://HOST:PORT/mcp          (the HTTP runs only, against that
#                                                             running endpoint: interop/fleet_run.sh)
#
# Runs node/tasks_check.mjs (see its header) twice:
#   stdio  every client run starts `SERVER_BINARY SERVER_ARGS...` itself;
#   http   this script starts `SERVER_BINARY SERVER_ARGS... --http 127.0.0.1:PORT` on a free loopback
#          port, waits until it listens, runs every client against http://127.0.0.1:PORT/mcp, and
#          stops it (on any exit, through a trap).
# Clients: @modelcontextprotocol/sdk 1.x (client.experimental.tasks, 2025-11-25) and
# @modelcontextprotocol/ext-tasks over @modelcontextprotocol/client 2.x (2025-11-25 and 2026-07-28).
# Prints every PASS/FAIL line, then `interop tasks: N passed, M failed`; exits 1 on any failure.
#
# Environment:
#   INTEROP_TIMEOUT            per-request timeout in seconds (default 30)
#   INTEROP_TASKS_TRANSPORTS   subset of "stdio http" (default both)
#   INTEROP_TASKS_CLIENTS      sdk | ext-tasks | all (default all)
# Installs nothing: run interop/setup.sh first.
set -uo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
[ $# -ge 1 ] || {
  echo "usage: interop/tasks_run.sh SERVER_BINARY [SERVER_ARGS...] | --url URL" >&2
  exit 2
}
given_url=""
if [ "$1" = "--url" ]; then
  [ $# -eq 2 ] || {
    echo "usage: interop/tasks_run.sh --url URL" >&2
    exit 2
  }
  given_url="$2"
fi
node22="$here/node/node_modules/node/bin/node"
if [ ! -x "$node22" ] || [ ! -d "$here/node/node_modules/@modelcontextprotocol/ext-tasks" ] \
  || [ ! -d "$here/node/node_modules/@modelcontextprotocol/sdk" ]; then
  echo "interop/tasks_run.sh: the interop clients are not installed; run interop/setup.sh first" >&2
  exit 2
fi
[ -n "$given_url" ] || command -v "$1" >/dev/null 2>&1 || [ -x "$1" ] || {
  echo "interop/tasks_run.sh: no such server binary: $1" >&2
  exit 2
}
timeout_s="${INTEROP_TIMEOUT:-30}"
transports="${INTEROP_TASKS_TRANSPORTS:-stdio http}"
[ -z "$given_url" ] || transports="http"
clients="${INTEROP_TASKS_CLIENTS:-all}"
check=("$node22" "$here/node/tasks_check.mjs" --client "$clients" --timeout "$timeout_s")

script="interop/tasks_run.sh"
# shellcheck source=interop/http_server.sh
source "$here/http_server.sh"

failed=()
for transport in $transports; do
  echo
  echo "######## tasks over $transport"
  case "$transport" in
    stdio)
      "${check[@]}" -- "$@" 2>&1 | tee "$work/stdio.out"
      rc=${PIPESTATUS[0]}
      ;;
    http)
      if [ -n "$given_url" ]; then
        "${check[@]}" --url "$given_url" 2>&1 | tee "$work/http.out"
        rc=${PIPESTATUS[0]}
      elif start_http_server "$@"; then
        "${check[@]}" --url "$url" 2>&1 | tee "$work/http.out"
        rc=${PIPESTATUS[0]}
        stop_server
        show_server_stderr "$rc"
      else
        echo "FAIL tasks-http: the server never listened" | tee "$work/http.out"
        rc=1
      fi
      ;;
    *)
      echo "interop/tasks_run.sh: unknown transport '$transport' in INTEROP_TASKS_TRANSPORTS" >&2
      exit 2
      ;;
  esac
  [ "$rc" -eq 0 ] || failed+=("$transport (exit $rc)")
done

read -r passed nfailed < <(cat "$work"/*.out 2>/dev/null | awk '
  /^tasks: [0-9]+ passed, [0-9]+ failed$/ { p += $2; f += $4 }
  END { print p + 0, f + 0 }')
echo
if [ ${#failed[@]} -ne 0 ]; then
  echo "FAILED: ${failed[*]}"
  # A run that died before its summary line still fails the total.
  [ "$nfailed" -eq 0 ] && nfailed=${#failed[@]}
fi
echo "interop tasks: $passed passed, $nfailed failed"
[ ${#failed[@]} -eq 0 ]
