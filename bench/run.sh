#!/usr/bin/env bash
# The benchmark in one command: builds everything (release) and runs it.
#   bench/run.sh            full run (5 runs per server, catalog, compile-time case, HTTP)
#   bench/run.sh --quick    CI smoke run (1 short run per server, catalog, HTTP, no compile case)
# Any other option is passed to the driver: bench/run.sh --help lists them.
# The Markdown report is printed and written to bench/results/latest.md (quick.md with --quick).
set -euo pipefail
cd "$(dirname "$0")"
cargo build --release --quiet -p mcp-bench -p mcp-loadgen
exec target/release/mcp-bench "$@"
