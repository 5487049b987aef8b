/// A typo.
#[mcp_runtime::mcp_tool(readonly)]
async fn add(a: i64) -> i64 {
    a
}

fn main() {}
