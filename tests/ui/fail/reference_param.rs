/// A borrowed parameter.
#[mcp_runtime::mcp_tool]
async fn shout(text: &str) -> String {
    text.to_uppercase()
}

fn main() {}

/// A borrow nested in the type.
#[mcp_runtime::mcp_tool]
async fn first(items: Option<Vec<&str>>) -> usize {
    items.map_or(0, |items| items.len())
}
