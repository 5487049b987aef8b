//! A server with a large generated catalog of tools (see `build.rs`), for start-up,
//! `tools/list` paging and memory per tool.

use mcp_runtime::{Server, mcp_tool};

include!(concat!(env!("OUT_DIR"), "/catalog.rs"));

#[tokio::main]
async fn main() -> Result<(), mcp_runtime::Error> {
    Server::new("catalog", format!("{TOOLS} tools"))
        .serve_stdio()
        .await
}
