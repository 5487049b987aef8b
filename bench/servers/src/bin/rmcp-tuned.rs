//! An echo server on `rmcp`, tuned: the tool router is built once and stored in the
//! handler (`#[tool_handler(router = self.tool_router)]`), and the transport is
//! `stdio_pipes()`, rmcp's non-blocking stdio transport (the pipes are driven by tokio's
//! reactor instead of a blocking-pool hand-off per read and write).

use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::transport::io::stdio_pipes;
use rmcp::{ServerHandler, ServiceExt, schemars, tool, tool_handler, tool_router};

#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
struct EchoParams {
    /// The text to echo.
    text: String,
}

#[derive(Clone)]
struct Echo {
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Echo {
    fn new() -> Self {
        Echo {
            tool_router: Self::tool_router(),
        }
    }

    #[tool(
        description = "Echo the text back.",
        annotations(read_only_hint = true, idempotent_hint = true)
    )]
    async fn echo(&self, Parameters(EchoParams { text }): Parameters<EchoParams>) -> String {
        text
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Echo {}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let service = Echo::new().serve(stdio_pipes()).await?;
    service.waiting().await?;
    Ok(())
}
