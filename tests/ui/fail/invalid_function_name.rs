use mcp_runtime::mcp_tool;

/// The function's name is the tool's name unless `name` is given; this one isn't ASCII.
#[mcp_tool]
async fn météo() {}

fn main() {}
