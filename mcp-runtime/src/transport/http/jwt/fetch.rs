//! GETs of the authorization server's JSON documents (metadata, keys): hyper-util's client
//! over rustls, every answer bounded in size and time.

use std::sync::Arc;
use std::time::Duration;

use axum::body::Bytes;
use axum::http::{Request, StatusCode, header};
use http_body_util::{BodyExt, Empty, Limited};
use hyper_rustls::HttpsConnector;
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::TokioExecutor;
use serde_json::Value;

/// The largest document fetched (metadata or key set): a key set of a hundred RSA keys is
/// about 70 KiB.
pub(crate) const MAX_DOCUMENT_BYTES: usize = 256 * 1024;

/// How long one fetch may take, connecting included.
pub(crate) const FETCH_TIMEOUT: Duration = Duration::from_secs(10);

/// Whether `url` may be fetched: `https://`, or `http://` when allowed.
pub(super) fn fetchable(url: &str, allow_http: bool) -> bool {
    url.starts_with("https://") || (allow_http && url.starts_with("http://"))
}

pub(super) struct Fetcher {
    client: Client<HttpsConnector<HttpConnector>, Empty<Bytes>>,
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
                "no root certificates found on this system: https fetches of the token issuer's keys will fail"
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
        match tokio::time::timeout(FETCH_TIMEOUT, self.fetch(url)).await {
            Ok(result) => result,
            Err(_) => Err(format!("{url}: no answer within {FETCH_TIMEOUT:?}")),
        }
    }

    async fn fetch(&self, url: &str) -> Result<Value, String> {
        let request = Request::get(url)
            .header(header::ACCEPT, "application/json")
            .body(Empty::new())
            .map_err(|error| format!("{url}: {error}"))?;
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
