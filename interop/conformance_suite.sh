#!/usr/bin/env bash
# Run the official MCP conformance suite (@modelcontextprotocol/conformance, pinned in
# node/package.json) against the conformance fixture server over Streamable HTTP, three times:
# every server scenario (`--suite all`, each at its own wire revision), then exactly what the
# 2025-11-25 and the 2026-07-28 revisions require (`--requirements`, each at that revision's
# wire). Each run is checked against the one expected-failures baseline
# interop/conformance-baseline.yml (entries for scenarios a run does not run are ignored):
# exits non-zero on any failure not in the baseline, and on any baseline entry that now passes.
#
#   interop/conformance_suite.sh PATH/TO/conformance
#   interop/conformance_suite.sh --url http://HOST:PORT/mcp
#
# Installs nothing: run interop/setup.sh first. The server listens on a free loopback port
# and is stopped (SIGTERM) at the end; its log goes to stderr on failure. With --url the suite
# runs against that running endpoint instead (a fleet behind nginx: interop/fleet_run.sh, which
# shows the instances' logs itself).
set -uo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
usage() {
  echo "usage: interop/conformance_suite.sh PATH/TO/conformance | --url http://HOST:PORT/mcp" >&2
  exit 2
}
url=""
if [ "${1:-}" = "--url" ]; then
  [ $# -eq 2 ] || usage
  url="$2"
else
  [ $# -eq 1 ] || usage
  server="$1"
fi
node22="$here/node/node_modules/node/bin/node"
suite="$here/node/node_modules/@modelcontextprotocol/conformance/dist/index.js"
[ -x "$node22" ] && [ -f "$suite" ] || {
  echo "interop/conformance_suite.sh: the suite is not installed; run interop/setup.sh first" >&2
  exit 2
}

log="$(mktemp)"
pid=""
trap '[ -n "$pid" ] && { kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; }; rm -f "$log"' EXIT
if [ -z "$url" ]; then
  port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
  "$server" --http "127.0.0.1:$port" 2>"$log" &
  pid=$!
  for _ in $(seq 1 100); do
    (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break
    kill -0 "$pid" 2>/dev/null || { echo "the server exited:" >&2; cat "$log" >&2; exit 1; }
    sleep 0.1
  done
  url="http://127.0.0.1:$port/mcp"
fi

status=0
for run in "--suite all" "--requirements 2025-11-25" "--requirements 2026-07-28"; do
  echo "== conformance suite ($run) against $url"
  # shellcheck disable=SC2086 # $run is two words on purpose
  "$node22" "$suite" server --url "$url" $run \
    --expected-failures "$here/conformance-baseline.yml" | grep -v '^Running client scenario'
  [ "${PIPESTATUS[0]}" -eq 0 ] || { echo "conformance suite ($run): FAILED" >&2; status=1; }
done
if [ "$status" -ne 0 ] && [ -n "$pid" ]; then
  echo "conformance suite: FAILED (server log follows)" >&2
  cat "$log" >&2
fi
exit "$status"
