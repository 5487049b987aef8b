/// A tool with an MCP Apps view, and one only its view calls.
#[mcp_tool(ui = "ui://weather/view")]
async fn forecast(city: String) -> String {
    city
}

/// Called by the view's button.
#[mcp_tool(ui = "ui://weather/view", visibility = ["app"])]
fn refresh() -> &'static str {
    "fresh"
}

/// The view itself.
#[mcp_resource(uri = "ui://weather/view")]
fn view() -> &'static str {
    "<html></html>"
}
