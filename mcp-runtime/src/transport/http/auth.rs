//! Authentication: a hook that sees every HTTP request and returns who made it, and the
//! OAuth 2.1 resource-server pieces (RFC 9728 metadata, `WWW-Authenticate` challenges).

use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::Response;
use serde_json::{Value, json};

use super::response::{error_response, refusal};
use crate::protocol::jsonrpc::{RpcError, code};

/// Checks the credentials of every HTTP request before the protocol sees it.
///
/// Any `Fn(&HeaderMap) -> Result<P, AuthRejection>` is one ([`HeaderMap`](crate::HeaderMap)
/// is re-exported, so a named function needs no `http` dependency of its own). The
/// principal `P` it returns reaches tools through the [`Principal<P>`](crate::Principal)
/// extractor:
///
/// ```
/// use mcp_runtime::{AuthRejection, HeaderMap, Principal, Server, bearer_token, mcp_tool};
///
/// struct User(String);
///
/// /// Who am I?
/// #[mcp_tool]
/// async fn whoami(user: Principal<User>) -> String {
///     let User(name) = &*user;
///     name.clone()
/// }
///
/// let http = Server::new("private", "1.0.0").http().authenticate(|headers: &_| {
///     match bearer_token(headers)? {
///         "secret-token" => Ok(User("ada".to_owned())),
///         _ => Err(AuthRejection::invalid_token("unknown token")),
///     }
/// });
/// # drop(http);
///
/// // The same check as a named function.
/// fn check_token(headers: &HeaderMap) -> Result<User, AuthRejection> {
///     match bearer_token(headers)? {
///         "secret-token" => Ok(User("ada".to_owned())),
///         _ => Err(AuthRejection::invalid_token("unknown token")),
///     }
/// }
/// let http = Server::new("private", "1.0.0").http().authenticate(check_token);
/// # drop(http);
/// ```
pub trait Authenticate: Send + Sync + 'static {
    /// Who the request comes from, as the hook verified it.
    type Principal: Send + Sync + 'static;

    /// Verifies the request's credentials (typically its `Authorization` header).
    fn authenticate(&self, headers: &HeaderMap) -> Result<Self::Principal, AuthRejection>;
}

impl<F, P> Authenticate for F
where
    F: Fn(&HeaderMap) -> Result<P, AuthRejection> + Send + Sync + 'static,
    P: Send + Sync + 'static,
{
    type Principal = P;

    fn authenticate(&self, headers: &HeaderMap) -> Result<P, AuthRejection> {
        self(headers)
    }
}

pub(crate) use crate::access::AnyPrincipal;

/// Why a request was refused: `401` with a `WWW-Authenticate: Bearer` challenge (no or bad
/// credentials), or `403` (valid credentials that may not do this).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AuthRejection {
    status: StatusCode,
    /// The OAuth error code (`invalid_token`, `insufficient_scope`), if any.
    error: Option<&'static str>,
    description: String,
    /// `insufficient_scope`: the scopes the request needs, for the challenge's `scope`.
    scope: Option<String>,
}

impl AuthRejection {
    /// No credentials: `401`, and a challenge without an error code.
    pub fn missing(description: impl Into<String>) -> Self {
        AuthRejection {
            status: StatusCode::UNAUTHORIZED,
            error: None,
            description: description.into(),
            scope: None,
        }
    }

    /// Credentials that are not valid (unknown, expired, malformed): `401`,
    /// `error="invalid_token"`.
    pub fn invalid_token(description: impl Into<String>) -> Self {
        AuthRejection {
            status: StatusCode::UNAUTHORIZED,
            error: Some("invalid_token"),
            description: description.into(),
            scope: None,
        }
    }

    /// Valid credentials without the rights needed: `403`, `error="insufficient_scope"`.
    pub fn insufficient_scope(description: impl Into<String>) -> Self {
        AuthRejection {
            status: StatusCode::FORBIDDEN,
            error: Some("insufficient_scope"),
            description: description.into(),
            scope: None,
        }
    }

    /// Names the scopes the refused request needs (space-separated in the challenge's
    /// `scope`), so the client can ask its authorization server for them (step-up).
    pub(crate) fn needing_scopes(mut self, scopes: &[&str]) -> Self {
        self.scope = Some(scopes.join(" "));
        self
    }

    pub(crate) fn into_response(self, resource_metadata: Option<&str>) -> Response {
        let mut response = error_response(self.status, &self.error_for_client());
        self.challenge(&mut response, resource_metadata);
        response
    }

    /// The refusal of a request that was read: its JSON-RPC error answers the request's id.
    pub(crate) fn into_refusal(
        self,
        id: Option<&Value>,
        resource_metadata: Option<&str>,
    ) -> Response {
        let mut response = refusal(self.status, &self.error_for_client(), id);
        self.challenge(&mut response, resource_metadata);
        response
    }

    fn error_for_client(&self) -> RpcError {
        let word = if self.status == StatusCode::FORBIDDEN {
            "Forbidden"
        } else {
            "Unauthorized"
        };
        RpcError::new(
            code::INVALID_REQUEST,
            format!("{word}: {}", self.description),
        )
    }

    /// Adds the `WWW-Authenticate: Bearer` challenge.
    fn challenge(&self, response: &mut Response, resource_metadata: Option<&str>) {
        let mut challenge = vec!["Bearer".to_owned()];
        let mut parameters = Vec::new();
        if let Some(url) = resource_metadata {
            parameters.push(format!("resource_metadata=\"{url}\""));
        }
        if let Some(error) = self.error {
            parameters.push(format!("error=\"{error}\""));
            if let Some(scope) = &self.scope {
                parameters.push(format!("scope=\"{scope}\""));
            }
            let description: String = self
                .description
                .chars()
                .filter(|c| *c != '"' && *c != '\\' && (' '..='~').contains(c))
                .collect();
            parameters.push(format!("error_description=\"{description}\""));
        }
        if !parameters.is_empty() {
            challenge.push(parameters.join(", "));
        }
        if let Ok(value) = HeaderValue::from_str(&challenge.join(" ")) {
            response
                .headers_mut()
                .insert(header::WWW_AUTHENTICATE, value);
        }
    }
}

