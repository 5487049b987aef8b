//! [`Authenticator`]: how the guard learns who sent a request — a user's [`Authenticate`]
//! hook, or the built-in JWT verifier.

use std::sync::Arc;

use axum::http::{HeaderMap, Method, Uri};

use crate::access::AnyPrincipal;

use super::auth::{AuthRejection, Authenticate};

/// What authentication reads of a request: its headers, and for DPoP proofs (which name
/// the method and URL they were made for) its method and URI.
#[derive(Clone, Copy)]
#[cfg_attr(not(feature = "jwt"), allow(dead_code))]
pub(crate) struct RequestHead<'a> {
    pub method: &'a Method,
    pub uri: &'a Uri,
    pub headers: &'a HeaderMap,
}

impl<'a> RequestHead<'a> {
    pub fn new(method: &'a Method, uri: &'a Uri, headers: &'a HeaderMap) -> Self {
        RequestHead {
            method,
            uri,
            headers,
        }
    }
}

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
