//! DPoP (RFC 9449): a token bound to a key (its `cnf.jkt`) is accepted only with a proof,
//! signed by that key, made for this very request, and not seen before.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use axum::http::{HeaderMap, Method, Uri, header};
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use jsonwebtoken::Validation;
use jsonwebtoken::jwk::{AlgorithmParameters, Jwk};
use serde_json::{Map, Value};
use sha2::{Digest, Sha256};

use super::algorithm::JwtAlgorithm;
use super::claims::TokenClaims;
use super::keys::Key;
use crate::fleet::FleetStore;
use crate::transport::http::auth::{
    AuthRejection, DpopChallenge, RequestHead, bearer_token, split_url,
};

/// The algorithms a proof may be signed with (asymmetric only, as for tokens).
pub(crate) const PROOF_ALGORITHMS: [JwtAlgorithm; 5] = [
    JwtAlgorithm::ES256,
    JwtAlgorithm::ES384,
    JwtAlgorithm::EdDSA,
    JwtAlgorithm::PS256,
    JwtAlgorithm::RS256,
];

/// Their JOSE names, as the metadata lists them.
pub(crate) static PROOF_ALGORITHM_NAMES: [&str; PROOF_ALGORITHMS.len()] = {
    let mut names = [""; PROOF_ALGORITHMS.len()];
    let mut at = 0;
    while at < names.len() {
        names[at] = PROOF_ALGORITHMS[at].name();
        at += 1;
    }
    names
};

/// How old a proof's `iat` may be (beyond the leeway): a proof is made for one request, just
/// before it is sent.
pub(crate) const PROOF_MAX_AGE: Duration = Duration::from_secs(60);

/// The most proofs remembered to refuse replays. Proofs are checked only once the token
/// passed, so only a client holding a valid token can fill it.
pub(crate) const MAX_REMEMBERED_PROOFS: usize = 100_000;

/// The credentials of a request: a bearer token, or a DPoP-bound one with its proof.
enum Presented<'a> {
    Bearer(&'a str),
    Dpop { token: &'a str, proof: &'a str },
}

impl<'a> Presented<'a> {
    fn token(&self) -> &'a str {
        match self {
            Presented::Bearer(token) | Presented::Dpop { token, .. } => token,
        }
    }
}

pub(super) struct Dpop {
    /// Whether tokens that are not DPoP-bound are refused.
    required: bool,
    leeway: Duration,
    /// `scheme://authority` of the resource: the origin a proof's `htu` must name (the
    /// request's own `Host` may be a load balancer's upstream name).
    origin: String,
    /// The resource's path, which a proof's `htu` may name instead of the request's: a
    /// proxy in front may serve the endpoint at another path than this server does.
    path: String,
    algs: String,
    /// What a proof signed with each accepted algorithm is checked against (its claims are
    /// checked here: a proof has no `exp` or `aud`).
    validations: HashMap<JwtAlgorithm, Validation>,
    /// The proofs seen, by the SHA-256 of their key's thumbprint and `jti`, with the time
    /// (seconds since the epoch) until which each is remembered.
    seen: Mutex<HashMap<[u8; 32], u64>>,
    /// In a fleet, its store: a proof this instance took is recorded there too, so that
    /// another instance refuses it.
    fleet: OnceLock<Arc<dyn FleetStore>>,
    /// When the fleet's store last failed to record a proof, while it fails: until
    /// [`FLEET_RETRY`] later, proofs are not sent there, so a stalled store does not hold
    /// every request for its timeout.
    fleet_failed_at: Mutex<Option<Instant>>,
}

/// How long after the fleet's store failed to record a proof it is tried again.
const FLEET_RETRY: Duration = Duration::from_secs(5);

/// A proof this instance took: its id, and how long it must be remembered.
struct Taken {
    id: [u8; 32],
    lifetime: Duration,
}

