use mcp_runtime::{Context, mcp_tool};

/// Renames that cannot be.
#[mcp_tool]
async fn convert(
    #[mcp(rename = "has space")] amount: f64,
    #[mcp(rename = "to")] from: String,
    to: String,
    #[mcp(rename = "unit")] _unit: Option<String>,
    #[mcp(rename = "unit")] _units: Option<String>,
    #[mcp(rename = "context")] ctx: Context,
    #[mcp(rename = "a", rename = "b")] twice: u32,
    #[mcp(rename = units)] bare: u32,
) -> String {
    let _ = ctx;
    format!("{amount} {from} {to} {twice} {bare}")
}

fn main() {}
