#!/usr/bin/env bash
# Prints the import circles between the files of mcp-runtime and mcp-runtime-macros (a child importing
# its parent's items counts), and fails on a circle not listed in scripts/import-circles.allow
# or on a line there whose circle is gone or smaller, so that the list only shrinks. The
# program is std-only and a workspace of its own: it builds in seconds, without the main
# workspace. Extra arguments go to it (`--unresolved` lists the paths it could not resolve).
set -euo pipefail
cd "$(dirname "$0")/.."

cargo run --quiet --release --locked --manifest-path scripts/import-circles/Cargo.toml -- \
  --allow scripts/import-circles.allow "$@" mcp-runtime/src/lib.rs mcp-runtime-macros/src/lib.rs