/// The token of an `Authorization: Bearer TOKEN` header; [`AuthRejection::missing`]
/// without one.
pub fn bearer_token(headers: &HeaderMap) -> Result<&str, AuthRejection> {
    let value = headers
        .get(header::AUTHORIZATION)
        .ok_or_else(|| AuthRejection::missing("this server needs a bearer token"))?;
    let value = value
        .to_str()
        .map_err(|_| AuthRejection::invalid_token("the Authorization header is not ASCII"))?;
    match value.split_once(' ') {
        Some((scheme, token))
            if scheme.eq_ignore_ascii_case("bearer") && !token.trim().is_empty() =>
        {
            Ok(token.trim())
        }
        _ => Err(AuthRejection::invalid_token(
            "the Authorization header is not `Bearer TOKEN`",
        )),
    }
}

/// OAuth 2.0 Protected Resource Metadata (RFC 9728), which MCP clients read to find the
/// authorization server that issues tokens for this server.
#[derive(Clone, Debug)]
pub struct ProtectedResource {
    resource: String,
    authorization_servers: Vec<String>,
    scopes_supported: Vec<String>,
}

impl ProtectedResource {
    /// Metadata for `resource`, this server's canonical URL (e.g.
    /// `https://mcp.example.com/mcp`), whose tokens `authorization_server` issues.
    pub fn new(resource: impl Into<String>, authorization_server: impl Into<String>) -> Self {
        ProtectedResource {
            resource: resource.into(),
            authorization_servers: vec![authorization_server.into()],
            scopes_supported: Vec::new(),
        }
    }

    /// Another authorization server clients may use.
    pub fn authorization_server(mut self, url: impl Into<String>) -> Self {
        self.authorization_servers.push(url.into());
        self
    }

    /// Lists `url` as an authorization server unless it is already.
    #[cfg(feature = "jwt")]
    pub(crate) fn list_authorization_server(&mut self, url: &str) {
        if !self
            .authorization_servers
            .iter()
            .any(|listed| listed == url)
        {
            self.authorization_servers.push(url.to_owned());
        }
    }

    /// A scope this server understands (listed as `scopes_supported`).
    pub fn scope(mut self, scope: impl Into<String>) -> Self {
        self.scopes_supported.push(scope.into());
        self
    }

    /// The metadata document; `scopes_supported` lists the scopes set here and those the
    /// tools require (`required`).
    pub(crate) fn document(&self, required: &[String]) -> Value {
        let mut document = json!({
            "resource": self.resource,
            "authorization_servers": self.authorization_servers,
            "bearer_methods_supported": ["header"],
        });
        let mut scopes = self.scopes_supported.clone();
        for scope in required {
            if !scopes.contains(scope) {
                scopes.push(scope.clone());
            }
        }
        if !scopes.is_empty() {
            document["scopes_supported"] = json!(scopes);
        }
        document
    }

    /// Where the metadata is served, as paths of this server: the RFC 9728 location for the
    /// resource's path, and the bare well-known path.
    pub(crate) fn paths(&self) -> Vec<String> {
        let mut paths = vec![WELL_KNOWN.to_owned()];
        let path = resource_path(&self.resource);
        if !path.is_empty() && path != "/" {
            paths.push(format!("{WELL_KNOWN}{path}"));
        }
        paths
    }

    /// The metadata's URL, for `WWW-Authenticate`.
    pub(crate) fn url(&self) -> String {
        let path = resource_path(&self.resource);
        let origin = &self.resource[..self.resource.len() - path.len()];
        match path {
            "" | "/" => format!("{origin}{WELL_KNOWN}"),
            path => format!("{origin}{WELL_KNOWN}{path}"),
        }
    }
}

const WELL_KNOWN: &str = "/.well-known/oauth-protected-resource";

/// The path of an absolute URL (`https://host/mcp` → `/mcp`).
fn resource_path(url: &str) -> &str {
    let after_scheme = url.find("://").map_or(0, |start| start + 3);
    url[after_scheme..]
        .find('/')
        .map_or("", |start| &url[after_scheme + start..])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn metadata_lives_under_the_resource_path() {
        let resource =
            ProtectedResource::new("https://mcp.example.com/mcp", "https://auth.example.com")
                .scope("tools");
        assert_eq!(
            resource.url(),
            "https://mcp.example.com/.well-known/oauth-protected-resource/mcp"
        );
        assert_eq!(
            resource.paths(),
            [
                "/.well-known/oauth-protected-resource",
                "/.well-known/oauth-protected-resource/mcp"
            ]
        );
        assert_eq!(
            resource.document(&["notes:write".to_owned(), "tools".to_owned()])["scopes_supported"],
            json!(["tools", "notes:write"])
        );
    }

    #[test]
    fn bearer_tokens_are_read_from_the_authorization_header() {
        let mut headers = HeaderMap::new();
        assert_eq!(
            bearer_token(&headers).unwrap_err().status,
            StatusCode::UNAUTHORIZED
        );
        headers.insert(
            header::AUTHORIZATION,
            HeaderValue::from_static("Bearer abc"),
        );
        assert_eq!(bearer_token(&headers), Ok("abc"));
        headers.insert(header::AUTHORIZATION, HeaderValue::from_static("Basic abc"));
        assert!(bearer_token(&headers).is_err());
    }
}
