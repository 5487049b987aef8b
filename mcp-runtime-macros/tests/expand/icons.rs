/// A tool with icons in both forms.
#[mcp_tool(
    icon = "https://example.com/add.png",
    icon(src = "https://example.com/add-dark.svg", sizes = ["any"], theme = "dark"),
    icon(src = "data:image/webp;base64,UklGRg==", mime_type = "image/webp", sizes = ["16x16", "32x32"])
)]
async fn add(a: i64, b: i64) -> i64 {
    a + b
}
