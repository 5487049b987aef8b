//! A crate of tools and nothing else, as a team might share between servers. A binary
//! that depends on it serves `shout` once the crate is linked: see
//! `tests/tests/library_tools.rs`.

use mcp_runtime::mcp_tool;

/// Repeat the text in capitals.
#[mcp_tool(read_only)]
pub fn shout(
    /// What to shout.
    text: String,
) -> String {
    text.to_uppercase()
}
