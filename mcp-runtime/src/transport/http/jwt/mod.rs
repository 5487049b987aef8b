//! JWT access tokens verified by the server (feature `jwt`): [`JwtVerifier`] checks the
//! signature with the issuer's published keys, then the issuer, audience and lifetime;
//! [`TokenIntrospector`] asks the issuer about opaque tokens (RFC 7662).

mod algorithm;
mod checks;
mod claims;
#[cfg(test)]
mod discovery_tests;
mod dpop;
mod fetch;
mod introspection;
mod keys;

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use jsonwebtoken::errors::ErrorKind;
use jsonwebtoken::{Algorithm, Validation};
use serde_json::{Map, Value};

use super::auth::{AuthRejection, RequestHead, VerifierListing};
pub use algorithm::JwtAlgorithm;
pub use checks::DEFAULT_JWT_LEEWAY;
use checks::{EXPIRED, NOT_VERIFIED, OTHER_RESOURCE, issuer_problem, listing};
pub use claims::TokenClaims;
use dpop::Dpop;
pub(crate) use introspection::Introspector;
pub use introspection::{
    DEFAULT_INTROSPECTION_CACHE_TTL, DEFAULT_MAX_CACHED_TOKENS, TokenIntrospector,
};
use keys::{Keys, Missing};

/// Default shortest time between two fetches of the issuer's keys.
pub const DEFAULT_JWKS_REFETCH_INTERVAL: Duration = Duration::from_secs(30);
/// Default age past which the issuer's keys are fetched again before use.
pub const DEFAULT_JWKS_MAX_AGE: Duration = Duration::from_secs(10 * 60);

/// Verifies JWT access tokens (RFC 9068) issued for this server by one authorization
/// server; install it with [`HttpServer::verify_jwt`](crate::HttpServer::verify_jwt).
///
/// The issuer's keys are found through its metadata (RFC 8414, else OpenID Connect
/// Discovery) and cached; a token naming an unknown `kid`, or keys older than their
/// [maximum age](JwtVerifier::max_key_age), fetch them again, at most once per
/// [refetch interval](JwtVerifier::refetch_interval).
///
/// ```
/// use mcp_runtime::{JwtVerifier, Server};
///
/// let http = Server::new("notes", "1.0.0")
///     .http()
///     .verify_jwt(JwtVerifier::new("https://mcp.example.com/mcp", "https://auth.example.com"));
/// # drop(http);
/// ```
#[derive(Clone, Debug)]
pub struct JwtVerifier {
    resource: String,
    /// The `aud` a token must hold, when not the resource URL.
    audience: Option<String>,
    issuer: String,
    algorithms: Vec<JwtAlgorithm>,
    leeway: Duration,
    refetch_interval: Duration,
    max_key_age: Duration,
    allow_http: bool,
    require_dpop: bool,
}

impl JwtVerifier {
    /// Accepts tokens for `resource`, this server's canonical URL (their `aud` must hold
    /// it, RFC 8707), issued by `issuer` (their `iss` must be it exactly, and its metadata
    /// must name it so).
    pub fn new(resource: impl Into<String>, issuer: impl Into<String>) -> Self {
        JwtVerifier {
            resource: resource.into(),
            audience: None,
            issuer: issuer.into(),
            algorithms: vec![
                JwtAlgorithm::RS256,
                JwtAlgorithm::ES256,
                JwtAlgorithm::PS256,
                JwtAlgorithm::EdDSA,
            ],
            leeway: DEFAULT_JWT_LEEWAY,
            refetch_interval: DEFAULT_JWKS_REFETCH_INTERVAL,
            max_key_age: DEFAULT_JWKS_MAX_AGE,
            allow_http: false,
            require_dpop: false,
        }
    }

    /// The algorithms a token may be signed with (default `RS256`, `ES256`, `PS256`,
    /// `EdDSA`); a token signed otherwise is refused.
    pub fn algorithms(mut self, algorithms: impl IntoIterator<Item = JwtAlgorithm>) -> Self {
        self.algorithms = algorithms.into_iter().collect();
        self
    }

