//! A tool naming a view no resource serves: the server refuses to start, naming the tool,
//! where it is defined and the URI.

/// Shows the weather.
#[mcp_runtime::mcp_tool(ui = "ui://weather/view")]
async fn weather() -> &'static str {
    "sunny"
}

#[tokio::main]
async fn main() -> Result<(), mcp_runtime::Error> {
    mcp_runtime::Server::new("missing-view", "0")
        .serve_stdio()
        .await
}
