use mcp_runtime::{mcp_tool, mcp_tools};

/// Not an impl block.
#[mcp_tools]
struct Notes;

#[mcp_tools(read_only)]
impl Notes {
    /// Given twice.
    #[mcp_tool]
    #[mcp_tool(read_only)]
    fn count(&self) -> usize {
        0
    }

    /// Not a method.
    #[mcp_tool]
    const LIMIT: usize = 10;

    /// Options outside parentheses.
    #[mcp_tool = "version"]
    fn version() -> &'static str {
        "1"
    }
}

fn main() {}
