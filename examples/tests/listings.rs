//! The `tools/list` surface of every example, checked in: a renamed parameter, a changed
//! description or schema shows up in review as a diff of `snapshots/<example>.tools.json`.
//! (The HTTP example's listing is checked over HTTP, in `http.rs`.)
//! Refresh with `MCP_SNAPSHOTS=overwrite cargo test -p mcp-examples --test listings`.

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
fn every_example_listing_matches_its_snapshot() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../interop/fixtures/files-root");
    let examples = [
        ("calculator", env!("CARGO_BIN_EXE_calculator"), vec![]),
        (
            "files",
            env!("CARGO_BIN_EXE_files"),
            vec![root.to_str().unwrap().to_owned()],
        ),
        ("conformance", env!("CARGO_BIN_EXE_conformance"), vec![]),
        ("notes", env!("CARGO_BIN_EXE_notes"), vec![]),
        ("jobs", env!("CARGO_BIN_EXE_jobs"), vec![]),
    ];
    for (example, program, args) in examples {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let newest = listing(program, &args, "2025-11-25");
        compare(example, &newest);
        // The stateless revision lists the very same tools.
        assert_eq!(listing(program, &args, "2026-07-28"), newest, "{example}");
    }
}
