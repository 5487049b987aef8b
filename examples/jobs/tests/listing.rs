//! The `tools/list` surface of this example, checked in: a renamed parameter, a changed
//! description or schema shows up in review as a diff of `snapshots/jobs.tools.json`.
//! Refresh with `MCP_SNAPSHOTS=overwrite cargo test -p example-jobs --test listing`.

use std::path::Path;

use mcp_runtime::testing::assert_json_snapshot;
use mcp_tests::examples::listing;

#[test]
fn the_listing_matches_its_snapshot() {
    let snapshot = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots/jobs.tools.json");
    let mut listed = listing(env!("CARGO_BIN_EXE_jobs"), &[], "2025-11-25");
    assert_json_snapshot(snapshot, &listed);
    // 2026-07-28 lists the very same tools, but for `execution.taskSupport` (`report`'s):
    // tasks are an extension there, offered per call rather than listed.
    for tool in listed.as_array_mut().expect("an array of tools") {
        tool.as_object_mut()
            .expect("a tool is an object")
            .remove("execution");
    }
    assert_eq!(
        listing(env!("CARGO_BIN_EXE_jobs"), &[], "2026-07-28"),
        listed
    );
}
