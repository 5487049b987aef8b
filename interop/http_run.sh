#!/usr/bin/env bash
# The official SDK clients over Streamable HTTP:
#
#   interop/http_run.sh EXPECTATIONS.json -- SERVER_COMMAND [ARGS...]
#   interop/http_run.sh --url http://HOST:PORT/mcp EXPECTATIONS.json
#
# With --url every client run connects to that running endpoint and starts nothing (a fleet of
# instances behind nginx: interop/fleet_run.sh); otherwise:
# Like run.sh, but every client run (each era) starts `SERVER_COMMAND ARGS... --http
# 127.0.0.1:PORT` on a free port and connects the SDK's Streamable HTTP client to
# http://127.0.0.1:PORT/mcp: the Python SDK's `streamable_http_client` (eras legacy and
# modern) and `StreamableHTTPClientTransport` of the TypeScript SDK 1.x (legacy) and 2.x
# (2025-03-26, 2025-06-18, 2025-11-25, modern). Besides everything run.sh checks, the HTTP
# exchanges themselves are checked (see interop/README.md, "Over Streamable HTTP").
# The server must take `--http ADDR` (the conformance example and the fixture server do).
# Not run here: the Inspector CLI (one request per process, so it checks nothing the SDKs do
# not; it is run over stdio by run.sh), and 2024-11-05 (no Streamable HTTP in that revision).
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
INTEROP_HTTP=1 INTEROP_CLIENTS="${INTEROP_CLIENTS:-python node-sdk node-client}" exec bash "$here/run.sh" "$@"
