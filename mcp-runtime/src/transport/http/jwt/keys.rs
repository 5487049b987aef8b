//! The issuer's signing keys: discovered from its metadata, fetched from its `jwks_uri`,
//! cached, and fetched again for an unknown `kid` — one fetch at a time, at most one per
//! interval, so tokens with made-up `kid`s cannot make the server hammer the issuer.

use std::collections::HashMap;
use std::sync::{Arc, RwLock};
use std::time::{Duration, Instant};

use jsonwebtoken::DecodingKey;
use jsonwebtoken::jwk::{AlgorithmParameters, EllipticCurve, Jwk, KeyAlgorithm};
use serde_json::Value;

use super::algorithm::JwtAlgorithm;
use super::fetch::{Fetcher, fetchable};

/// The most keys kept from one key set; the rest are ignored (and logged).
pub(crate) const MAX_KEYS: usize = 100;

/// A verification key and what it may verify.
pub(super) struct Key {
    pub decoding: DecodingKey,
    jwk: Jwk,
}

impl Key {
    pub fn from_jwk(jwk: Jwk) -> jsonwebtoken::errors::Result<Key> {
        Ok(Key {
            decoding: DecodingKey::from_jwk(&jwk)?,
            jwk,
        })
    }

    /// Whether this key may verify a token signed with `algorithm`: its type (and curve)
    /// fits, and its own `alg`, if stated, is the same.
    pub fn fits(&self, algorithm: JwtAlgorithm) -> bool {
        let kind_fits = match (&self.jwk.algorithm, algorithm) {
            (
                AlgorithmParameters::RSA(_),
                JwtAlgorithm::RS256
                | JwtAlgorithm::RS384
                | JwtAlgorithm::RS512
                | JwtAlgorithm::PS256
                | JwtAlgorithm::PS384
                | JwtAlgorithm::PS512,
            ) => true,
            (AlgorithmParameters::EllipticCurve(ec), JwtAlgorithm::ES256) => {
                ec.curve == EllipticCurve::P256
            }
            (AlgorithmParameters::EllipticCurve(ec), JwtAlgorithm::ES384) => {
                ec.curve == EllipticCurve::P384
            }
            (AlgorithmParameters::OctetKeyPair(okp), JwtAlgorithm::EdDSA) => {
                okp.curve == EllipticCurve::Ed25519
            }
            _ => false,
        };
        let stated_fits = self
            .jwk
            .common
            .key_algorithm
            .is_none_or(|stated| key_algorithm(algorithm) == stated);
        kind_fits && stated_fits
    }
}

fn key_algorithm(algorithm: JwtAlgorithm) -> KeyAlgorithm {
    match algorithm {
        JwtAlgorithm::RS256 => KeyAlgorithm::RS256,
        JwtAlgorithm::RS384 => KeyAlgorithm::RS384,
        JwtAlgorithm::RS512 => KeyAlgorithm::RS512,
        JwtAlgorithm::PS256 => KeyAlgorithm::PS256,
        JwtAlgorithm::PS384 => KeyAlgorithm::PS384,
        JwtAlgorithm::PS512 => KeyAlgorithm::PS512,
        JwtAlgorithm::ES256 => KeyAlgorithm::ES256,
        JwtAlgorithm::ES384 => KeyAlgorithm::ES384,
        JwtAlgorithm::EdDSA => KeyAlgorithm::EdDSA,
    }
}

/// The keys by `kid`.
type KeySet = HashMap<String, Arc<Key>>;

/// Why no key was found, for the operator's log.
pub(super) enum Missing {
    /// The key set was fetched (now or lately) and has no such `kid`.
    Unknown,
    /// A fetch was due but failed.
    Unreachable(String),
}

/// The key set as last fetched, and when.
#[derive(Default)]
struct Cached {
    keys: KeySet,
    fetched: Option<Instant>,
}

pub(super) struct Keys {
    issuer: String,
    allow_http: bool,
    fetcher: Fetcher,
    refetch_interval: Duration,
    max_age: Duration,
    cached: RwLock<Arc<Cached>>,
    /// Held while fetching, so one fetch runs at a time; the `jwks_uri` once discovered,
    /// and when the last fetch started.
    fetching: tokio::sync::Mutex<(Option<String>, Option<Instant>)>,
}

impl Keys {
    pub fn new(
        issuer: String,
        allow_http: bool,
        refetch_interval: Duration,
        max_age: Duration,
    ) -> Self {
        Keys {
            issuer,
            allow_http,
            fetcher: Fetcher::new(allow_http),
            refetch_interval,
            max_age,
            cached: RwLock::new(Arc::default()),
            fetching: tokio::sync::Mutex::new((None, None)),
        }
    }

    /// The cached key `kid`, if any, and whether the set it is in is younger than the
    /// maximum age.
    fn cached(&self, kid: &str) -> (Option<Arc<Key>>, bool) {
        let cached = self
            .cached
            .read()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let fresh = cached
            .fetched
            .is_some_and(|fetched| fetched.elapsed() < self.max_age);
        (cached.keys.get(kid).cloned(), fresh)
    }

