use mcp_runtime::mcp_tool;

/// Adds.
#[mcp_tool]
async fn add(a: i64, b: i64) -> i64 {
    a + b
}

mod other {
    /// Adds too, under the same name.
    #[mcp_runtime::mcp_tool(name = "add")]
    pub async fn plus(a: i64, b: i64) -> i64 {
        a + b
    }
}

/// A dotted name, twice.
#[mcp_tool(name = "files.read-all")]
fn first() {}

fn main() {
    /// Even in a function body.
    #[mcp_tool(name = "files.read-all")]
    fn second() {}
}
