//! The `tools/list` surface of this example, checked in: a changed view, visibility,
//! description or schema shows up in review as a diff of `snapshots/apps.tools.json`.
//! Refresh with `MCP_SNAPSHOTS=overwrite cargo test -p example-apps --test listing`.

use std::path::Path;

use mcp_tests::examples::assert_listing_matches;

#[test]
fn the_listing_matches_its_snapshot() {
    let snapshot = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots/apps.tools.json");
    assert_listing_matches(env!("CARGO_BIN_EXE_apps"), &[], snapshot);
}
