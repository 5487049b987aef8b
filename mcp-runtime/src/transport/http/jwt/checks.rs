//! What both verifiers hold a token to: the clock skew allowed, and the texts a client
//! whose token is refused reads (the operator's log says exactly why).

use std::time::Duration;

use super::dpop::PROOF_ALGORITHM_NAMES;
use super::fetch::fetchable;
use crate::transport::http::auth::VerifierListing;

/// Default clock skew allowed when checking `exp`, `nbf` and `iat`.
pub const DEFAULT_JWT_LEEWAY: Duration = Duration::from_secs(60);

pub(super) const NOT_VERIFIED: &str = "The access token could not be verified.";
pub(super) const EXPIRED: &str = "The access token is expired.";
pub(super) const OTHER_RESOURCE: &str = "The access token is not valid for this resource.";

/// Why a verifier built by `builder` cannot fetch from `issuer`, if it cannot: checked when
/// the server starts.
pub(super) fn issuer_problem(issuer: &str, allow_http: bool, builder: &str) -> Option<String> {
    (!fetchable(issuer, allow_http)).then(|| {
        format!(
            "the issuer `{issuer}` is not an https URL (`{builder}::allow_http` accepts http, for tests)"
        )
    })
}

/// What a verifier of `issuer`'s tokens lists in the protected-resource metadata.
pub(super) fn listing(issuer: &str, dpop_required: bool) -> VerifierListing {
    VerifierListing {
        issuer: issuer.to_owned(),
        dpop_algorithms: &PROOF_ALGORITHM_NAMES,
        dpop_required,
    }
}
