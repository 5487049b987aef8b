//! Opaque access tokens verified by introspection (RFC 7662): [`TokenIntrospector`] asks the
//! issuer's introspection endpoint about each token it has not seen lately (once for all the
//! requests that bring it at the same time), and keeps the active answers for a while in a
//! bounded cache.

use std::fmt;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use serde_json::{Map, Value};
use sha2::{Digest, Sha256};
use tokio::sync::Semaphore;

mod cache;
#[cfg(test)]
mod endpoint_tests;
mod under_way;

use super::checks::{
    DEFAULT_JWT_LEEWAY, EXPIRED, NOT_VERIFIED, OTHER_RESOURCE, issuer_problem, listing,
};
use super::claims::TokenClaims;
use super::dpop::Dpop;
use super::fetch::{FETCH_TIMEOUT, Fetcher, fetchable, form_encode};
use crate::transport::http::auth::{AuthRejection, RequestHead, VerifierListing};
use cache::Cache;
use under_way::UnderWay;

/// Default longest time an active introspection answer is reused.
pub const DEFAULT_INTROSPECTION_CACHE_TTL: Duration = Duration::from_secs(60);
/// Default most introspection answers kept at once.
pub const DEFAULT_MAX_CACHED_TOKENS: usize = 10_000;
/// The most introspection requests under way at once, so random tokens cannot pile them up.
const MAX_INTROSPECTIONS: usize = 16;
/// The shortest time between two attempts to discover the introspection endpoint.
const DISCOVERY_RETRY: Duration = Duration::from_secs(30);

/// Verifies opaque access tokens by asking the issuer about them (RFC 7662 introspection);
/// install it with [`HttpServer::introspect_tokens`](crate::HttpServer::introspect_tokens).
///
/// The introspection endpoint is found through the issuer's metadata (RFC 8414, else
/// OpenID Connect Discovery), and this server authenticates there with its own client
/// credentials (HTTP Basic). An active answer is reused for at most the
/// [cache TTL](TokenIntrospector::cache_ttl), never past the token's `exp`.
///
/// ```
/// use mcp_runtime::{Server, TokenIntrospector};
///
/// let http = Server::new("notes", "1.0.0").http().introspect_tokens(TokenIntrospector::new(
///     "https://mcp.example.com/mcp",
///     "https://auth.example.com",
///     "mcp-server",
///     "its secret",
/// ));
/// # drop(http);
/// ```
#[derive(Clone)]
pub struct TokenIntrospector {
    resource: String,
    issuer: String,
    client_id: String,
    client_secret: String,
    leeway: Duration,
    cache_ttl: Duration,
    max_cached: usize,
    allow_http: bool,
    require_dpop: bool,
}

/// Leaves out the client secret, which must not reach a log.
impl fmt::Debug for TokenIntrospector {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter
            .debug_struct("TokenIntrospector")
            .field("resource", &self.resource)
            .field("issuer", &self.issuer)
            .field("client_id", &self.client_id)
            .field("leeway", &self.leeway)
            .field("cache_ttl", &self.cache_ttl)
            .field("max_cached", &self.max_cached)
            .field("allow_http", &self.allow_http)
            .field("require_dpop", &self.require_dpop)
            .finish_non_exhaustive()
    }
}

impl TokenIntrospector {
    /// Accepts tokens for `resource`, this server's canonical URL (the answer's `aud` must
    /// hold it, RFC 8707), issued by `issuer`, whom this server asks as the client
    /// `client_id` with `client_secret`.
    pub fn new(
        resource: impl Into<String>,
        issuer: impl Into<String>,
        client_id: impl Into<String>,
        client_secret: impl Into<String>,
    ) -> Self {
        TokenIntrospector {
            resource: resource.into(),
            issuer: issuer.into(),
            client_id: client_id.into(),
            client_secret: client_secret.into(),
            leeway: DEFAULT_JWT_LEEWAY,
            cache_ttl: DEFAULT_INTROSPECTION_CACHE_TTL,
            max_cached: DEFAULT_MAX_CACHED_TOKENS,
            allow_http: false,
            require_dpop: false,
        }
    }

