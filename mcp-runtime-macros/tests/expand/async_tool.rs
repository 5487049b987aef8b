//! The README's tool: an `async fn` with documented parameters, hints and a title.

use mcp_runtime::mcp_tool;

/// Add two integers.
#[mcp_tool(read_only, idempotent, title = "Adder")]
async fn add(
    /// The first addend.
    a: i64,
    /// The second addend.
    b: Option<i64>,
) -> i64 {
    a + b.unwrap_or(0)
}

fn main() {}
