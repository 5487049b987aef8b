//! The server the JWT interop check (`interop/auth_run.sh`) drives with the official SDK's
//! own OAuth client: tokens verified by `HttpServer::verify_jwt` against `ISSUER`.
//!
//! `jwt_server ISSUER` listens on a free loopback port and prints `listening URL`. The
//! issuer may be `http://` (a local test authorization server).

use mcp_runtime::{JwtVerifier, Principal, Server, TokenClaims, mcp_tool};

/// Write a note.
#[mcp_tool(scopes = ["notes:write"])]
async fn write_note(
    /// The note.
    text: String,
    claims: Principal<TokenClaims>,
) -> String {
    format!(
        "{} wrote {text}",
        claims.client_id().unwrap_or("an unknown client")
    )
}

/// Read the notes.
#[mcp_tool(scopes = ["notes:read"], read_only)]
async fn read_notes() -> String {
    "the notes".to_owned()
}

#[tokio::main]
async fn main() -> Result<(), mcp_runtime::Error> {
    let Some(issuer) = std::env::args().nth(1) else {
        eprintln!("usage: jwt_server ISSUER");
        std::process::exit(2)
    };
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let url = format!("http://{}/mcp", listener.local_addr()?);
    println!("listening {url}");
    Server::new("jwt-notes", "1.0.0")
        .http()
        .verify_jwt(JwtVerifier::new(url, issuer).allow_http())
        .serve_on(listener)
        .await
}
