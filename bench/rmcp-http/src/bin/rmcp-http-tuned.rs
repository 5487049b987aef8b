//! The echo server of `rmcp-tuned` over Streamable HTTP, tuned with what rmcp's
//! `StreamableHttpServerConfig` offers: `legacy_session_mode: false` (every request served
//! statelessly, no session store), `json_response: true` (a plain JSON body where the
//! client accepts it), no SSE keep-alive; the tool router built once and stored in the
//! handler; `TCP_NODELAY` on every accepted socket (axum's `ListenerExt::tap_io`).
//!
//! Without sessions it cannot serve the `session` workload (a 2025-11-25 `initialize`
//! gets no `Mcp-Session-Id`). `rmcp-http-tuned --http ADDR` prints
//! `listening on http://ADDR/mcp` on stderr.

use std::sync::Arc;

use axum::serve::ListenerExt;
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::transport::streamable_http_server::session::never::NeverSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::{ServerHandler, schemars, tool, tool_handler, tool_router};

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
    let echo = Echo::new();
    let mut config = StreamableHttpServerConfig::default();
    config.legacy_session_mode = false;
    config.json_response = true;
    config.sse_keep_alive = None;
    let service = StreamableHttpService::new(
        move || Ok(echo.clone()),
        Arc::new(NeverSessionManager::default()),
        config,
    );
    let router = axum::Router::new().nest_service("/mcp", service);
    let listener = tokio::net::TcpListener::bind(address()).await?;
    eprintln!("listening on http://{}/mcp", listener.local_addr()?);
    let listener = listener.tap_io(|tcp| {
        let _ = tcp.set_nodelay(true);
    });
    axum::serve(listener, router).await?;
    Ok(())
}

/// `--http ADDR`.
fn address() -> String {
    let mut args = std::env::args().skip(1);
    match (args.next().as_deref(), args.next(), args.next()) {
        (Some("--http"), Some(addr), None) => addr,
        _ => {
            eprintln!("usage: rmcp-http-tuned --http ADDR");
            std::process::exit(2)
        }
    }
}
