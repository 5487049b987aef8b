//! What the token tests share: the tools a token opens or not, and our server as they
//! reach it. Included by `jwt.rs` and `introspection.rs` as `mod notes;`.

use mcp_http_tests::Reply;
use mcp_http_tests::auth::{resource_metadata, write, write_note_as};
use mcp_runtime::{Principal, TokenClaims, mcp_tool};
use serde_json::Value;

/// Write a note.
#[mcp_tool(scopes = ["notes:write"])]
pub async fn write_note(
    /// The note.
    text: String,
    claims: Principal<TokenClaims>,
) -> String {
    write(&text);
    format!(
        "{} (client {}) wrote {text}",
        claims.subject().unwrap_or("?"),
        claims.client_id().unwrap_or("?")
    )
}

/// Read the notes.
#[mcp_tool(scopes = ["notes:read"], read_only)]
pub async fn read_notes() -> String {
    "the notes".to_owned()
}

/// Our server, as the provider's tokens reach it; `resource` is its URL. Each test starts
/// it with its own verifier.
pub struct Running {
    pub resource: String,
}

impl Running {
    /// Its protected-resource metadata.
    pub async fn metadata(&self) -> Value {
        resource_metadata(&self.resource).await
    }

    /// `write_note(text)` sent statelessly with `token`.
    pub async fn write(&self, token: &str, text: &str) -> Reply {
        write_note_as(&self.resource, token, text).await
    }
}