    /// The clock skew allowed between this server and the issuer (default
    /// [`DEFAULT_JWT_LEEWAY`]) when checking the answer's `exp` and `nbf`.
    pub fn leeway(mut self, leeway: Duration) -> Self {
        self.leeway = leeway;
        self
    }

    /// How long an active answer is reused before the token is introspected again
    /// (default [`DEFAULT_INTROSPECTION_CACHE_TTL`]); never past the token's `exp`. A token
    /// the issuer revokes is still accepted for up to this long.
    pub fn cache_ttl(mut self, ttl: Duration) -> Self {
        self.cache_ttl = ttl;
        self
    }

    /// The most answers kept at once (default [`DEFAULT_MAX_CACHED_TOKENS`]).
    pub fn max_cached(mut self, entries: usize) -> Self {
        self.max_cached = entries;
        self
    }

    /// Accepts an `http://` issuer and introspection endpoint (by default only `https://`,
    /// since the client secret and the tokens would travel in the clear). For tests
    /// against a local authorization server.
    pub fn allow_http(mut self) -> Self {
        self.allow_http = true;
        self
    }

    /// Accepts only DPoP-bound tokens (the answer's `cnf.jkt`), each with a proof of its
    /// key, as [`JwtVerifier::require_dpop`](crate::JwtVerifier::require_dpop) does.
    pub fn require_dpop(mut self) -> Self {
        self.require_dpop = true;
        self
    }

    /// What it lists in the protected-resource metadata: its issuer, its DPoP support.
    pub(crate) fn listing(&self) -> VerifierListing {
        listing(&self.issuer, self.require_dpop)
    }

    /// The resource, this server's canonical URL.
    pub(crate) fn resource(&self) -> &str {
        &self.resource
    }

    /// What makes this introspector unusable, if anything: checked when the server starts.
    pub(crate) fn problem(&self) -> Option<String> {
        issuer_problem(&self.issuer, self.allow_http, "TokenIntrospector")
    }

    /// The introspector requests run through.
    pub(crate) fn start(self) -> Arc<Introspector> {
        Arc::new(Introspector {
            authorization: basic_authorization(&self.client_id, &self.client_secret),
            fetcher: Fetcher::new(self.allow_http),
            endpoint: tokio::sync::Mutex::new((None, None)),
            cache: Mutex::new(Cache::new(self.max_cached)),
            permits: Semaphore::new(MAX_INTROSPECTIONS),
            under_way: UnderWay::default(),
            dpop: Dpop::new(&self.resource, self.require_dpop, self.leeway),
            settings: self,
        })
    }
}

/// `Authorization: Basic` for `client_secret_basic`: RFC 6749 §2.3.1 form-encodes the id
/// and the secret before joining and encoding them.
fn basic_authorization(client_id: &str, client_secret: &str) -> String {
    let pair = format!("{}:{}", form_encode(client_id), form_encode(client_secret));
    format!("Basic {}", STANDARD.encode(pair))
}

/// A started [`TokenIntrospector`]: its settings, the endpoint and the cached answers.
pub(crate) struct Introspector {
    settings: TokenIntrospector,
    authorization: String,
    fetcher: Fetcher,
    /// The introspection endpoint once discovered, and when discovery was last tried.
    endpoint: tokio::sync::Mutex<(Option<String>, Option<Instant>)>,
    cache: Mutex<Cache>,
    permits: Semaphore,
    under_way: UnderWay,
    dpop: Dpop,
}

impl Introspector {
    /// Records the DPoP proofs it takes in the fleet's `store` as well.
    pub fn share_proofs(&self, store: &Arc<dyn crate::fleet::FleetStore>) {
        self.dpop.share_with(store);
    }

    /// The claims of the request's token, used as it is bound (DPoP), or the refusal: a
    /// short reason for the client, the precise one logged for the operator.
    pub async fn verify(&self, head: RequestHead<'_>) -> Result<TokenClaims, AuthRejection> {
        self.dpop.admit(head, |token| self.claims(token)).await
    }

    /// The claims of the issuer's answer about `token`, once checked.
    async fn claims(&self, token: &str) -> Result<TokenClaims, AuthRejection> {
        let key: [u8; 32] = Sha256::digest(token.as_bytes()).into();
        if let Some(claims) = self.cached(&key) {
            return Ok(claims);
        }
        self.under_way
            .outcome(key, || self.introspect(token, key))
            .await
    }

