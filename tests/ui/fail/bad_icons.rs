use mcp_runtime::{mcp_prompt, mcp_resource, mcp_tool};

#[mcp_tool(
    icon = "http://example.com/a.png",
    icon(src = "https://example.com/a.png", theme = "blue", sizes = ["48", "any", 48]),
    icon(mime_type = "image/png"),
    icon(src = "https://example.com/a.png", color = "red"),
    icon,
    icons = ["https://example.com/a.png"],
)]
fn add(a: i32, b: i32) -> i32 {
    a + b
}

#[mcp_resource(uri = "notes://today", icon = "file:///icon.png")]
fn today() -> String {
    String::new()
}

#[mcp_prompt(icon = "ftp://example.com/a.png")]
fn hello() -> String {
    String::new()
}

fn main() {}
