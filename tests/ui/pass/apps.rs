//! MCP Apps: a tool naming its view, app-only and model-only tools, and the view built with
//! every option of `View`.

use mcp_runtime::apps::{Permission, View};
use mcp_runtime::{Json, mcp_resource, mcp_tool};

#[derive(serde::Serialize, schemars::JsonSchema)]
struct Count {
    count: u32,
}

#[mcp_tool(ui = "ui://counter/view")]
async fn counter() -> Json<Count> {
    Json(Count { count: 0 })
}

#[mcp_tool(ui = "ui://counter/view", visibility = ["app"])]
fn increment(count: u32) -> Json<Count> {
    Json(Count { count: count + 1 })
}

#[mcp_tool(visibility = ["model", "app"])]
async fn both() {}

#[mcp_tool(visibility = ["model"])]
async fn model_only() {}

#[mcp_resource(uri = "ui://counter/view")]
async fn view() -> View {
    View::html(include_str!("apps.rs"))
        .connect_domains(["https://api.example.com"])
        .resource_domains(vec![String::from("https://cdn.example.com")])
        .frame_domains(["https://www.youtube.com"])
        .base_uri_domains(["https://cdn.example.com"])
        .permission(Permission::Camera)
        .permission(Permission::Microphone)
        .permission(Permission::Geolocation)
        .permission(Permission::ClipboardWrite)
        .domain("counter.example.com")
        .prefers_border(false)
}

#[mcp_resource(uri = "ui://counter/plain", mime_type = "text/html;profile=mcp-app")]
fn plain() -> Result<View, String> {
    Ok(View::html(String::from("<p>built at run time</p>")))
}

fn main() {}