    /// Asks the issuer about `token` (whose digest is `key`), and caches an active answer.
    async fn introspect(&self, token: &str, key: [u8; 32]) -> Result<TokenClaims, AuthRejection> {
        let unreachable = |why: String| {
            tracing::warn!(%why, "refused an opaque access token: it could not be introspected");
            AuthRejection::invalid_token(NOT_VERIFIED)
        };
        let _permit = tokio::time::timeout(FETCH_TIMEOUT, self.permits.acquire())
            .await
            .map_err(|_| {
                unreachable(format!(
                    "{MAX_INTROSPECTIONS} introspections were under way for {FETCH_TIMEOUT:?}"
                ))
            })?
            .expect("the semaphore is never closed");
        // A request with the same token may have been answered while this one waited.
        if let Some(claims) = self.cached(&key) {
            return Ok(claims);
        }
        let endpoint = self.endpoint().await.map_err(unreachable)?;
        let body = format!("token={}&token_type_hint=access_token", form_encode(token));
        let answer = self
            .fetcher
            .post_form(&endpoint, &self.authorization, body)
            .await
            .map_err(unreachable)?;
        let settings = &self.settings;
        let now = jsonwebtoken::get_current_timestamp();
        let claims = check(answer, settings, now).map_err(|(text, reason)| {
            tracing::info!(%reason, "refused an opaque access token");
            AuthRejection::invalid_token(text)
        })?;
        let lifetime =
            claims
                .get("exp")
                .and_then(Value::as_u64)
                .map_or(settings.cache_ttl, |exp| {
                    settings
                        .cache_ttl
                        .min(Duration::from_secs(exp.saturating_sub(now)))
                });
        let claims = TokenClaims::new(claims);
        self.lock_cache()
            .insert(key, claims.clone(), Instant::now() + lifetime);
        Ok(claims)
    }

    fn lock_cache(&self) -> std::sync::MutexGuard<'_, Cache> {
        self.cache
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn cached(&self, key: &[u8; 32]) -> Option<TokenClaims> {
        self.lock_cache().get(key, Instant::now())
    }

    /// The introspection endpoint, discovered once; after a failure, tried again at most
    /// once per [`DISCOVERY_RETRY`] so a down issuer is not asked on every request.
    async fn endpoint(&self) -> Result<String, String> {
        let mut endpoint = self.endpoint.lock().await;
        let (found, tried) = &mut *endpoint;
        if let Some(found) = found {
            return Ok(found.clone());
        }
        if tried.is_some_and(|tried| tried.elapsed() < DISCOVERY_RETRY) {
            return Err(format!(
                "its discovery failed less than {DISCOVERY_RETRY:?} ago"
            ));
        }
        *tried = Some(Instant::now());
        let settings = &self.settings;
        let metadata = self.fetcher.metadata(&settings.issuer).await?;
        let Some(uri) = metadata["introspection_endpoint"].as_str() else {
            return Err(format!(
                "the metadata of {} has no introspection_endpoint",
                settings.issuer
            ));
        };
        if !fetchable(uri, settings.allow_http) {
            return Err(format!("the introspection_endpoint {uri} is not https"));
        }
        tracing::info!(
            introspection_endpoint = uri,
            "discovered the token issuer's introspection endpoint"
        );
        Ok(found.insert(uri.to_owned()).clone())
    }
}

