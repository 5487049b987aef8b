/// Spaces are not allowed.
#[mcp_runtime::mcp_tool(name = "add numbers")]
async fn add(a: i64) -> i64 {
    a
}

/// Nor are 65 characters.
#[mcp_runtime::mcp_tool(name = "a234567890123456789012345678901234567890123456789012345678901234x")]
async fn long(a: i64) -> i64 {
    a
}

fn main() {}