    /// The clock skew allowed between this server and the issuer (default
    /// [`DEFAULT_JWT_LEEWAY`]): a token is accepted until `exp` + leeway, and from `nbf` (or
    /// `iat`) − leeway.
    pub fn leeway(mut self, leeway: Duration) -> Self {
        self.leeway = leeway;
        self
    }

    /// The shortest time between two fetches of the issuer's keys (default
    /// [`DEFAULT_JWKS_REFETCH_INTERVAL`]): a token signed with a key not in the cache
    /// fetches the key set again unless a fetch started within it, and one fetch runs at a
    /// time, so made-up `kid`s cost the issuer at most one request per interval.
    pub fn refetch_interval(mut self, interval: Duration) -> Self {
        self.refetch_interval = interval;
        self
    }

    /// How long fetched keys are used before the key set is fetched again (default
    /// [`DEFAULT_JWKS_MAX_AGE`]), so a key the issuer withdrew stops verifying within it. A
    /// fetch then is rate-limited like any other, and if it fails the keys held still
    /// serve (and a warning is logged).
    pub fn max_key_age(mut self, age: Duration) -> Self {
        self.max_key_age = age;
        self
    }

    /// Accepts an `http://` issuer and key set (by default only `https://`, since keys
    /// fetched in the clear could be replaced on the way). For tests against a local
    /// authorization server.
    pub fn allow_http(mut self) -> Self {
        self.allow_http = true;
        self
    }

    /// Accepts tokens whose `aud` holds `audience` instead of the resource URL, for
    /// authorization servers that cannot put a URL there: Microsoft Entra ID's v2.0 tokens
    /// name the API application's client ID. It must name this server alone, or a token
    /// made for another server of the same issuer opens this one.
    pub fn audience(mut self, audience: impl Into<String>) -> Self {
        self.audience = Some(audience.into());
        self
    }

    /// Accepts only DPoP-bound tokens (RFC 9449), each with a proof of its key; bearer
    /// tokens are refused, and the metadata says `dpop_bound_access_tokens_required`.
    ///
    /// Without it, a token bound to a key (its `cnf.jkt`) still needs its proof, and
    /// unbound tokens are accepted as bearer tokens.
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

    /// What makes this verifier unusable, if anything: checked when the server starts.
    pub(crate) fn problem(&self) -> Option<String> {
        if let Some(problem) = issuer_problem(&self.issuer, self.allow_http, "JwtVerifier") {
            return Some(problem);
        }
        if self.algorithms.is_empty() {
            return Some("it accepts no algorithm".to_owned());
        }
        None
    }

    /// The verifier requests run through.
    pub(crate) fn start(self) -> Arc<Verifier> {
        // Another crate of the build may turn on jsonwebtoken's other backend too, which
        // leaves it without a default: then this one is chosen.
        if jsonwebtoken::crypto::CryptoProvider::try_get_default().is_none() {
            let _ = jsonwebtoken::crypto::rust_crypto::DEFAULT_PROVIDER.install_default();
        }
        let mut validation = Validation::new(Algorithm::RS256);
        validation.leeway = self.leeway.as_secs();
        validation.validate_nbf = true;
        validation.set_issuer(&[&self.issuer]);
        validation.set_audience(&[self.audience.as_ref().unwrap_or(&self.resource)]);
        validation.set_required_spec_claims(&["exp", "iss", "aud"]);
        // One per accepted algorithm, each accepting it alone, made once rather than per
        // token (a `Validation` holds sets of strings).
        let validations = self
            .algorithms
            .iter()
            .map(|&algorithm| {
                let mut validation = validation.clone();
                validation.algorithms = vec![algorithm.jsonwebtoken()];
                (algorithm, validation)
            })
            .collect();
        Arc::new(Verifier {
            keys: Keys::new(
                self.issuer.clone(),
                self.allow_http,
                self.refetch_interval,
                self.max_key_age,
            ),
            validations,
            leeway: self.leeway,
            dpop: Dpop::new(&self.resource, self.require_dpop, self.leeway),
        })
    }
}