impl Dpop {
    pub fn new(resource: &str, required: bool, leeway: Duration) -> Self {
        let (origin, path) = split_url(resource);
        Dpop {
            required,
            leeway,
            origin: origin.to_owned(),
            path: path.to_owned(),
            algs: PROOF_ALGORITHM_NAMES.join(" "),
            validations: PROOF_ALGORITHMS
                .iter()
                .map(|&algorithm| {
                    let mut validation = Validation::new(algorithm.jsonwebtoken());
                    validation.validate_exp = false;
                    validation.validate_aud = false;
                    validation.set_required_spec_claims::<&str>(&[]);
                    (algorithm, validation)
                })
                .collect(),
            seen: Mutex::new(HashMap::new()),
            fleet: OnceLock::new(),
            fleet_failed_at: Mutex::new(None),
        }
    }

    /// Records the proofs this instance takes in the fleet's `store` as well.
    pub fn share_with(&self, store: &Arc<dyn FleetStore>) {
        let _ = self.fleet.set(Arc::clone(store));
    }

    /// The principal of a request whose token `claims_of` verifies, used as it is bound
    /// ([`check`](Self::check)); every refusal carries the challenges.
    pub async fn admit<'h, F>(
        &self,
        head: RequestHead<'h>,
        claims_of: impl FnOnce(&'h str) -> F,
    ) -> Result<TokenClaims, AuthRejection>
    where
        F: Future<Output = Result<TokenClaims, AuthRejection>>,
    {
        let presented = self.presented(head.headers)?;
        let used_dpop = matches!(presented, Presented::Dpop { .. });
        let claims = claims_of(presented.token())
            .await
            .map_err(|rejection| self.challenge(rejection, used_dpop))?;
        let taken = self
            .check(&presented, &claims, head.method, head.uri)
            .map_err(|rejection| self.challenge(rejection, used_dpop))?;
        if let Some(taken) = taken {
            self.taken_in_fleet(taken)
                .await
                .map_err(|rejection| self.challenge(rejection, used_dpop))?;
        }
        Ok(claims)
    }

    /// Refuses a proof another instance of the fleet took already. While the store cannot
    /// be reached, each instance refuses only the replays it saw itself.
    async fn taken_in_fleet(&self, taken: Taken) -> Result<(), AuthRejection> {
        let Some(store) = self.fleet.get() else {
            return Ok(());
        };
        {
            let mut failed_at = self.fleet_failed_at.lock().expect("not poisoned");
            match *failed_at {
                Some(at) if at.elapsed() < FLEET_RETRY => return Ok(()),
                // This request tries the store again; the others wait for what it finds.
                Some(_) => *failed_at = Some(Instant::now()),
                None => {}
            }
        }
        let key = format!("dpop:{}", URL_SAFE_NO_PAD.encode(taken.id));
        let recorded = store.record_once(&key, taken.lifetime).await;
        let mut failed_at = self.fleet_failed_at.lock().expect("not poisoned");
        match recorded {
            Ok(recorded) => {
                if failed_at.take().is_some() {
                    tracing::info!("DPoP proofs are recorded in the fleet's store again");
                }
                if recorded == Some(false) {
                    let why = "The DPoP proof was used before.";
                    tracing::info!(why, "refused a DPoP proof another instance took");
                    return Err(AuthRejection::invalid_dpop_proof(why.to_owned()));
                }
            }
            Err(error) => {
                if failed_at.replace(Instant::now()).is_none() {
                    tracing::warn!(
                        %error,
                        "cannot record DPoP proofs in the fleet's store: until it answers, \
                         each instance refuses only the replays it saw"
                    );
                }
            }
        }
        Ok(())
    }

