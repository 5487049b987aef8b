use mcp_runtime::mcp_tool;

/// Search.
///
/// # Arguments
///
/// * `query` - What to look for.
/// * `limt` - A typo.
/// * `query` - Twice.
#[mcp_tool]
async fn search(query: String, limit: Option<u32>) -> String {
    format!("{query} {limit:?}")
}

fn main() {}
