//! What both verifiers hold a token to: the clock skew allowed, and the texts a client
//! whose token is refused reads (the operator's log says exactly why).

use std::time::Duration;

/// Default clock skew allowed when checking `exp`, `nbf` and `iat`.
pub const DEFAULT_JWT_LEEWAY: Duration = Duration::from_secs(60);

pub(super) const NOT_VERIFIED: &str = "The access token could not be verified.";
pub(super) const EXPIRED: &str = "The access token is expired.";
pub(super) const OTHER_RESOURCE: &str = "The access token is not valid for this resource.";