    /// The request's credentials: `Authorization: Bearer TOKEN`, or `Authorization: DPoP
    /// TOKEN` with exactly one `DPoP` header.
    fn presented<'h>(&self, headers: &'h HeaderMap) -> Result<Presented<'h>, AuthRejection> {
        let Some(token) = headers
            .get(header::AUTHORIZATION)
            .and_then(|value| value.to_str().ok())
            .and_then(|value| value.split_once(' '))
            .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("dpop"))
            .map(|(_, token)| token.trim())
        else {
            return bearer_token(headers)
                .map(Presented::Bearer)
                .map_err(|rejection| self.challenge(rejection, false));
        };
        let mut proofs = headers.get_all("dpop").iter();
        match (proofs.next(), proofs.next()) {
            (Some(proof), None) if !token.is_empty() => match proof.to_str() {
                Ok(proof) => Ok(Presented::Dpop { token, proof }),
                Err(_) => Err(AuthRejection::invalid_dpop_proof(
                    "The DPoP header is not ASCII.",
                )),
            },
            (None, _) => Err(AuthRejection::invalid_dpop_proof(
                "A DPoP token needs a DPoP header with its proof.",
            )),
            _ if token.is_empty() => Err(AuthRejection::invalid_token(
                "The Authorization header is not `DPoP TOKEN`.",
            )),
            _ => Err(AuthRejection::invalid_dpop_proof(
                "A request carries one DPoP proof, not several.",
            )),
        }
        .map_err(|rejection| self.challenge(rejection, true))
    }

    /// The challenge of a refusal: `DPoP` offered beside `Bearer` (or alone when required),
    /// the error in the scheme the request used.
    fn challenge(&self, rejection: AuthRejection, used_dpop: bool) -> AuthRejection {
        rejection.offering_dpop(DpopChallenge {
            algs: self.algs.clone(),
            only: self.required,
            error_here: used_dpop,
        })
    }

    /// Checks that the verified token is used as it is bound: a token bound to a key
    /// (`cnf.jkt`) only with a valid proof of that key (the proof taken); an unbound one
    /// only as a bearer token, and not at all when DPoP is required.
    fn check(
        &self,
        presented: &Presented<'_>,
        claims: &TokenClaims,
        method: &Method,
        uri: &Uri,
    ) -> Result<Option<Taken>, AuthRejection> {
        let bound = claims
            .claims()
            .get("cnf")
            .and_then(|cnf| cnf.get("jkt"))
            .and_then(Value::as_str);
        match (presented, bound) {
            (Presented::Bearer(_), None) if self.required => {
                tracing::info!(
                    "refused a bearer token: this server accepts only DPoP-bound tokens"
                );
                Err(AuthRejection::invalid_token(
                    "This server accepts only DPoP-bound access tokens.",
                ))
            }
            (Presented::Bearer(_), None) => Ok(None),
            (Presented::Bearer(_), Some(_)) => {
                tracing::info!("refused a DPoP-bound token sent as a bearer token");
                Err(AuthRejection::invalid_token(
                    "The access token is DPoP-bound: send it with `Authorization: DPoP` and a proof.",
                ))
            }
            (Presented::Dpop { .. }, None) => {
                tracing::info!("refused a token sent with a DPoP proof: it is not DPoP-bound");
                Err(AuthRejection::invalid_token(
                    "The access token is not DPoP-bound.",
                ))
            }
            (Presented::Dpop { token, proof }, Some(jkt)) => self
                .check_proof(proof, token, jkt, method, uri)
                .map(Some)
                .map_err(|why| {
                    tracing::info!(%why, "refused a DPoP proof");
                    AuthRejection::invalid_dpop_proof(why)
                }),
        }
    }

    /// RFC 9449 §4.3 and §7.1: the proof's reasons to be refused, in words the client
    /// may see (they are about the proof it made, not the token).
    fn check_proof(
        &self,
        proof: &str,
        token: &str,
        jkt: &str,
        method: &Method,
        uri: &Uri,
    ) -> Result<Taken, String> {
        let header = proof_header(proof)?;
        // A media type, so without case, and `application/` may be left out (RFC 7515 §4.1.9).
        let typ = header
            .get("typ")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let typ = typ.to_ascii_lowercase();
        if typ.strip_prefix("application/").unwrap_or(&typ) != "dpop+jwt" {
            return Err("The DPoP proof's `typ` is not `dpop+jwt`.".to_owned());
        }
        let decoded = jsonwebtoken::decode_header(proof)
            .map_err(|_| "The DPoP proof's header cannot be read.".to_owned())?;
        let algorithm = JwtAlgorithm::of(decoded.alg)
            .filter(|algorithm| PROOF_ALGORITHMS.contains(algorithm))
            .ok_or_else(|| format!("The DPoP proof's algorithm is not one of {}.", self.algs))?;
        let jwk = public_jwk(&header)?;
        if thumbprint(&header["jwk"])? != jkt {
            return Err(
                "The DPoP proof is signed by another key than the token is bound to.".to_owned(),
            );
        }
        let key = Key::from_jwk(jwk)
            .map_err(|_| "The DPoP proof's `jwk` is not a usable key.".to_owned())?;
        if !key.fits(algorithm) {
            return Err("The DPoP proof's algorithm does not fit its key.".to_owned());
        }
        let validation = &self.validations[&algorithm];
        let claims = jsonwebtoken::decode::<Map<String, Value>>(proof, &key.decoding, validation)
            .map_err(|_| "The DPoP proof's signature is not valid.".to_owned())?
            .claims;
        let text = |name: &str| claims.get(name).and_then(Value::as_str);
        if text("htm") != Some(method.as_str()) {
            return Err(format!("The DPoP proof's `htm` is not {method}."));
        }
        let htu = text("htu").ok_or("The DPoP proof has no `htu`.")?;
        if !same_url(htu, &self.origin, uri.path()) && !same_url(htu, &self.origin, &self.path) {
            return Err("The DPoP proof's `htu` is not this server's URL.".to_owned());
        }
        let hash = URL_SAFE_NO_PAD.encode(Sha256::digest(token.as_bytes()));
        if text("ath") != Some(hash.as_str()) {
            return Err("The DPoP proof's `ath` is not the hash of the access token.".to_owned());
        }
        let jti = text("jti")
            .filter(|jti| !jti.is_empty())
            .ok_or("The DPoP proof has no `jti`.")?;
        let now = jsonwebtoken::get_current_timestamp();
        let leeway = self.leeway.as_secs();
        let issued = claims
            .get("iat")
            .and_then(Value::as_u64)
            .ok_or("The DPoP proof has no `iat`.")?;
        if issued > now + leeway || issued + PROOF_MAX_AGE.as_secs() + leeway < now {
            return Err("The DPoP proof's `iat` is not within the accepted window.".to_owned());
        }
        self.remember(jkt, jti, issued + PROOF_MAX_AGE.as_secs() + leeway, now)
    }

    /// Remembers the proof until `until`, or refuses it as a replay.
    fn remember(&self, jkt: &str, jti: &str, until: u64, now: u64) -> Result<Taken, String> {
        let mut hasher = Sha256::new();
        hasher.update(jkt.as_bytes());
        hasher.update(b" ");
        hasher.update(jti.as_bytes());
        let id: [u8; 32] = hasher.finalize().into();
        let mut seen = self.seen.lock().expect("not poisoned");
        if seen.get(&id).is_some_and(|until| *until >= now) {
            return Err("The DPoP proof was used before.".to_owned());
        }
        if seen.len() >= MAX_REMEMBERED_PROOFS {
            seen.retain(|_, until| *until >= now);
        }
        if seen.len() >= MAX_REMEMBERED_PROOFS {
            tracing::warn!(
                "refused a DPoP proof: {MAX_REMEMBERED_PROOFS} proofs seen within their lifetime are remembered already"
            );
            return Err("Too many DPoP proofs: try again shortly.".to_owned());
        }
        seen.insert(id, until);
        Ok(Taken {
            id,
            lifetime: Duration::from_secs(until.saturating_sub(now).max(1)),
        })
    }
}

