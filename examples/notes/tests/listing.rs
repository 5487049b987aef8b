//! The `tools/list` surface of this example, checked in: a renamed parameter, a changed
//! description or schema shows up in review as a diff of `snapshots/notes.tools.json`.
//! Refresh with `MCP_SNAPSHOTS=overwrite cargo test -p example-notes --test listing`.

use std::path::Path;

use mcp_runtime::testing::assert_json_snapshot;
use mcp_tests::StdioClient;
use serde_json::{Value, json};

fn listing(program: &str, args: &[&str], revision: &str) -> Value {
    let mut client = StdioClient::spawn(program, args);
    if revision == "2026-07-28" {
        client.check_against(revision);
        client.stateless_request("tools/list", Value::Null)["result"]["tools"].clone()
    } else {
        client.initialize(revision);
        client.request("tools/list", json!({}))["result"]["tools"].clone()
    }
}

fn compare(example: &str, listing: &Value) {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("tests/snapshots/{example}.tools.json"));
    assert_json_snapshot(path, listing);
}

#[test]
fn the_listing_matches_its_snapshot() {
    let newest = listing(env!("CARGO_BIN_EXE_notes"), &[], "2025-11-25");
    compare("notes", &newest);
    // The stateless revision lists the very same tools.
    assert_eq!(
        listing(env!("CARGO_BIN_EXE_notes"), &[], "2026-07-28"),
        newest
    );
}
