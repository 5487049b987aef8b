//! What every request must pass before the protocol sees it: `Host` and `Origin`
//! allow-lists, so a web page cannot reach a local server through DNS rebinding.

use std::sync::Arc;

use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::Response;

use super::auth::RequestHead;
#[cfg(feature = "jwt")]
use super::auth::VerifierListing;
use super::auth::{AnyPrincipal, ProtectedResource};
use super::authenticator::Authenticator;
use super::response::error_response;
use crate::fleet::FleetStore;
use crate::protocol::jsonrpc::{RpcError, code};

/// The names a local server is reached under.
const LOCAL_HOSTS: [&str; 4] = ["localhost", "127.0.0.1", "[::1]", "::1"];

#[derive(Clone)]
pub(crate) struct Guard {
    /// Accepted `Host` names (without port); `None` accepts any.
    hosts: Option<Vec<String>>,
    /// Accepted browser origins besides local ones, exactly as browsers send them.
    origins: Vec<String>,
    authenticator: Option<Authenticator>,
    /// OAuth resource-server mode: the metadata 401 challenges point to.
    pub resource: Option<ProtectedResource>,
    /// What the built-in verifier lists in `resource`: its issuer, its DPoP support.
    #[cfg(feature = "jwt")]
    pub listing: Option<VerifierListing>,
}

impl Default for Guard {
    fn default() -> Self {
        Guard {
            hosts: Some(LOCAL_HOSTS.iter().map(|host| (*host).to_owned()).collect()),
            origins: Vec::new(),
            authenticator: None,
            resource: None,
            #[cfg(feature = "jwt")]
            listing: None,
        }
    }
}

impl Guard {
    pub fn allow_host(&mut self, host: String) {
        if let Some(hosts) = &mut self.hosts {
            hosts.push(host.to_ascii_lowercase());
        }
    }

    pub fn allow_any_host(&mut self) {
        self.hosts = None;
    }

    pub fn allow_origin(&mut self, origin: String) {
        self.origins
            .push(origin.trim_end_matches('/').to_ascii_lowercase());
    }

    /// Whether some browser origin was named: the endpoint then answers CORS.
    pub fn opens_cors(&self) -> bool {
        !self.origins.is_empty()
    }

    /// The request's `Origin`, when it is one [`allow_origin`](Self::allow_origin) named:
    /// what the answer's `Access-Control-Allow-Origin` says. Local origins, accepted without
    /// being named, get none.
    pub fn cors_origin(&self, headers: &HeaderMap) -> Option<HeaderValue> {
        if self.origins.is_empty() {
            return None;
        }
        let origin = headers.get(header::ORIGIN)?;
        let text = origin.to_str().ok()?;
        self.origins
            .iter()
            .any(|allowed| allowed.eq_ignore_ascii_case(text))
            .then(|| origin.clone())
    }

    /// Whether requests are authenticated.
    pub fn authenticates(&self) -> bool {
        self.authenticator.is_some()
    }

    pub fn authenticate(&mut self, authenticator: Authenticator) {
        self.authenticator = Some(authenticator);
    }

    /// In a fleet, what authentication must remember across instances goes to its `store`.
    pub fn share_proofs(&self, store: &Arc<dyn FleetStore>) {
        if let Some(authenticator) = &self.authenticator {
            authenticator.share_proofs(store);
        }
    }

    #[cfg_attr(not(feature = "jwt"), allow(unused_mut))]
    pub fn protected_resource(&mut self, mut resource: ProtectedResource) {
        #[cfg(feature = "jwt")]
        if let Some(listing) = &self.listing {
            resource.list_verifier(listing);
        }
        self.resource = Some(resource);
    }

    /// Checks the request: `Host`/`Origin` first, then credentials. The verified principal
    /// (if a hook is set), or the response that refuses the request.
    pub async fn admit(
        &self,
        head: RequestHead<'_>,
    ) -> Result<Option<AnyPrincipal>, Box<Response>> {
        if let Some(refused) = self.refusal(head.headers) {
            return Err(Box::new(refused));
        }
        let Some(authenticator) = &self.authenticator else {
            return Ok(None);
        };
        authenticator
            .principal(head)
            .await
            .map(Some)
            .map_err(|rejection| {
                let metadata = self.resource.as_ref().map(ProtectedResource::url);
                Box::new(rejection.into_response(metadata.as_deref()))
            })
    }

