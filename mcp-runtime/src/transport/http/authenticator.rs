//! [`Authenticator`]: how the guard learns who sent a request — a user's [`Authenticate`]
//! hook, or the built-in JWT verifier.

use std::sync::Arc;

use axum::http::HeaderMap;

use crate::access::AnyPrincipal;
use crate::fleet::FleetStore;

use super::auth::{AuthRejection, Authenticate, RequestHead};

type Hook = Arc<dyn Fn(&HeaderMap) -> Result<AnyPrincipal, AuthRejection> + Send + Sync>;

/// How requests are authenticated: an [`Authenticate`] hook with its principal type
/// erased, or the built-in JWT verifier, which may wait for the issuer's keys.
#[derive(Clone)]
pub(crate) enum Authenticator {
    Hook(Hook),
    #[cfg(feature = "jwt")]
    Jwt(Arc<super::jwt::Verifier>),
    #[cfg(feature = "jwt")]
    Introspection(Arc<super::jwt::Introspector>),
}

impl Authenticator {
    /// In a fleet: the built-in verifiers record the DPoP proofs they take in its `store`,
    /// so that a proof replayed to another instance is refused there.
    #[cfg_attr(not(feature = "jwt"), allow(unused_variables))]
    pub fn share_proofs(&self, store: &Arc<dyn FleetStore>) {
        match self {
            Authenticator::Hook(_) => {}
            #[cfg(feature = "jwt")]
            Authenticator::Jwt(verifier) => verifier.share_proofs(store),
            #[cfg(feature = "jwt")]
            Authenticator::Introspection(introspector) => introspector.share_proofs(store),
        }
    }

    pub async fn principal(&self, head: RequestHead<'_>) -> Result<AnyPrincipal, AuthRejection> {
        match self {
            Authenticator::Hook(hook) => hook(head.headers),
            #[cfg(feature = "jwt")]
            Authenticator::Jwt(verifier) => verifier
                .verify(head)
                .await
                .map(|claims| Arc::new(claims) as AnyPrincipal),
            #[cfg(feature = "jwt")]
            Authenticator::Introspection(introspector) => introspector
                .verify(head)
                .await
                .map(|claims| Arc::new(claims) as AnyPrincipal),
        }
    }
}

pub(crate) fn erase<A: Authenticate>(authenticate: A) -> Authenticator {
    Authenticator::Hook(Arc::new(move |headers: &HeaderMap| {
        authenticate
            .authenticate(headers)
            .map(|principal| Arc::new(principal) as AnyPrincipal)
    }))
}
