//! The bounds on what an HTTP client can make the server hold: connections, the time it
//! may take to send a request, sessions. Set on [`HttpServer`](crate::HttpServer); the
//! defaults are the `DEFAULT_*` constants of the crate root.

use std::time::Duration;

/// Default time a client has to send a request's headers, and how long an idle keep-alive
/// connection stays open waiting for the next request.
pub const DEFAULT_HEADER_TIMEOUT: Duration = Duration::from_secs(30);
/// Default time a client has to send a request's body, once its headers arrived.
pub const DEFAULT_BODY_TIMEOUT: Duration = Duration::from_secs(30);
/// Default number of connections served at once.
pub const DEFAULT_MAX_CONNECTIONS: usize = 512;
/// Default number of live handshake-era sessions.
pub const DEFAULT_MAX_SESSIONS: usize = 10_000;
/// Default number of live sessions one principal may hold (see
/// [`Server::task_owner`](crate::Server::task_owner)).
pub const DEFAULT_MAX_SESSIONS_PER_PRINCIPAL: usize = 100;

/// Default number of bytes the request bodies being read may hold together.
pub const DEFAULT_MAX_READING_BYTES: usize = 64 * 1024 * 1024;
/// Default number of calls one session may have running at once.
pub const DEFAULT_MAX_CALLS_PER_SESSION: usize = 64;

/// How long a client told "try again later" (`503`) is asked to wait.
pub(crate) const RETRY_AFTER_SECONDS: u64 = 5;

#[derive(Clone, Copy, Debug)]
pub(crate) struct Limits {
    pub header_timeout: Duration,
    pub body_timeout: Duration,
    pub max_connections: usize,
    pub max_sessions: usize,
    pub max_sessions_per_principal: usize,
    pub max_calls_per_session: usize,
    pub max_reading_bytes: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            header_timeout: DEFAULT_HEADER_TIMEOUT,
            body_timeout: DEFAULT_BODY_TIMEOUT,
            max_connections: DEFAULT_MAX_CONNECTIONS,
            max_sessions: DEFAULT_MAX_SESSIONS,
            max_sessions_per_principal: DEFAULT_MAX_SESSIONS_PER_PRINCIPAL,
            max_calls_per_session: DEFAULT_MAX_CALLS_PER_SESSION,
            max_reading_bytes: DEFAULT_MAX_READING_BYTES,
        }
    }
}
