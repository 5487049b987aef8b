//! Two `skill!`s of one name (`changelog`, once plain and once under a prefix): the server
//! refuses to start, naming both.

mcp_runtime::skill!("skills/changelog");
mcp_runtime::skill!("skills/changelog", prefix = "copy");

#[tokio::main]
async fn main() -> Result<(), mcp_runtime::Error> {
    mcp_runtime::Server::new("duplicates", "0")
        .allow_no_tools()
        .serve_stdio()
        .await
}