    /// The response that refuses the request, or `None` when it may proceed.
    pub fn refusal(&self, headers: &HeaderMap) -> Option<Response> {
        let mut hosts_sent = headers.get_all(header::HOST).iter();
        let host = hosts_sent.next();
        if hosts_sent.next().is_some() {
            // RFC 9112 §3.2: which one a proxy and this server each read could differ.
            return Some(error_response(
                StatusCode::BAD_REQUEST,
                &RpcError::new(
                    code::INVALID_REQUEST,
                    "Bad request: more than one Host header.",
                ),
            ));
        }
        if let (Some(hosts), Some(host)) = (&self.hosts, host) {
            // Compared without case (the names allowed are lowercase), with no copy made.
            let host = host.to_str().unwrap_or_default();
            let name = host_name(host);
            if !hosts
                .iter()
                .any(|allowed| allowed.eq_ignore_ascii_case(name))
            {
                let host = host.to_ascii_lowercase();
                return Some(forbidden(format!(
                    "Forbidden: the Host header `{host}` is not one this server answers to."
                )));
            }
        }
        if let Some(origin) = headers.get(header::ORIGIN) {
            let origin = origin.to_str().unwrap_or_default().to_ascii_lowercase();
            let local = origin.split_once("://").is_some_and(|(scheme, rest)| {
                matches!(scheme, "http" | "https") && LOCAL_HOSTS.contains(&host_name(rest))
            });
            if !local && !self.origins.contains(&origin) {
                return Some(forbidden(format!(
                    "Forbidden: requests from origin `{origin}` are not allowed."
                )));
            }
        }
        None
    }
}

/// The host name of `host[:port]` (IPv6 addresses keep their brackets).
fn host_name(authority: &str) -> &str {
    let authority = authority.split('/').next().unwrap_or_default();
    if authority.starts_with('[') {
        return authority
            .find(']')
            .map_or(authority, |end| &authority[..=end]);
    }
    authority
        .rsplit_once(':')
        .map_or(authority, |(name, _port)| name)
}

fn forbidden(message: String) -> Response {
    error_response(
        StatusCode::FORBIDDEN,
        &RpcError::new(code::INVALID_REQUEST, message),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(header::HeaderName, &str)]) -> HeaderMap {
        pairs
            .iter()
            .map(|(name, value)| (name.clone(), value.parse().expect("a header value")))
            .collect()
    }

    #[test]
    fn local_hosts_and_origins_pass_and_others_are_refused() {
        let guard = Guard::default();
        for host in ["localhost:8080", "127.0.0.1", "[::1]:3000"] {
            assert!(
                guard.refusal(&headers(&[(header::HOST, host)])).is_none(),
                "{host}"
            );
        }
        let evil = headers(&[(header::HOST, "evil.example.com")]);
        assert_eq!(
            guard.refusal(&evil).expect("refused").status(),
            StatusCode::FORBIDDEN
        );
        let evil_origin = headers(&[
            (header::HOST, "localhost:1"),
            (header::ORIGIN, "http://evil.example.com"),
        ]);
        assert!(guard.refusal(&evil_origin).is_some());
        let local_origin = headers(&[(header::ORIGIN, "http://localhost:5173")]);
        assert!(guard.refusal(&local_origin).is_none());
    }

    #[test]
    fn configured_hosts_and_origins_pass() {
        let mut guard = Guard::default();
        guard.allow_host("mcp.example.com".into());
        guard.allow_origin("https://app.example.com/".into());
        let request = headers(&[
            (header::HOST, "mcp.example.com:443"),
            (header::ORIGIN, "https://app.example.com"),
        ]);
        assert!(guard.refusal(&request).is_none());
        guard.allow_any_host();
        assert!(
            guard
                .refusal(&headers(&[(header::HOST, "anything")]))
                .is_none()
        );
    }
}
