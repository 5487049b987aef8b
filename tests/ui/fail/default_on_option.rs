use mcp_runtime::mcp_tool;

/// `Option` is already optional.
#[mcp_tool]
async fn list(#[mcp(default = Some(10))] limit: Option<u32>) -> String {
    format!("{limit:?}")
}

fn main() {}
