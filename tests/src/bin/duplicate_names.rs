//! Two tools with one name: the server must refuse to start, naming both definitions.

mod first {
    /// One.
    #[mcp_runtime::mcp_tool(name = "same")]
    pub async fn one() -> &'static str {
        "one"
    }
}

mod second {
    /// Two.
    #[mcp_runtime::mcp_tool(name = "same")]
    pub async fn two() -> &'static str {
        "two"
    }
}

#[tokio::main]
async fn main() -> Result<(), mcp_runtime::Error> {
    mcp_runtime::Server::new("duplicates", "0")
        .serve_stdio()
        .await
}
