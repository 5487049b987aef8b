/// A borrowed parameter.
#[mcp_runtime::mcp_tool]
async fn shout(text: &str) -> String {
    text.to_uppercase()
}

fn main() {}
