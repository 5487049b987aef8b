//! An MCP Apps server: a tool with a view, a tool only the view calls, a tool without one,
//! and the view, a `ui://` resource declaring its frame's needs.

use mcp_runtime::apps::{Permission, View};
use mcp_runtime::{Json, Server, mcp_resource, mcp_tool};
use serde::Serialize;

#[derive(Serialize, schemars::JsonSchema)]
struct Board {
    /// The counter the view shows.
    count: u32,
}

/// Shows the board.
#[mcp_tool(ui = "ui://board/view", read_only)]
async fn board() -> Json<Board> {
    Json(Board { count: 1 })
}

/// Bumps the counter; only the board's view calls it.
#[mcp_tool(ui = "ui://board/view", visibility = ["app"])]
async fn bump(count: u32) -> Json<Board> {
    Json(Board { count: count + 1 })
}

/// Shown to the model only.
#[mcp_tool(visibility = ["model"])]
async fn describe() -> &'static str {
    "a board with a counter"
}

/// The board's view.
#[mcp_resource(uri = "ui://board/view", name = "board_view")]
async fn view() -> View {
    View::html("<!doctype html><html><body><p id=\"count\"></p></body></html>")
        .connect_domains(["https://api.example.com"])
        .resource_domains(["https://cdn.example.com"])
        .frame_domains(["https://www.youtube.com"])
        .base_uri_domains(["https://cdn.example.com"])
        .permission(Permission::ClipboardWrite)
        .domain("board.example.com")
        .prefers_border(true)
}

#[tokio::main]
async fn main() -> Result<(), mcp_runtime::Error> {
    Server::new("apps", "1.0.0").serve_stdio().await
}
