//! Parameter defaults, `tags`, and an `# Arguments` list in the doc comment.

use mcp_runtime::{Context, mcp_tool};

/// Search the index.
///
/// # Arguments
///
/// * `query` - What to look for.
/// * `limit` - Overridden by the parameter's own comment.
#[mcp_tool(read_only, tags = ["search", "index.v2"])]
async fn search(
    query: String,
    /// How many results at most.
    #[mcp(default = 10)]
    limit: u32,
    #[mcp(default)] exact: bool,
    ctx: Context,
) -> Vec<String> {
    let _ = (limit, exact, ctx);
    vec![query]
}
fn main() {}
