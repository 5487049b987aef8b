/// Three mistakes, reported in one compile.
#[mcp_runtime::mcp_tool(idempotnet, name = "bad name", read_only = "yes")]
async fn add(a: i64) -> i64 {
    a
}

fn main() {}
