//! What the example packages' tests share: an example's `tools/list` checked against its
//! snapshot in every era, and its binary run as a command-line client (`MCP_CLI`).

use std::path::Path;
use std::process::{Command, Output};

use mcp_runtime::testing::assert_json_snapshot;
use serde_json::{Value, json};

use crate::StdioClient;

/// The tools `program` lists under `revision` (2026-07-28 statelessly, any other after
/// `initialize`), every message checked against that revision's schema.
pub fn listing(program: &str, args: &[&str], revision: &str) -> Value {
    let mut client = StdioClient::spawn(program, args);
    if revision == "2026-07-28" {
        client.check_against(revision);
        client.stateless_request("tools/list", Value::Null)["result"]["tools"].clone()
    } else {
        client.initialize(revision);
        client.request("tools/list", json!({}))["result"]["tools"].clone()
    }
}

/// The example's `tools/list` matches the checked-in `snapshot` (`MCP_SNAPSHOTS=overwrite`
/// refreshes it), and the stateless revision lists the very same tools, but for
/// `execution.taskSupport`, which that revision does not have (its tasks are an extension).
#[track_caller]
pub fn assert_listing_matches(program: &str, args: &[&str], snapshot: impl AsRef<Path>) {
    let newest = listing(program, args, "2025-11-25");
    assert_json_snapshot(snapshot, &newest);
    let mut without_execution = newest.clone();
    for tool in without_execution.as_array_mut().into_iter().flatten() {
        if let Some(tool) = tool.as_object_mut() {
            tool.remove("execution");
        }
    }
    assert_eq!(
        listing(program, args, "2026-07-28"),
        without_execution,
        "{program}"
    );
}

/// Runs `program` with its own `args` as a command-line client of its tools:
/// `MCP_CLI=command program args...`.
pub fn run_cli(program: &str, args: &[&str], command: &str) -> Output {
    Command::new(program)
        .args(args)
        .env("MCP_CLI", command)
        .output()
        .unwrap_or_else(|error| panic!("cannot start {program}: {error}"))
}
