//! An echo server on `rmcp`, written the way rmcp's README shows a tools-only server:
//! `#[tool_router(server_handler)]` on the impl block (so the generated handler calls
//! `Self::tool_router()`, building the router again for every `tools/call` and
//! `tools/list`) and `.serve(stdio())`, whose reads and writes go through tokio's blocking
//! thread pool.

use rmcp::handler::server::wrapper::Parameters;
use rmcp::transport::stdio;
use rmcp::{ServiceExt, schemars, tool, tool_router};

#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
struct EchoParams {
    /// The text to echo.
    text: String,
}

#[derive(Clone)]
struct Echo;

#[tool_router(server_handler)]
impl Echo {
    #[tool(
        description = "Echo the text back.",
        annotations(read_only_hint = true, idempotent_hint = true)
    )]
    async fn echo(&self, Parameters(EchoParams { text }): Parameters<EchoParams>) -> String {
        text
    }
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let service = Echo.serve(stdio()).await?;
    service.waiting().await?;
    Ok(())
}
