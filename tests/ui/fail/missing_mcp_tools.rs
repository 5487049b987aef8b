use mcp_runtime::mcp_tool;

struct Notes;

// `#[mcp_tools]` is missing on this block.
impl Notes {
    /// Count notes.
    #[mcp_tool]
    fn count(&self) -> usize {
        0
    }

    /// A method without `self`.
    #[mcp_tool]
    async fn version() -> &'static str {
        "1"
    }
}

fn main() {}
