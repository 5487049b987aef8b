//! [`TokenClaims`]: the principal of a request whose JWT access token was verified.

use serde_json::{Map, Value};

/// Who a verified JWT access token speaks for: the principal
/// [`HttpServer::verify_jwt`](crate::HttpServer::verify_jwt) gives tools, read with
/// [`Principal<TokenClaims>`](crate::Principal).
///
/// ```
/// use mcp_runtime::{Principal, TokenClaims, mcp_tool};
///
/// /// Who is calling?
/// #[mcp_tool(scopes = ["notes:read"])]
/// async fn whoami(claims: Principal<TokenClaims>) -> String {
///     format!("{:?} via {:?}", claims.subject(), claims.client_id())
/// }
/// ```
#[derive(Clone, Debug)]
pub struct TokenClaims {
    claims: Map<String, Value>,
    scopes: Vec<String>,
}

impl TokenClaims {
    pub(super) fn new(claims: Map<String, Value>) -> Self {
        // RFC 9068 §2.2.3 and RFC 8693 §4.2: a space-separated `scope`; some servers
        // (Azure AD, Okta) send `scp`, a string or an array.
        let scopes = match claims.get("scope").or_else(|| claims.get("scp")) {
            Some(Value::String(scopes)) => scopes.split_whitespace().map(str::to_owned).collect(),
            Some(Value::Array(scopes)) => scopes
                .iter()
                .filter_map(|scope| scope.as_str().map(str::to_owned))
                .collect(),
            _ => Vec::new(),
        };
        TokenClaims { claims, scopes }
    }

    /// The `sub` claim: the resource owner, or for a client-credentials token the client.
    pub fn subject(&self) -> Option<&str> {
        self.text("sub")
    }

    /// The client the token was issued to: `client_id` (RFC 9068), else `azp` (OpenID
    /// Connect).
    pub fn client_id(&self) -> Option<&str> {
        self.text("client_id").or_else(|| self.text("azp"))
    }

    /// The scopes granted: `scope` split at spaces, else the `scp` array. These open the
    /// tools, resources and prompts that require scopes.
    pub fn scopes(&self) -> &[String] {
        &self.scopes
    }

    /// Every claim of the token, as sent.
    pub fn claims(&self) -> &Map<String, Value> {
        &self.claims
    }

    fn text(&self, name: &str) -> Option<&str> {
        self.claims.get(name).and_then(Value::as_str)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn claims(value: Value) -> TokenClaims {
        let Value::Object(map) = value else {
            unreachable!()
        };
        TokenClaims::new(map)
    }

    #[test]
    fn scopes_come_from_scope_or_scp() {
        let spaced = claims(json!({"scope": " a  b ", "sub": "s", "azp": "c"}));
        assert_eq!(spaced.scopes(), ["a", "b"]);
        assert_eq!(spaced.subject(), Some("s"));
        assert_eq!(spaced.client_id(), Some("c"));
        assert_eq!(claims(json!({"scp": ["a", 1, "b"]})).scopes(), ["a", "b"]);
        assert_eq!(claims(json!({"scp": "a b"})).scopes(), ["a", "b"]);
        let none = claims(json!({"client_id": "x", "azp": "y"}));
        assert!(none.scopes().is_empty());
        assert_eq!(none.client_id(), Some("x"));
    }
}
