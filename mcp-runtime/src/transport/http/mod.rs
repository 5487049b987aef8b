//! The Streamable HTTP transport (feature `http`): the same tools, served to remote clients.
//!
//! One endpoint (`/mcp` by default) speaks both protocol eras:
//!
//! - **2025-03-26 … 2025-11-25** (handshake): `initialize` mints an `Mcp-Session-Id`; later
//!   POSTs carry it. A POST holding only notifications or responses is answered `202`; a
//!   request is answered with JSON when its answer is ready at once, and with an SSE stream
//!   otherwise (every `tools/call` that runs a tool): the call's progress, log messages and
//!   requests to the client travel on that stream, and its response ends it. GET opens the
//!   session's own stream (tool list changes); DELETE ends the session. Every event of
//!   these streams has an id, and a client that lost a stream resumes it with `GET` +
//!   `Last-Event-ID` (a bounded replay buffer per stream; see the manual's HTTP chapter); from 2025-11-25
//!   streams open with a priming event and may be closed mid-call (SSE polling).
//! - **2026-07-28** (stateless): no session; every POST stands alone, so any instance
//!   behind a load balancer can serve it. The `MCP-Protocol-Version`, `Mcp-Method` and
//!   `Mcp-Name` headers must agree with the body. Closing a response stream cancels its
//!   request; `subscriptions/listen` is a long-lived stream. GET and DELETE are `405`.
//!
//! Every request first passes the guard: `Host` and `Origin` allow-lists (DNS-rebinding
//! protection), then the optional authentication hook.

mod auth;
mod authenticator;
mod body;
mod checks;
mod coarse_timer;
mod connections;
mod cors;
mod endpoint;
mod fleet;
mod guard;
#[cfg(feature = "jwt")]
mod jwt;
mod limits;
mod response;
mod routes;
mod scopes;
mod service;
mod sessions;
mod sse;

#[cfg(feature = "otel")]
pub(crate) use auth::RequestHead;
#[cfg(feature = "jwt")]
pub(crate) use auth::VerifierListing;
pub use auth::{AuthRejection, Authenticate, ProtectedResource, bearer_token};
#[cfg(feature = "jwt")]
pub(crate) use authenticator::Authenticator;
pub(crate) use authenticator::erase;
pub(crate) use connections::serve_connections;
pub(crate) use endpoint::Endpoint;
pub(crate) use guard::Guard;
#[cfg(feature = "jwt")]
pub use jwt::{
    DEFAULT_INTROSPECTION_CACHE_TTL, DEFAULT_JWKS_MAX_AGE, DEFAULT_JWKS_REFETCH_INTERVAL,
    DEFAULT_JWT_LEEWAY, DEFAULT_MAX_CACHED_TOKENS, JwtAlgorithm, JwtVerifier, TokenClaims,
    TokenIntrospector,
};
pub(crate) use limits::Limits;
pub use limits::{
    DEFAULT_BODY_TIMEOUT, DEFAULT_HEADER_TIMEOUT, DEFAULT_MAX_CALLS_PER_SESSION,
    DEFAULT_MAX_CONNECTIONS, DEFAULT_MAX_READING_BYTES, DEFAULT_MAX_SESSIONS,
    DEFAULT_MAX_SESSIONS_PER_PRINCIPAL,
};
pub(crate) use routes::router;
pub(crate) use service::EndpointService;
pub(crate) use sse::StreamSettings;