    /// The key `kid`: from the cache while it is fresh, else from a fetch of the key set if
    /// none started within the refetch interval. A key whose set has aged still serves
    /// while a fetch is not due or fails, so an issuer that is down does not stop the
    /// server.
    pub async fn key(&self, kid: &str) -> Result<Arc<Key>, Missing> {
        if let (Some(key), true) = self.cached(kid) {
            return Ok(key);
        }
        let mut fetching = self.fetching.lock().await;
        // Another request may have fetched it while this one waited.
        let (kept, fresh) = self.cached(kid);
        if let (Some(key), true) = (&kept, fresh) {
            return Ok(Arc::clone(key));
        }
        let (jwks_uri, last) = &mut *fetching;
        if last.is_some_and(|last| last.elapsed() < self.refetch_interval) {
            return kept.ok_or(Missing::Unknown);
        }
        *last = Some(Instant::now());
        match self.fetch(jwks_uri).await {
            Ok(keys) => {
                let found = keys.get(kid).cloned();
                *self
                    .cached
                    .write()
                    .unwrap_or_else(|poisoned| poisoned.into_inner()) = Arc::new(Cached {
                    keys,
                    fetched: Some(Instant::now()),
                });
                found.ok_or(Missing::Unknown)
            }
            Err(why) => match kept {
                Some(key) => {
                    tracing::warn!(%why, "the token issuer's keys could not be fetched again; the cached ones still serve");
                    Ok(key)
                }
                None => Err(Missing::Unreachable(why)),
            },
        }
    }

    /// The key set, from the `jwks_uri` discovered once.
    async fn fetch(&self, jwks_uri: &mut Option<String>) -> Result<KeySet, String> {
        let uri = match jwks_uri {
            Some(uri) => uri.clone(),
            None => jwks_uri.insert(self.discover().await?).clone(),
        };
        let keys = key_set(&self.fetcher.json(&uri).await?, &uri);
        tracing::info!(jwks_uri = %uri, kids = ?keys.keys().collect::<Vec<_>>(), "fetched the token issuer's keys");
        Ok(keys)
    }

    /// The `jwks_uri` of the issuer's metadata.
    async fn discover(&self) -> Result<String, String> {
        let metadata = self.fetcher.metadata(&self.issuer).await?;
        let Some(uri) = metadata["jwks_uri"].as_str() else {
            return Err(format!("the metadata of {} has no jwks_uri", self.issuer));
        };
        if !fetchable(uri, self.allow_http) {
            return Err(format!("the jwks_uri {uri} is not https"));
        }
        Ok(uri.to_owned())
    }
}

/// The usable signing keys of a JWKS document: asymmetric, with a `kid`, not marked for
/// encryption; at most [`MAX_KEYS`].
fn key_set(document: &Value, uri: &str) -> KeySet {
    let mut keys = KeySet::new();
    let listed = document["keys"].as_array().map_or(&[][..], Vec::as_slice);
    for value in listed {
        let Ok(jwk) = serde_json::from_value::<Jwk>(value.clone()) else {
            tracing::info!(jwks_uri = uri, key = %value, "a key of the issuer's key set is not one this server reads; ignored");
            continue;
        };
        let asymmetric = !matches!(
            jwk.algorithm,
            AlgorithmParameters::OctetKey(_) | AlgorithmParameters::Other(_)
        );
        let for_signing = value["use"].as_str().is_none_or(|usage| usage == "sig");
        let (Some(kid), true, true) = (jwk.common.key_id.clone(), asymmetric, for_signing) else {
            continue;
        };
        if keys.len() == MAX_KEYS {
            tracing::warn!(
                jwks_uri = uri,
                "the issuer's key set has more than {MAX_KEYS} keys; the rest are ignored"
            );
            break;
        }
        match Key::from_jwk(jwk) {
            Ok(key) => {
                keys.insert(kid, Arc::new(key));
            }
            Err(error) => {
                tracing::info!(jwks_uri = uri, kid, %error, "a key of the issuer's key set is not usable; ignored");
            }
        }
    }
    keys
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn only_asymmetric_signing_keys_with_a_kid_are_kept_and_they_fit_their_algorithms() {
        let rsa = json!({"kty": "RSA", "kid": "r", "alg": "RS256", "n": "sXch", "e": "AQAB"});
        let document = json!({"keys": [
            rsa,
            {"kty": "RSA", "n": "sXch", "e": "AQAB"},
            {"kty": "RSA", "kid": "enc", "use": "enc", "n": "sXch", "e": "AQAB"},
            {"kty": "oct", "kid": "secret", "k": "c2VjcmV0"},
            {"kty": "OKP", "kid": "ed", "crv": "Ed25519", "x": "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"},
            {"kty": "what", "kid": "odd"},
        ]});
        let keys = key_set(&document, "test");
        let mut kids: Vec<_> = keys.keys().map(String::as_str).collect();
        kids.sort_unstable();
        assert_eq!(kids, ["ed", "r"]);
        let (rsa, ed) = (&keys["r"], &keys["ed"]);
        assert!(rsa.fits(JwtAlgorithm::RS256));
        // Its stated `alg` is RS256: not PS256 nor RS512, though the key type would do.
        assert!(!rsa.fits(JwtAlgorithm::PS256));
        assert!(!rsa.fits(JwtAlgorithm::ES256));
        assert!(ed.fits(JwtAlgorithm::EdDSA));
        assert!(!ed.fits(JwtAlgorithm::RS256));
    }

    #[test]
    fn no_more_than_the_bound_of_keys_is_kept() {
        let many: Vec<Value> = (0..MAX_KEYS + 5)
            .map(|n| json!({"kty": "RSA", "kid": format!("k{n}"), "n": "sXch", "e": "AQAB"}))
            .collect();
        assert_eq!(key_set(&json!({ "keys": many }), "test").len(), MAX_KEYS);
    }
}
