/// Generic.
#[mcp_runtime::mcp_tool]
async fn first<T: serde::de::DeserializeOwned>(items: Vec<T>) -> usize {
    items.len()
}

fn main() {}