/// The proof's protected header as JSON: jsonwebtoken's `Header` drops the members the
/// checks need (a private key's `d` in `jwk`).
fn proof_header(proof: &str) -> Result<Map<String, Value>, String> {
    let not_read = || "The DPoP proof is not a JWT.".to_owned();
    let encoded = proof.split('.').next().ok_or_else(not_read)?;
    let bytes = URL_SAFE_NO_PAD.decode(encoded).map_err(|_| not_read())?;
    match serde_json::from_slice(&bytes) {
        Ok(Value::Object(header)) => Ok(header),
        _ => Err(not_read()),
    }
}

/// The proof's `jwk`: a public, asymmetric key.
fn public_jwk(header: &Map<String, Value>) -> Result<Jwk, String> {
    let value = header
        .get("jwk")
        .filter(|jwk| jwk.is_object())
        .ok_or("The DPoP proof's header has no `jwk`.")?;
    if ["d", "p", "q", "dp", "dq", "qi", "k"]
        .iter()
        .any(|private| value.get(private).is_some())
    {
        return Err("The DPoP proof's `jwk` holds a private key.".to_owned());
    }
    let jwk: Jwk = serde_json::from_value(value.clone())
        .map_err(|_| "The DPoP proof's `jwk` is not a key this server reads.".to_owned())?;
    if matches!(
        jwk.algorithm,
        AlgorithmParameters::OctetKey(_) | AlgorithmParameters::Other(_)
    ) {
        return Err("The DPoP proof's `jwk` is not an asymmetric key.".to_owned());
    }
    Ok(jwk)
}

