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

work="$(mktemp -d)"
server_pid=""
stop_server() {
  [ -n "$server_pid" ] || return 0
  if kill -0 "$server_pid" 2>/dev/null; then
    kill -TERM "$server_pid" 2>/dev/null
    # The server's shutdown grace is short; make sure it is gone in any case.
    for _ in $(seq 1 50); do
      kill -0 "$server_pid" 2>/dev/null || break
      sleep 0.1
    done
    kill -KILL "$server_pid" 2>/dev/null
  fi
  wait "$server_pid" 2>/dev/null
  server_pid=""
}
cleanup() {
  stop_server
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

free_port() {
  "$node22" -e '
    const s = require("net").createServer();
    s.listen(0, "127.0.0.1", () => { const { port } = s.address(); s.close(() => console.log(port)); });'
}

# Starts the server on a free port (a few tries: the port may be taken between probe and bind);
# sets server_pid and url. Returns 1 if it never listens.
start_http_server() {
  local try port
  for try in 1 2 3 4 5; do
    port="$(free_port)" || return 1
    : >"$work/server.log"
    "$@" --http "127.0.0.1:$port" >/dev/null 2>"$work/server.log" &
    server_pid=$!
    for _ in $(seq 1 300); do
      if ! kill -0 "$server_pid" 2>/dev/null; then
        wait "$server_pid" 2>/dev/null
        server_pid=""
        break
      fi
      # The server says so on stderr once it accepts connections.
      if grep -q "listening on http://127.0.0.1:$port" "$work/server.log"; then
        url="http://127.0.0.1:$port/mcp"
        return 0
      fi
      sleep 0.1
    done
    stop_server
    echo "interop/tasks_run.sh: the server did not listen on 127.0.0.1:$port (try $try):" >&2
    tail -c 2000 "$work/server.log" >&2
  done
  return 1
}

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
        if [ "$rc" -ne 0 ]; then
          echo "---- server stderr (last 3000 chars) ----"
          tail -c 3000 "$work/server.log"
          echo "---- end server stderr ----"
        fi
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
