// Generated code must not depend on the names in scope at the call site.
#![allow(dead_code)]

struct Result;
struct Option;
struct Box;
struct Send;
struct Vec;
mod serde {}
mod schemars {}
mod inventory {}
mod core {}

/// Still a tool.
#[mcp_runtime::mcp_tool]
async fn echo(text: String) -> String {
    text
}

fn main() {}