/// The JWK SHA-256 thumbprint (RFC 7638): the required members in order, base64url.
fn thumbprint(jwk: &Value) -> Result<String, String> {
    let members: &[&str] = match jwk.get("kty").and_then(Value::as_str) {
        Some("EC") => &["crv", "kty", "x", "y"],
        Some("RSA") => &["e", "kty", "n"],
        Some("OKP") => &["crv", "kty", "x"],
        _ => return Err("The DPoP proof's `jwk` has no known `kty`.".to_owned()),
    };
    let mut canonical = Map::new();
    for member in members {
        let value = jwk
            .get(*member)
            .filter(|value| value.is_string())
            .ok_or_else(|| format!("The DPoP proof's `jwk` has no `{member}`."))?;
        canonical.insert((*member).to_owned(), value.clone());
    }
    // serde_json's map keeps keys sorted (no `preserve_order`), and writes no whitespace.
    let text = serde_json::to_string(&canonical).expect("a map of strings");
    Ok(URL_SAFE_NO_PAD.encode(Sha256::digest(text.as_bytes())))
}

/// Whether `htu` names `origin` + `path`, ignoring its query and fragment, the case of its
/// scheme and host, and a default port (RFC 9449 §4.3, RFC 3986 §6.2.2–6.2.3).
fn same_url(htu: &str, origin: &str, path: &str) -> bool {
    let htu = htu.split(['?', '#']).next().unwrap_or_default();
    let (Ok(sent), Ok(ours)) = (htu.parse::<Uri>(), format!("{origin}{path}").parse::<Uri>())
    else {
        return false;
    };
    let port = |uri: &Uri| {
        uri.port_u16().or(match uri.scheme_str() {
            Some(scheme) if scheme.eq_ignore_ascii_case("https") => Some(443),
            Some(scheme) if scheme.eq_ignore_ascii_case("http") => Some(80),
            _ => None,
        })
    };
    let lower = |text: Option<&str>| text.map(str::to_ascii_lowercase);
    lower(sent.scheme_str()) == lower(ours.scheme_str())
        && lower(sent.host()) == lower(ours.host())
        && port(&sent) == port(&ours)
        && sent.path() == ours.path()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_thumbprint_is_rfc_7638s() {
        // RFC 7638 §3.1's example key and thumbprint.
        let jwk = json!({
            "kty": "RSA",
            "n": "0vx7agoebGcQSuuPiLJXZptN9nndrQmbXEps2aiAFbWhM78LhWx4cbbfAAtVT86zwu1RK7aPFFxuhDR1L6tSoc_BJECPebWKRXjBZCiFV4n3oknjhMstn64tZ_2W-5JsGY4Hc5n9yBXArwl93lqt7_RN5w6Cf0h4QyQ5v-65YGjQR0_FDW2QvzqY368QQMicAtaSqzs8KJZgnYb9c7d0zgdAZHzu6qMQvRL5hajrn1n91CbOpbISD08qNLyrdkt-bFTWhAI4vMQFh6WeZu0fM4lFd2NcRwr3XPksINHaQ-G_xBniIqbw0Ls1jF44-csFCur-kEgU8awapJzKnqDKgw",
            "e": "AQAB",
            "alg": "RS256",
            "kid": "2011-04-29"
        });
        assert_eq!(
            thumbprint(&jwk).unwrap(),
            "NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs"
        );
        assert!(thumbprint(&json!({"kty": "EC", "x": "a"})).is_err());
    }

    #[test]
    fn htu_is_compared_as_rfc_3986_normalises_it() {
        let origin = "https://mcp.example.com";
        assert!(same_url("https://mcp.example.com/mcp", origin, "/mcp"));
        assert!(same_url(
            "HTTPS://MCP.example.com:443/mcp?x=1#y",
            origin,
            "/mcp"
        ));
        assert!(!same_url("https://mcp.example.com/other", origin, "/mcp"));
        assert!(!same_url("https://evil.example.com/mcp", origin, "/mcp"));
        assert!(!same_url("http://mcp.example.com/mcp", origin, "/mcp"));
        assert!(!same_url(
            "https://mcp.example.com:8443/mcp",
            origin,
            "/mcp"
        ));
        assert!(!same_url("not a url", origin, "/mcp"));
    }

    #[test]
    fn a_proof_is_remembered_until_its_time_and_the_memory_is_bounded() {
        let dpop = Dpop::new("https://mcp.example.com/mcp", false, Duration::from_secs(5));
        assert!(dpop.remember("k", "1", 100, 50).is_ok());
        assert!(dpop.remember("k", "1", 100, 60).is_err(), "a replay");
        assert!(
            dpop.remember("other", "1", 100, 60).is_ok(),
            "another key's jti"
        );
        assert!(
            dpop.remember("k", "1", 200, 101).is_ok(),
            "forgotten after its time"
        );
        let mut seen = dpop.seen.lock().unwrap();
        seen.clear();
        for n in 0..MAX_REMEMBERED_PROOFS as u64 {
            seen.insert(Sha256::digest(n.to_le_bytes()).into(), 100 + n % 2);
        }
        drop(seen);
        assert!(
            dpop.remember("k", "2", 300, 101).is_ok(),
            "the expired half made room"
        );
        let full = dpop.seen.lock().unwrap().len();
        assert_eq!(full, MAX_REMEMBERED_PROOFS / 2 + 1);
    }

    #[test]
    fn private_and_symmetric_keys_are_not_proof_keys() {
        let header = |jwk: Value| {
            let Value::Object(map) = json!({ "jwk": jwk }) else {
                unreachable!()
            };
            map
        };
        let ec = json!({"kty": "EC", "crv": "P-256",
            "x": "f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU",
            "y": "x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0"});
        assert!(public_jwk(&header(ec.clone())).is_ok());
        let mut private = ec;
        private["d"] = json!("jpsQnnGQmL-YBIffH1136cspYG6-0iY7X1fCE9-E9LI");
        assert!(public_jwk(&header(private)).is_err());
        assert!(public_jwk(&header(json!({"kty": "oct", "k": "c2VjcmV0"}))).is_err());
        assert!(public_jwk(&Map::new()).is_err());
    }
}
