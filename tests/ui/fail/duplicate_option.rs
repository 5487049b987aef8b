/// Twice.
#[mcp_runtime::mcp_tool(title = "A", title = "B")]
async fn add(a: i64) -> i64 {
    a
}

fn main() {}
