//! Authentication: a hook that sees every HTTP request and returns who made it, and the
//! OAuth 2.1 resource-server pieces (RFC 9728 metadata, `WWW-Authenticate` challenges).

use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, Uri, header};
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

/// What authentication reads of a request: its headers, and for DPoP proofs (which name
/// the method and URL they were made for) its method and URI.
#[derive(Clone, Copy)]
#[cfg_attr(not(feature = "jwt"), allow(dead_code))]
pub(crate) struct RequestHead<'a> {
    pub method: &'a Method,
    pub uri: &'a Uri,
    pub headers: &'a HeaderMap,
}

impl<'a> RequestHead<'a> {
    pub fn new(method: &'a Method, uri: &'a Uri, headers: &'a HeaderMap) -> Self {
        RequestHead {
            method,
            uri,
            headers,
        }
    }
}

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
    /// The `DPoP` challenge (RFC 9449 §7.1) sent too, or alone, when DPoP proofs are read.
    dpop: Option<DpopChallenge>,
}

/// How a refusal offers the `DPoP` scheme.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct DpopChallenge {
    /// The proof algorithms accepted, space-separated (the challenge's `algs`).
    pub algs: String,
    /// Whether `Bearer` is not offered at all (only DPoP-bound tokens are accepted).
    pub only: bool,
    /// Whether the error belongs to the `DPoP` challenge: the request used that scheme.
    pub error_here: bool,
}

impl AuthRejection {
    /// No credentials: `401`, and a challenge without an error code.
    pub fn missing(description: impl Into<String>) -> Self {
        AuthRejection {
            status: StatusCode::UNAUTHORIZED,
            error: None,
            description: description.into(),
            scope: None,
            dpop: None,
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
            dpop: None,
        }
    }

    /// Valid credentials without the rights needed: `403`, `error="insufficient_scope"`.
    pub fn insufficient_scope(description: impl Into<String>) -> Self {
        AuthRejection {
            status: StatusCode::FORBIDDEN,
            error: Some("insufficient_scope"),
            description: description.into(),
            scope: None,
            dpop: None,
        }
    }

    /// Names the scopes the refused request needs (space-separated in the challenge's
    /// `scope`), so the client can ask its authorization server for them (step-up).
    pub(crate) fn needing_scopes(mut self, scopes: &[&str]) -> Self {
        self.scope = Some(scopes.join(" "));
        self
    }

    /// A DPoP proof that is missing or not valid (RFC 9449 §7.1): `401`,
    /// `error="invalid_dpop_proof"` in the `DPoP` challenge.
    #[cfg(feature = "jwt")]
    pub(crate) fn invalid_dpop_proof(description: impl Into<String>) -> Self {
        AuthRejection {
            error: Some("invalid_dpop_proof"),
            ..AuthRejection::invalid_token(description)
        }
    }

