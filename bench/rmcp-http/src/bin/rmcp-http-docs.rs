//! The echo server of `rmcp-docs` over Streamable HTTP, the way rmcp shows it: the handler
//! from `#[tool_router(server_handler)]`, `StreamableHttpService::new` with a
//! `LocalSessionManager` and the default `StreamableHttpServerConfig` (sessions for
//! 2025-era clients, SSE answers; 2026-07-28 requests are served statelessly), nested at
//! `/mcp` in an axum `Router` and served by `axum::serve`.
//!
//! `rmcp-http-docs --http ADDR` prints `listening on http://ADDR/mcp` on stderr.

use std::sync::Arc;

use rmcp::handler::server::wrapper::Parameters;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::{schemars, tool, tool_router};

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
    let service = StreamableHttpService::new(
        || Ok(Echo),
        Arc::new(LocalSessionManager::default()),
        StreamableHttpServerConfig::default(),
    );
    let router = axum::Router::new().nest_service("/mcp", service);
    let listener = tokio::net::TcpListener::bind(address()).await?;
    eprintln!("listening on http://{}/mcp", listener.local_addr()?);
    axum::serve(listener, router).await?;
    Ok(())
}

/// `--http ADDR`.
fn address() -> String {
    let mut args = std::env::args().skip(1);
    match (args.next().as_deref(), args.next(), args.next()) {
        (Some("--http"), Some(addr), None) => addr,
        _ => {
            eprintln!("usage: rmcp-http-docs --http ADDR");
            std::process::exit(2)
        }
    }
}