/// A started [`JwtVerifier`]: its settings and the issuer's keys.
pub(crate) struct Verifier {
    keys: Keys,
    /// What a token signed with each accepted algorithm is checked against.
    validations: HashMap<JwtAlgorithm, Validation>,
    leeway: Duration,
    dpop: Dpop,
}

impl Verifier {
    /// Records the DPoP proofs it takes in the fleet's `store` as well.
    pub fn share_proofs(&self, store: &Arc<dyn crate::fleet::FleetStore>) {
        self.dpop.share_with(store);
    }

    /// The claims of the request's token, used as it is bound (DPoP), or the refusal: a
    /// short reason for the client, the precise one logged for the operator.
    pub async fn verify(&self, head: RequestHead<'_>) -> Result<TokenClaims, AuthRejection> {
        self.dpop.admit(head, |token| self.claims(token)).await
    }

    /// The claims of a JWT access token, once its signature and claims are checked.
    async fn claims(&self, token: &str) -> Result<TokenClaims, AuthRejection> {
        let refuse = |reason: String| {
            tracing::info!(%reason, "refused a JWT access token");
            AuthRejection::invalid_token(NOT_VERIFIED)
        };
        let header = jsonwebtoken::decode_header(token)
            .map_err(|error| refuse(format!("its header cannot be read: {error}")))?;
        let (&algorithm, validation) = JwtAlgorithm::of(header.alg)
            .and_then(|algorithm| self.validations.get_key_value(&algorithm))
            .ok_or_else(|| refuse(format!("its algorithm {:?} is not accepted", header.alg)))?;
        let kid = header
            .kid
            .ok_or_else(|| refuse("its header names no key (`kid`)".to_owned()))?;
        let key = match self.keys.key(&kid).await {
            Ok(key) => key,
            Err(Missing::Unknown) => {
                tracing::warn!(
                    kid,
                    "refused a JWT access token: the issuer's key set has no such key"
                );
                return Err(AuthRejection::invalid_token(NOT_VERIFIED));
            }
            Err(Missing::Unreachable(why)) => {
                tracing::warn!(kid, %why, "refused a JWT access token: the issuer's keys could not be fetched");
                return Err(AuthRejection::invalid_token(NOT_VERIFIED));
            }
        };
        if !key.fits(algorithm) {
            return Err(refuse(format!(
                "its algorithm {algorithm:?} does not fit the key `{kid}`"
            )));
        }
        let claims = jsonwebtoken::decode::<Map<String, Value>>(token, &key.decoding, validation)
            .map_err(|error| match error.kind() {
                ErrorKind::ExpiredSignature => {
                    tracing::info!(kid, "refused a JWT access token: expired");
                    AuthRejection::invalid_token(EXPIRED)
                }
                ErrorKind::InvalidAudience => {
                    tracing::info!(
                        kid,
                        "refused a JWT access token: its `aud` does not hold this server's resource"
                    );
                    AuthRejection::invalid_token(OTHER_RESOURCE)
                }
                kind => refuse(format!("{} (key `{kid}`)", why(kind, validation))),
            })?
            .claims;
        // jsonwebtoken reads `nbf` but not `iat`: a token issued in the future is refused too.
        let now = jsonwebtoken::get_current_timestamp();
        if let Some(issued) = claims.get("iat") {
            match issued.as_u64() {
                Some(issued) if issued <= now + self.leeway.as_secs() => {}
                _ => {
                    return Err(refuse(format!(
                        "its `iat` {issued} is in the future or not a time"
                    )));
                }
            }
        }
        Ok(TokenClaims::new(claims))
    }
}

/// The operator's words for a check jsonwebtoken failed.
fn why(kind: &ErrorKind, validation: &Validation) -> String {
    match kind {
        ErrorKind::InvalidSignature => "its signature is not the key's".to_owned(),
        ErrorKind::InvalidIssuer => format!("its `iss` is not {:?}", validation.iss),
        ErrorKind::ImmatureSignature => "its `nbf` is in the future".to_owned(),
        ErrorKind::MissingRequiredClaim(claim) => format!("it has no `{claim}`"),
        ErrorKind::InvalidClaimFormat(claim) => format!("its `{claim}` is not of the right type"),
        kind => format!("{kind:?}"),
    }
}
