// A crate that refers to mcp-runtime under another name says so with `crate = "..."`.
extern crate mcp_runtime as mcp;

/// Through the renamed crate.
#[mcp::mcp_tool(crate = "::mcp")]
async fn echo(text: String) -> String {
    text
}

fn main() {}