    /// Offers the `DPoP` scheme in the challenge, as `dpop` says.
    #[cfg(feature = "jwt")]
    pub(crate) fn offering_dpop(mut self, dpop: DpopChallenge) -> Self {
        self.dpop = Some(dpop);
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

    /// Adds the `WWW-Authenticate` challenges: `Bearer`, then `DPoP` when offered (each its
    /// own header, Bearer first: the official SDK clients read the first for the metadata).
    fn challenge(&self, response: &mut Response, resource_metadata: Option<&str>) {
        let dpop = self.dpop.as_ref();
        let bearer = dpop.is_none_or(|dpop| !dpop.only);
        let error_on_dpop = dpop.is_some_and(|dpop| dpop.error_here || dpop.only);
        let mut challenges = Vec::new();
        if bearer {
            challenges.push(self.scheme("Bearer", resource_metadata, !error_on_dpop, None));
        }
        if let Some(dpop) = dpop {
            let metadata = resource_metadata.filter(|_| !bearer);
            challenges.push(self.scheme("DPoP", metadata, error_on_dpop, Some(&dpop.algs)));
        }
        for challenge in challenges {
            if let Ok(value) = HeaderValue::from_str(&challenge) {
                response
                    .headers_mut()
                    .append(header::WWW_AUTHENTICATE, value);
            }
        }
    }

    /// One challenge: `scheme`, then its parameters.
    fn scheme(
        &self,
        scheme: &str,
        resource_metadata: Option<&str>,
        with_error: bool,
        algs: Option<&str>,
    ) -> String {
        let mut parameters = Vec::new();
        if let Some(url) = resource_metadata {
            parameters.push(format!("resource_metadata=\"{url}\""));
        }
        if let (Some(error), true) = (self.error, with_error) {
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
        if let Some(algs) = algs {
            parameters.push(format!("algs=\"{algs}\""));
        }
        if parameters.is_empty() {
            scheme.to_owned()
        } else {
            format!("{scheme} {}", parameters.join(", "))
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
    /// The DPoP proof algorithms accepted and whether DPoP is required, when proofs are read.
    #[cfg(feature = "jwt")]
    dpop: Option<(&'static [&'static str], bool)>,
}

/// What the built-in verifier lists in the protected-resource metadata.
#[cfg(feature = "jwt")]
#[derive(Clone, Debug)]
pub(crate) struct VerifierListing {
    pub issuer: String,
    /// The algorithms DPoP proofs may be signed with.
    pub dpop_algorithms: &'static [&'static str],
    /// Whether only DPoP-bound tokens are accepted.
    pub dpop_required: bool,
}

impl ProtectedResource {
    /// Metadata for `resource`, this server's canonical URL (e.g.
    /// `https://mcp.example.com/mcp`), whose tokens `authorization_server` issues.
    pub fn new(resource: impl Into<String>, authorization_server: impl Into<String>) -> Self {
        ProtectedResource {
            resource: resource.into(),
            authorization_servers: vec![authorization_server.into()],
            scopes_supported: Vec::new(),
            #[cfg(feature = "jwt")]
            dpop: None,
        }
    }

    /// Another authorization server clients may use.
    pub fn authorization_server(mut self, url: impl Into<String>) -> Self {
        self.authorization_servers.push(url.into());
        self
    }

    /// Lists the verifier's issuer as an authorization server (unless it is already), and
    /// its DPoP support (RFC 9728 §2).
    #[cfg(feature = "jwt")]
    pub(crate) fn list_verifier(&mut self, listing: &VerifierListing) {
        if !self.authorization_servers.contains(&listing.issuer) {
            self.authorization_servers.push(listing.issuer.clone());
        }
        self.dpop = Some((listing.dpop_algorithms, listing.dpop_required));
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
        #[cfg(feature = "jwt")]
        if let Some((algorithms, required)) = self.dpop {
            document["dpop_signing_alg_values_supported"] = json!(algorithms);
            document["dpop_bound_access_tokens_required"] = json!(required);
        }
        document
    }

    /// Where the metadata is served, as paths of this server: the RFC 9728 location for the
    /// resource's path, and the bare well-known path.
    pub(crate) fn paths(&self) -> Vec<String> {
        let mut paths = vec![WELL_KNOWN.to_owned()];
        let (_, path) = split_url(&self.resource);
        if !path.is_empty() && path != "/" {
            paths.push(format!("{WELL_KNOWN}{path}"));
        }
        paths
    }

    /// The metadata's URL, for `WWW-Authenticate`.
    pub(crate) fn url(&self) -> String {
        let (origin, path) = split_url(&self.resource);
        match path {
            "" | "/" => format!("{origin}{WELL_KNOWN}"),
            path => format!("{origin}{WELL_KNOWN}{path}"),
        }
    }
}

const WELL_KNOWN: &str = "/.well-known/oauth-protected-resource";

/// An absolute URL's origin and path (`https://host/mcp` → `https://host`, `/mcp`).
pub(crate) fn split_url(url: &str) -> (&str, &str) {
    let after_scheme = url.find("://").map_or(0, |start| start + 3);
    let path_at = url[after_scheme..]
        .find('/')
        .map_or(url.len(), |start| after_scheme + start);
    url.split_at(path_at)
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
