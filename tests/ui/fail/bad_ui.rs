//! MCP Apps options the attribute refuses, each with its error on the value: a view that is
//! no `ui://` URI, `ui://` alone, not a string; a visibility it does not know, listed twice,
//! empty, not a list; and `ui` on a resource, which is the view rather than names one.

use mcp_runtime::{mcp_resource, mcp_tool};

#[mcp_tool(ui = "https://example.com/view.html")]
async fn web_page() {}

#[mcp_tool(ui = "ui://")]
async fn no_path() {}

#[mcp_tool(ui = true)]
async fn not_a_string() {}

#[mcp_tool(ui = "ui://w/view", visibility = ["web"])]
async fn unknown_visibility() {}

#[mcp_tool(ui = "ui://w/view", visibility = ["app", "app"])]
async fn twice() {}

#[mcp_tool(visibility = [])]
async fn nobody() {}

#[mcp_tool(visibility = "app")]
async fn not_a_list() {}

#[mcp_resource(uri = "ui://w/view", ui = "ui://w/view")]
async fn view() -> &'static str {
    ""
}

fn main() {}
