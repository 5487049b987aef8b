use std::collections::HashMap;

use mcp_runtime::{CallToolResult, Content, Json, mcp_tool};

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Point {
    pub x: f64,
    pub y: f64,
}

#[derive(serde::Serialize, schemars::JsonSchema)]
pub struct Area {
    pub square_units: f64,
}

/// Async, documented parameters, every option.
#[mcp_tool(name = "area.v2", title = "Area", description = "Overrides the doc.", read_only, idempotent = true, destructive = false, open_world = false)]
pub async fn area(
    /// Corners.
    corners: Vec<Point>,
    /// Optional label.
    label: Option<String>,
) -> Result<Json<Area>, String> {
    let _ = label;
    Ok(Json(Area { square_units: corners.len() as f64 }))
}

/// A plain fn with no parameters.
#[mcp_tool]
fn sync_no_params() -> &'static str {
    "ok"
}

/// Raw identifiers and maps.
#[mcp_tool]
async fn raw(r#type: String, counts: HashMap<String, u32>) -> usize {
    r#type.len() + counts.len()
}

/// Hand-built results and content.
#[mcp_tool]
async fn content() -> Vec<Content> {
    vec![Content::text("a")]
}

/// Returns a result directly.
#[mcp_tool]
fn custom() -> CallToolResult {
    CallToolResult::error("no")
}

/// Returns nothing.
#[mcp_tool]
async fn nothing() {}

mod nested {
    /// In a module.
    #[mcp_runtime::mcp_tool]
    pub(crate) async fn inner(n: u8) -> u8 {
        n
    }
}

fn main() {
    // The functions stay callable as written.
    let _ = area(vec![], None);
    assert_eq!(sync_no_params(), "ok");
    let _ = nested::inner(1);
}
