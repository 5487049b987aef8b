#!/usr/bin/env bash
# Runs every test of the project: the Rust test suites (unit, end-to-end over stdio,
# schema conformance per protocol revision, compile-fail UI cases, doc examples) and the
# real-client interop suites. Installs the pinned interop clients first.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ -x interop/setup.sh ]; then
  bash interop/setup.sh
fi
cargo test --workspace --all-targets
cargo test --workspace --doc
