#[mcp_runtime::mcp_tool]
struct Add {
    a: i64,
}

fn main() {}
