#!/usr/bin/env bash
# Runs every test of the project:
#   1. the Rust suites: unit tests, end-to-end tests over real stdio processes (every message
#      checked against tests/spec/<revision>/schema.json), the reliability tests (bad input,
#      load: 100,000 calls; soak: 60 s, MCP_SOAK_SECS to change; faults), compile-error (ui)
#      tests, doc examples, and the import-circles check's own (scripts/import-circles/);
#      then the fuzz targets (scripts/fuzz.sh: 60 s each);
#   2. the real-client interop suites: the official Python SDK, TypeScript SDK (1.x and 2.x)
#      and MCP Inspector drive each stdio example server (pinned versions; see
#      interop/README.md; the http example is tested over HTTP in step 1);
#   3. the official conformance suite against the conformance example over Streamable HTTP,
#      checked against interop/conformance-baseline.yml.
#      Also an MCPB bundle of the calculator, validated and packed by @anthropic-ai/mcpb
#      (interop/mcpb_run.sh);
#   4. a fleet (interop/fleet_run.sh): instances sharing one Redis behind nginx round robin, no
#      sticky routing, driven by the conformance suite, the SDK clients and the tasks clients;
#   5. MCP Apps in a real host (interop/apps_run.sh): the apps example's view rendered by a page
#      built on @modelcontextprotocol/ext-apps's AppBridge in headless Chromium (needs chromium).
# Installs first what it needs and lacks: nginx, redis-server and chromium (apt-get; see
# scripts/system-packages.sh), and the pinned interop clients (interop/setup.sh). Both are
# no-ops when up to date.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/system-packages.sh
bash interop/setup.sh

cargo test --workspace --all-targets
cargo test --workspace --doc
# The import-circles check's reader and resolver (the check itself runs in .ci/run, with the lints).
cargo test --quiet --manifest-path scripts/import-circles/Cargo.toml

# The fuzz targets, 60 s each (FUZZ_SECS to change; needs cargo-fuzz, see CONTRIBUTING.md, "Fuzzing").
bash scripts/fuzz.sh

# The binaries the interop suites drive (built above; this only makes sure): the examples, and the
# test fixture server for the progress, logging and cancellation round-trips.
cargo build --workspace --bins
bin="${CARGO_TARGET_DIR:-target}/debug"
bash interop/run.sh interop/expectations/files.json -- "$bin/files" interop/fixtures/files-root
bash interop/run.sh interop/expectations/conformance.json -- "$bin/conformance"
bash interop/run.sh interop/expectations/calculator.json -- "$bin/calculator"
bash interop/run.sh interop/expectations/notes.json -- "$bin/notes"
bash interop/run.sh interop/expectations/jobs.json -- "$bin/jobs"
bash interop/run.sh interop/expectations/fixture.json -- "$bin/fixture"
# MCP Apps: each tool's `_meta.ui`, the view and its read, validated against ext-apps' schema.
bash interop/run.sh interop/expectations/apps.json -- "$bin/apps"
# The same SDK clients over Streamable HTTP (servers started with --http 127.0.0.1:PORT).
bash interop/http_run.sh interop/expectations/conformance.json -- "$bin/conformance"
bash interop/http_run.sh interop/expectations/fixture.json -- "$bin/fixture" --sse-polling-ms 250
bash interop/http_run.sh interop/expectations/apps.json -- "$bin/apps"
# Tasks (2025-11-25 and the 2026-07-28 extension) with the 1.x SDK and ext-tasks, over stdio and HTTP.
bash interop/tasks_run.sh "$bin/tasks"
# The 1.x SDK's own OAuth client (ClientCredentialsProvider) against HttpServer::verify_jwt, with
# oidc-provider as the authorization server: discovery from the 401, a token, scoped tools.
bash interop/auth_run.sh "$bin/jwt_server"
# Skills (the 2026-07-28 io.modelcontextprotocol/skills extension) with the Python SDK: every file
# of every skill the conformance example serves read and checked against its digest and size.
bash interop/skills_run.sh "$bin/conformance"
# An MCPB bundle of the calculator: its manifest from MCP_CLI=mcpb-manifest, checked by the official
# `mcpb validate` and `mcpb pack`, and run from the unpacked bundle; the primitives server's manifest
# (prompts) through `mcpb validate`.
bash interop/mcpb_run.sh "$bin/calculator" "$bin/primitives"

bash interop/conformance_suite.sh "$bin/conformance"

# A fleet: three instances of the conformance example, then of the tasks server, each fleet sharing
# one redis-server behind nginx round robin (needs nginx and redis-server, as http-tests/tests/fleet.rs).
bash interop/fleet_run.sh "$bin/conformance" "$bin/tasks"
# MCP Apps: a web host (ext-apps AppBridge and the 2.x client) in headless Chromium renders the
# apps example's view, clicks its Refresh button (an app-only tool, called through the host) and
# checks the table before and after; screenshots in target/apps-host/.
bash interop/apps_run.sh "$bin/apps"
