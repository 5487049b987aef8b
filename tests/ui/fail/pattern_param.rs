/// A destructuring pattern.
#[mcp_runtime::mcp_tool]
async fn add((a, b): (i64, i64)) -> i64 {
    a + b
}

fn main() {}
