use mcp_runtime::mcp_tool;

/// Every way a tag can be wrong, all reported at once.
#[mcp_tool(tags = ["admin", "", "has space", "admin", 42, "ok"])]
async fn one() {}

/// Not a list.
#[mcp_tool(tags = "admin")]
async fn two() {}

/// Not a value.
#[mcp_tool(tag = ["admin"])]
async fn three() {}

fn main() {}
