use mcp_runtime::mcp_tool;

/// Arguments have a concrete type.
#[mcp_tool]
async fn show(value: impl std::fmt::Display) -> String {
    value.to_string()
}

fn main() {}
