//! Requests to the authorization server for JSON (metadata and keys by GET, introspection
//! by POST): hyper-util's client over rustls, every answer bounded in size and time.

use std::sync::Arc;
use std::time::Duration;

use axum::body::Bytes;
use axum::http::{Request, StatusCode, header};
use http_body_util::{BodyExt, Full, Limited};
use hyper_rustls::HttpsConnector;
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::TokioExecutor;
use serde_json::Value;

/// The largest document fetched (metadata, key set or introspection answer): a key set of
/// a hundred RSA keys is about 70 KiB.
pub(crate) const MAX_DOCUMENT_BYTES: usize = 256 * 1024;

/// How long one fetch may take, connecting included.
pub(crate) const FETCH_TIMEOUT: Duration = Duration::from_secs(10);

/// Whether `url` may be fetched: `https://`, or `http://` when allowed.
pub(super) fn fetchable(url: &str, allow_http: bool) -> bool {
    url.starts_with("https://") || (allow_http && url.starts_with("http://"))
}

pub(super) struct Fetcher {
    client: Client<HttpsConnector<HttpConnector>, Full<Bytes>>,
}

impl Fetcher {
    /// A client for `https://` URLs, and `http://` ones only when `allow_http`.
    pub fn new(allow_http: bool) -> Self {
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let mut roots = rustls::RootCertStore::empty();
        let native = rustls_native_certs::load_native_certs();
        if !native.errors.is_empty() {
            tracing::warn!(errors = ?native.errors, "some of the system's root certificates could not be read");
        }
        let (added, _ignored) = roots.add_parsable_certificates(native.certs);
        if added == 0 {
            tracing::warn!(
                "no root certificates found on this system: https requests to the token issuer (its metadata, keys and introspection) will fail"
            );
        }
        let tls = rustls::ClientConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .expect("ring supports the default protocol versions")
            .with_root_certificates(roots)
            .with_no_client_auth();
        let builder = hyper_rustls::HttpsConnectorBuilder::new().with_tls_config(tls);
        let connector = if allow_http {
            builder.https_or_http().enable_http1().build()
        } else {
            builder.https_only().enable_http1().build()
        };
        Fetcher {
            client: Client::builder(TokioExecutor::new()).build(connector),
        }
    }

    /// The JSON object at `url`, or why not (for the operator's log).
    pub async fn json(&self, url: &str) -> Result<Value, String> {
        let request = Request::get(url)
            .header(header::ACCEPT, "application/json")
            .body(Full::default());
        self.send(url, request).await
    }

    /// The JSON object answering a POST of the form `body` to `url` with the header
    /// `Authorization: authorization`, or why not (for the operator's log).
    pub async fn post_form(
        &self,
        url: &str,
        authorization: &str,
        body: String,
    ) -> Result<Value, String> {
        let request = Request::post(url)
            .header(header::ACCEPT, "application/json")
            .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
            .header(header::AUTHORIZATION, authorization)
            .body(Full::new(Bytes::from(body)));
        self.send(url, request).await
    }

    /// The issuer's metadata: RFC 8414's well-known document, else OpenID Connect's; its
    /// `issuer` must be ours exactly (RFC 8414 §3.3).
    pub async fn metadata(&self, issuer: &str) -> Result<Value, String> {
        let mut failures = Vec::new();
        for url in metadata_urls(issuer) {
            let metadata = match self.json(&url).await {
                Ok(metadata) => metadata,
                Err(error) => {
                    failures.push(error);
                    continue;
                }
            };
            if metadata["issuer"].as_str() != Some(issuer) {
                return Err(format!(
                    "{url}: its issuer {} is not {issuer}",
                    metadata["issuer"]
                ));
            }
            return Ok(metadata);
        }
        Err(failures.join("; "))
    }

    async fn send(
        &self,
        url: &str,
        request: Result<Request<Full<Bytes>>, axum::http::Error>,
    ) -> Result<Value, String> {
        let request = request.map_err(|error| format!("{url}: {error}"))?;
        match tokio::time::timeout(FETCH_TIMEOUT, self.fetch(url, request)).await {
            Ok(result) => result,
            Err(_) => Err(format!("{url}: no answer within {FETCH_TIMEOUT:?}")),
        }
    }

    async fn fetch(&self, url: &str, request: Request<Full<Bytes>>) -> Result<Value, String> {
        let response = self
            .client
            .request(request)
            .await
            .map_err(|error| format!("{url}: {}", causes(&error)))?;
        if response.status() != StatusCode::OK {
            return Err(format!("{url}: answered {}", response.status()));
        }
        let body = Limited::new(response.into_body(), MAX_DOCUMENT_BYTES)
            .collect()
            .await
            .map_err(|error| format!("{url}: {error} (at most {MAX_DOCUMENT_BYTES} bytes)"))?
            .to_bytes();
        let value: Value =
            serde_json::from_slice(&body).map_err(|error| format!("{url}: not JSON: {error}"))?;
        if !value.is_object() {
            return Err(format!("{url}: not a JSON object"));
        }
        Ok(value)
    }
}

/// Where the issuer's metadata may be: RFC 8414 §3.1 inserts the well-known path before the
/// issuer's path; OpenID Connect Discovery appends it.
pub(super) fn metadata_urls(issuer: &str) -> [String; 2] {
    let issuer = issuer.trim_end_matches('/');
    let after_scheme = issuer.find("://").map_or(0, |start| start + 3);
    let (origin, path) = match issuer[after_scheme..].find('/') {
        Some(start) => issuer.split_at(after_scheme + start),
        None => (issuer, ""),
    };
    [
        format!("{origin}/.well-known/oauth-authorization-server{path}"),
        format!("{issuer}/.well-known/openid-configuration"),
    ]
}

/// Percent-encoding of a form value (`application/x-www-form-urlencoded`, with `%20` for
/// a space, which every form reader accepts).
pub(super) fn form_encode(value: &str) -> String {
    let mut encoded = String::with_capacity(value.len());
    for byte in value.bytes() {
        match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => {
                encoded.push(char::from(byte));
            }
            _ => encoded.push_str(&format!("%{byte:02X}")),
        }
    }
    encoded
}

/// An error and its sources: hyper's own text ("client error (Connect)") leaves out why.
fn causes(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn metadata_is_looked_for_where_both_specifications_place_it() {
        assert_eq!(
            metadata_urls("https://auth.example.com"),
            [
                "https://auth.example.com/.well-known/oauth-authorization-server",
                "https://auth.example.com/.well-known/openid-configuration"
            ]
        );
        assert_eq!(
            metadata_urls("https://auth.example.com/tenant/1"),
            [
                "https://auth.example.com/.well-known/oauth-authorization-server/tenant/1",
                "https://auth.example.com/tenant/1/.well-known/openid-configuration"
            ]
        );
    }

    #[test]
    fn form_values_keep_only_unreserved_characters() {
        assert_eq!(form_encode("aZ09-._~"), "aZ09-._~");
        assert_eq!(form_encode("a b+c/d=é:%"), "a%20b%2Bc%2Fd%3D%C3%A9%3A%25");
    }
}
