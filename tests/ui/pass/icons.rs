use mcp_runtime::{mcp_tool, mcp_tools};

/// Icons in both forms, repeated.
#[mcp_tool(
    icon = "https://example.com/add.png",
    icon(src = "https://example.com/add-dark.svg", sizes = ["any"], theme = "dark"),
    icon(src = "data:image/webp;base64,UklGRg==", mime_type = "image/webp", sizes = ["16x16", "32x32"]),
    icon(src = "https://example.com/add"),
)]
async fn add(a: i64, b: i64) -> i64 {
    a + b
}

struct Notes;

#[mcp_tools]
impl Notes {
    /// A method's icon.
    #[mcp_tool(icon = "https://example.com/count.ico")]
    fn count(&self) -> usize {
        0
    }
}

fn main() {}
