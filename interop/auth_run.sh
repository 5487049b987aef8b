#!/usr/bin/env bash
# The official TypeScript and Python SDKs' own OAuth clients against a server that verifies JWT
# access tokens (HttpServer::verify_jwt), with a real authorization server (oidc-provider):
#
#   interop/auth_run.sh JWT_SERVER_BINARY      (target/debug/jwt_server, from http-tests)
#
# Starts interop/auth/provider.mjs and the server on free loopback ports, runs
# interop/auth/sdk_client.mjs and sdk_client.py against the server (see their headers), and
# stops both on any exit.
# Prints every PASS/FAIL line; exits 1 on any failure. Installs nothing: run interop/setup.sh
# first.
set -uo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
[ $# -eq 1 ] || { echo "usage: interop/auth_run.sh JWT_SERVER_BINARY" >&2; exit 2; }
node22="$here/node/node_modules/node/bin/node"
if [ ! -x "$node22" ] || [ ! -d "$here/node/node_modules/oidc-provider" ] || [ ! -x "$here/python/.venv/bin/python" ]; then
  echo "interop/auth_run.sh: the interop clients are not installed; run interop/setup.sh first" >&2
  exit 1
fi
work="$(mktemp -d)"
provider_pid="" server_pid=""
cleanup() {
  [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null
  [ -n "$provider_pid" ] && kill "$provider_pid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

# The first line of `$1` that starts with "listening ", waited for up to 30 s.
listening() {
  for _ in $(seq 300); do
    line="$(grep -m1 '^listening ' "$1" 2>/dev/null)" && { echo "${line#listening }"; return 0; }
    sleep 0.1
  done
  echo "interop/auth_run.sh: $2 did not start; its output:" >&2
  cat "$1" >&2
  return 1
}

"$node22" "$here/auth/provider.mjs" --keys "$work/keys.json" >"$work/provider.out" 2>&1 &
provider_pid=$!
issuer="$(listening "$work/provider.out" "the authorization server")" || exit 1
"$1" "$issuer" >"$work/server.out" 2>&1 &
server_pid=$!
url="$(listening "$work/server.out" "the server")" || exit 1
python="$here/python/.venv/bin/python"
echo "== interop auth: the TypeScript SDK's ClientCredentialsProvider, $url, issuer $issuer"
"$node22" "$here/auth/sdk_client.mjs" "$url" "$issuer"
status=$?
echo "== interop auth: the Python SDK's ClientCredentialsOAuthProvider"
"$python" "$here/auth/sdk_client.py" "$url" "$issuer" || status=1
exit $status