/// The members of an introspection answer that pass the checks at `now` (seconds since
/// 1970), or the client's text and the operator's reason for refusing the token.
fn check(
    answer: Value,
    settings: &TokenIntrospector,
    now: u64,
) -> Result<Map<String, Value>, (&'static str, String)> {
    let Value::Object(answer) = answer else {
        return Err((NOT_VERIFIED, "the answer is not an object".to_owned()));
    };
    if answer.get("active") != Some(&Value::Bool(true)) {
        return Err((NOT_VERIFIED, "the issuer says it is not active".to_owned()));
    }
    let leeway = settings.leeway.as_secs();
    let time = |name: &str| match answer.get(name) {
        None => Ok(None),
        Some(value) => value
            .as_u64()
            .map(Some)
            .ok_or((NOT_VERIFIED, format!("its `{name}` {value} is not a time"))),
    };
    if time("exp")?.is_some_and(|exp| exp.saturating_add(leeway) < now) {
        return Err((EXPIRED, "its `exp` is past".to_owned()));
    }
    if time("nbf")?.is_some_and(|nbf| nbf > now.saturating_add(leeway)) {
        return Err((NOT_VERIFIED, "its `nbf` is in the future".to_owned()));
    }
    if let Some(iss) = answer.get("iss")
        && iss.as_str() != Some(settings.issuer.as_str())
    {
        return Err((
            NOT_VERIFIED,
            format!("its `iss` {iss} is not {}", settings.issuer),
        ));
    }
    let resource = Value::String(settings.resource.clone());
    let for_us = match answer.get("aud") {
        Some(Value::Array(audiences)) => audiences.contains(&resource),
        Some(audience) => *audience == resource,
        None => false,
    };
    if !for_us {
        return Err((
            OTHER_RESOURCE,
            "its `aud` does not hold this server's resource".to_owned(),
        ));
    }
    Ok(answer)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const NOW: u64 = 1_000_000;

    fn settings() -> TokenIntrospector {
        TokenIntrospector::new(
            "https://mcp.example.com/mcp",
            "https://as.example.com",
            "c",
            "s",
        )
    }

    fn checked(answer: Value) -> Result<Map<String, Value>, (&'static str, String)> {
        check(answer, &settings(), NOW)
    }

    #[test]
    fn an_active_answer_for_this_resource_passes() {
        let answer = json!({"active": true, "aud": "https://mcp.example.com/mcp",
            "iss": "https://as.example.com", "exp": NOW + 10, "nbf": NOW, "client_id": "a"});
        assert_eq!(checked(answer.clone()).expect("passes")["client_id"], "a");
        let listed = json!({"active": true, "aud": ["other", "https://mcp.example.com/mcp"]});
        assert!(checked(listed).is_ok());
        // Within the leeway either side.
        let skewed = json!({"active": true, "aud": "https://mcp.example.com/mcp",
            "exp": NOW - 59, "nbf": NOW + 59});
        assert!(checked(skewed).is_ok());
    }

    #[test]
    fn answers_failing_a_check_are_refused_with_the_clients_text() {
        let aud = "https://mcp.example.com/mcp";
        let cases = [
            (json!({"active": false, "aud": aud}), NOT_VERIFIED),
            (json!({"active": "true", "aud": aud}), NOT_VERIFIED),
            (json!({"aud": aud}), NOT_VERIFIED),
            (json!(["active"]), NOT_VERIFIED),
            (
                json!({"active": true, "aud": aud, "exp": NOW - 61}),
                EXPIRED,
            ),
            (
                json!({"active": true, "aud": aud, "exp": "soon"}),
                NOT_VERIFIED,
            ),
            (
                json!({"active": true, "aud": aud, "nbf": NOW + 61}),
                NOT_VERIFIED,
            ),
            (
                json!({"active": true, "aud": aud, "iss": "https://evil"}),
                NOT_VERIFIED,
            ),
            (json!({"active": true}), OTHER_RESOURCE),
            (
                json!({"active": true, "aud": "https://other"}),
                OTHER_RESOURCE,
            ),
            (
                json!({"active": true, "aud": ["https://other"]}),
                OTHER_RESOURCE,
            ),
        ];
        for (answer, text) in cases {
            match checked(answer.clone()) {
                Err((refused, _)) => assert_eq!(refused, text, "{answer}"),
                Ok(_) => panic!("{answer} passed"),
            }
        }
    }

    #[test]
    fn client_credentials_are_form_encoded_before_base64() {
        // RFC 6749 §2.3.1: "a b:c" and "é/+" become "a%20b%3Ac" and "%C3%A9%2F%2B".
        assert_eq!(
            basic_authorization("a b:c", "é/+"),
            format!("Basic {}", STANDARD.encode("a%20b%3Ac:%C3%A9%2F%2B"))
        );
        assert_eq!(
            basic_authorization("mcp-server", "secret"),
            "Basic bWNwLXNlcnZlcjpzZWNyZXQ="
        );
    }
}
