//! A tool that requires scopes and has two layers of its own: each `layer = ...` becomes a
//! function that makes the layer, checked to be one where the expression is written.

use mcp_runtime::mcp_tool;
use mcp_runtime::middleware::{Audit, Layer, Next, ToolRequest, from_fn};

fn timing() -> impl Layer {
    from_fn(|call: ToolRequest, next: Next| async move { next.run(call).await })
}

/// Write a note.
#[mcp_tool(scopes = ["notes:write", "admin"], layer = Audit::new(), layer = timing())]
async fn write_note(
    /// The note.
    text: String,
) -> String {
    text
}

fn main() {}
