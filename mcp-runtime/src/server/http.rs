//! [`HttpServer`]: a [`Server`] configured for Streamable HTTP (feature `http`); the
//! endpoint itself is `transport::http`.

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use tokio::net::{TcpListener, ToSocketAddrs};

/// The request headers an [`Authenticate`](crate::Authenticate) hook reads (from the `http`
/// crate, as axum uses it).
pub use axum::http::HeaderMap;

#[cfg(feature = "redis")]
use super::fleet::DEFAULT_REDIS_KEY_PREFIX;
use super::fleet::FleetConfig;
use crate::error::Error;
use crate::fleet::FleetStore;
use crate::server::Server;
use crate::transport::http::{
    Authenticate, Endpoint, EndpointService, Guard, Limits, ProtectedResource, StreamSettings,
    erase, router as endpoint_router, serve_connections,
};
pub use crate::transport::http::{
    DEFAULT_BODY_TIMEOUT, DEFAULT_HEADER_TIMEOUT, DEFAULT_MAX_CALLS_PER_SESSION,
    DEFAULT_MAX_CONNECTIONS, DEFAULT_MAX_READING_BYTES, DEFAULT_MAX_SESSIONS,
    DEFAULT_MAX_SESSIONS_PER_PRINCIPAL,
};

/// The default path of the MCP endpoint.
pub const DEFAULT_ENDPOINT: &str = "/mcp";
/// Default time an HTTP session may stay unused before it expires (then its id answers 404).
pub const DEFAULT_SESSION_IDLE_TIMEOUT: Duration = Duration::from_secs(30 * 60);
/// Default `retry:` of the priming events of 2025-11-25 streams: how long a client that
/// lost a stream waits before it reconnects with `Last-Event-ID`.
pub const DEFAULT_SSE_RETRY: Duration = Duration::from_secs(1);

/// A [`Server`] configured for Streamable HTTP: made by [`Server::http`].
///
/// ```no_run
/// # async fn run() -> Result<(), mcp_runtime::Error> {
/// mcp_runtime::Server::new("calculator", "1.0.0")
///     .http()
///     .allow_host("mcp.example.com")
///     .serve("127.0.0.1:8080")
///     .await
/// # }
/// ```
#[must_use = "an HTTP server does nothing until you call `serve(addr).await` or `router()`"]
pub struct HttpServer {
    pub(super) server: Server,
    endpoint: String,
    pub(super) guard: Guard,
    limits: Limits,
    session_idle_timeout: Duration,
    streams: StreamSettings,
    shutdown: Option<std::pin::Pin<Box<dyn Future<Output = ()> + Send>>>,
    /// The store shared with the other instances of a fleet, if any.
    pub(super) fleet: Option<FleetConfig>,
    /// The path of the Prometheus endpoint, if any.
    #[cfg(feature = "otel")]
    pub(super) prometheus: Option<String>,
    /// Why the token verifier cannot be used, reported when the server starts.
    #[cfg(feature = "jwt")]
    pub(super) verifier_problem: Option<Error>,
}

impl Server {
    /// Configures this server for Streamable HTTP (feature `http`); see [`HttpServer`].
    pub fn http(self) -> HttpServer {
        HttpServer {
            server: self,
            endpoint: DEFAULT_ENDPOINT.to_owned(),
            guard: Guard::default(),
            limits: Limits::default(),
            session_idle_timeout: DEFAULT_SESSION_IDLE_TIMEOUT,
            streams: StreamSettings {
                retry: DEFAULT_SSE_RETRY,
                polling: None,
            },
            shutdown: None,
            fleet: None,
            #[cfg(feature = "otel")]
            prometheus: None,
            #[cfg(feature = "jwt")]
            verifier_problem: None,
        }
    }

    /// Serves Streamable HTTP on `addr` (e.g. `"127.0.0.1:8080"`) with the default
    /// settings, until SIGINT or SIGTERM: `self.http().serve(addr)`.
    pub async fn serve_http(self, addr: impl ToSocketAddrs) -> Result<(), Error> {
        self.http().serve(addr).await
    }
}

impl HttpServer {
    /// The path of the MCP endpoint (default [`DEFAULT_ENDPOINT`]).
    pub fn endpoint(mut self, path: impl Into<String>) -> Self {
        self.endpoint = path.into();
        self
    }

    /// Accepts requests whose `Host` header names `host` (a name or address, without port).
    /// By default only `localhost`, `127.0.0.1` and `[::1]` are accepted, which protects a
    /// local server from DNS rebinding; a server reached under another name must list it.
    pub fn allow_host(mut self, host: impl Into<String>) -> Self {
        self.guard.allow_host(host.into());
        self
    }

    /// Accepts any `Host` header (e.g. behind a proxy that checks it). `Origin` is still
    /// checked.
    pub fn allow_any_host(mut self) -> Self {
        self.guard.allow_any_host();
        self
    }

    /// Accepts requests from browser pages of this origin (e.g. `https://app.example.com`),
    /// and lets their scripts call the endpoint (CORS): a preflight `OPTIONS` is answered
    /// with the methods and the headers asked for, and every answer, refusals included,
    /// carries `Access-Control-Allow-Origin` and exposes `Mcp-Session-Id`,
    /// `Mcp-Protocol-Version`, `WWW-Authenticate` and `Retry-After`. No credentials mode:
    /// MCP sends tokens in `Authorization`, not cookies.
    ///
    /// Requests without an `Origin` header (non-browser clients) and from local origins
    /// (`http://localhost:*` and the like) are always accepted, without CORS (name a local
    /// origin to open it to its pages' scripts); any other origin is refused with `403`.
    pub fn allow_origin(mut self, origin: impl Into<String>) -> Self {
        self.guard.allow_origin(origin.into());
        self
    }

    /// Checks every request with `authenticate` (after `Host`/`Origin`): a rejection is
    /// answered `401` with a `WWW-Authenticate: Bearer` challenge (or `403` for
    /// [`AuthRejection::insufficient_scope`](crate::AuthRejection::insufficient_scope)), and the principal it returns reaches tools
    /// through the [`Principal`](crate::Principal) extractor.
    pub fn authenticate(mut self, authenticate: impl Authenticate) -> Self {
        self.guard.authenticate(erase(authenticate));
        self
    }

    /// OAuth 2.1 resource-server mode: serves `metadata` at
    /// `/.well-known/oauth-protected-resource` (and under the resource's path, as RFC 9728
    /// places it), and points every `401` challenge there with
    /// `WWW-Authenticate: Bearer resource_metadata="…"`. Pair it with
    /// [`authenticate`](HttpServer::authenticate), which verifies the tokens.
    pub fn protected_resource(mut self, metadata: ProtectedResource) -> Self {
        self.guard.protected_resource(metadata);
        self
    }

    /// How long a handshake-era session may stay unused before it expires (default
    /// [`DEFAULT_SESSION_IDLE_TIMEOUT`]).
    pub fn session_idle_timeout(mut self, idle: Duration) -> Self {
        self.session_idle_timeout = idle;
        self
    }

    /// How long a client has to send a request's headers, and how long a keep-alive
    /// connection may stay idle between two requests (default [`DEFAULT_HEADER_TIMEOUT`]):
    /// past it, the connection is closed. Applies to [`serve`](HttpServer::serve) and
    /// [`serve_on`](HttpServer::serve_on); see [`router`](HttpServer::router) for an
    /// application's own server.
    pub fn header_timeout(mut self, timeout: Duration) -> Self {
        self.limits.header_timeout = timeout;
        self
    }

    /// How long a client has to send a request's body once its headers arrived (default
    /// [`DEFAULT_BODY_TIMEOUT`]): past it, the request is answered `408` and the connection
    /// closed, so a client that stops sending halfway holds neither memory nor a task.
    pub fn body_timeout(mut self, timeout: Duration) -> Self {
        self.limits.body_timeout = timeout;
        self
    }

    /// How many bytes the request bodies being received may hold together (default
    /// [`DEFAULT_MAX_READING_BYTES`]): a body that would take more is answered `503` with
    /// `Retry-After`, so that clients sending slowly cannot together hold the server's
    /// memory (each body is also bounded by [`Server::max_message_size`] and the
    /// [body timeout](HttpServer::body_timeout)).
    pub fn max_reading_bytes(mut self, bytes: usize) -> Self {
        self.limits.max_reading_bytes = bytes;
        self
    }

    /// How many connections [`serve`](HttpServer::serve) and
    /// [`serve_on`](HttpServer::serve_on) serve at once (default
    /// [`DEFAULT_MAX_CONNECTIONS`]): one more is answered `503` with `Retry-After` and
    /// closed. Keep it below the process's open-file limit (`ulimit -n`).
    pub fn max_connections(mut self, connections: usize) -> Self {
        self.limits.max_connections = connections.max(1);
        self
    }

    /// How many handshake-era sessions may be live at once (default
    /// [`DEFAULT_MAX_SESSIONS`]): one more `initialize` is answered `503` with
    /// `Retry-After`. Idle sessions expire after the
    /// [idle timeout](HttpServer::session_idle_timeout).
    pub fn max_sessions(mut self, sessions: usize) -> Self {
        self.limits.max_sessions = sessions.max(1);
        self
    }

    /// How many live sessions one principal may hold (default
    /// [`DEFAULT_MAX_SESSIONS_PER_PRINCIPAL`]), where principals have an identity
    /// ([`Server::task_owner`]): one more `initialize` from it is answered `503` with
    /// `Retry-After`.
    pub fn max_sessions_per_principal(mut self, sessions: usize) -> Self {
        self.limits.max_sessions_per_principal = sessions.max(1);
        self
    }

    /// How many calls one handshake-era session may have running at once (default
    /// [`DEFAULT_MAX_CALLS_PER_SESSION`]): one more is answered with a JSON-RPC error
    /// (-32603, "Server busy"), so that no client holds every one of the server's
    /// [call slots](Server::max_in_flight). (A 2026-07-28 request is one call on its
    /// connection, bounded by [`max_connections`](HttpServer::max_connections).)
    pub fn max_calls_per_session(mut self, calls: usize) -> Self {
        self.limits.max_calls_per_session = calls.max(1);
        self
    }

    /// The `retry:` field of the priming event that opens every stream of a 2025-11-25
    /// session (default [`DEFAULT_SSE_RETRY`]): how long a client that lost the stream waits
    /// before it reconnects with `GET` + `Last-Event-ID`.
    pub fn sse_retry(mut self, retry: Duration) -> Self {
        self.streams.retry = retry;
        self
    }

    /// SSE polling (2025-11-25 sessions; off by default): a call's response stream that
    /// has been open for `interval` is closed after its latest event, so no connection
    /// stays open for a long call. The client reconnects after the `retry:` interval with
    /// `GET` + `Last-Event-ID` and gets what the call sent meanwhile, then its response.
    /// Clients of older revisions keep their streams open.
    pub fn sse_polling(mut self, interval: Duration) -> Self {
        self.streams.polling = Some(interval);
        self
    }

    /// Starts a graceful shutdown when `signal` resolves: long-lived streams (listen
    /// streams, session streams) end, and calls in flight get the server's
    /// [shutdown grace](Server::shutdown_grace) to finish. [`serve`](HttpServer::serve)
    /// uses SIGINT/SIGTERM unless this is set; an embedding application passes the signal
    /// it also gives `axum::serve(..).with_graceful_shutdown`.
    pub fn shutdown_on(mut self, signal: impl Future<Output = ()> + Send + 'static) -> Self {
        self.shutdown = Some(Box::pin(signal));
        self
    }

    /// The MCP endpoint as an [`axum::Router`], to merge into an application (it answers
    /// on [`endpoint`](HttpServer::endpoint) and, in resource-server mode, on the
    /// protected-resource metadata path).
    ///
    /// Serve it on sockets with `TCP_NODELAY` set, as [`serve`](HttpServer::serve) does:
    /// without it, every call answered over SSE waits for the client's delayed ACK
    /// (40 ms on Linux) between the response's headers and its first event. With axum:
    ///
    /// ```no_run
    /// # async fn run() -> Result<(), Box<dyn std::error::Error>> {
    /// use axum::serve::ListenerExt;
    ///
    /// let router = mcp_runtime::Server::new("calculator", "1.0.0").http().router()?;
    /// let listener = tokio::net::TcpListener::bind("127.0.0.1:8080")
    ///     .await?
    ///     .tap_io(|socket| {
    ///         let _ = socket.set_nodelay(true);
    ///     });
    /// axum::serve(listener, router).await?;
    /// # Ok(())
    /// # }
    /// ```
    ///
    /// [`serve`](HttpServer::serve) hands a POST to the endpoint straight to its handler,
    /// without the router's path and method dispatch; served from this router, each call
    /// also pays for that dispatch and is otherwise answered the same.
    ///
    /// Nothing is printed here (your application says where it listens), but a server with
    /// no tools at all warns, through `tracing` if a subscriber is installed, else on
    /// stderr (see [`Server::allow_no_tools`]).
    pub fn router(self) -> Result<axum::Router, Error> {
        let (router, endpoint, _) = self.build()?;
        // No check here (this is not async): a fleet's store that cannot be reached makes
        // the requests that need it fail until it can.
        endpoint.start_fleet();
        Ok(router)
    }

    /// Binds `addr` and serves until the shutdown signal (SIGINT/SIGTERM by default): then
    /// the listener stops accepting, calls in flight finish (or are answered with an error
    /// after the grace period), and this returns. Once ready, it prints where it listens on
    /// stderr (`MCP server listening on http://127.0.0.1:8080/mcp`); like `serve_stdio`, it
    /// installs a `tracing` subscriber on stderr if there is none.
    pub async fn serve(self, addr: impl ToSocketAddrs) -> Result<(), Error> {
        super::install_stderr_logging(&self.server);
        let listener = TcpListener::bind(addr).await?;
        self.serve_on(listener).await
    }

    /// Like [`serve`](HttpServer::serve), on a listener already bound (e.g. to port 0).
    /// Once ready, it prints where it listens on stderr, e.g.
    /// `MCP server listening on http://127.0.0.1:8080/mcp`.
    ///
    /// Every accepted socket gets `TCP_NODELAY`: an SSE response goes out as several small
    /// writes (headers, then each event), and with Nagle's algorithm on, each would wait for
    /// the client's delayed ACK of the one before.
    pub async fn serve_on(mut self, listener: TcpListener) -> Result<(), Error> {
        if self.shutdown.is_none() {
            self.shutdown = Some(Box::pin(super::termination_signal()));
        }
        let path = self.endpoint.clone();
        let (router, endpoint, body_limit) = self.build()?;
        // The store's own words: `cannot reach Redis at redis://…: Connection refused`.
        endpoint
            .join_fleet()
            .await
            .map_err(|error| Error::StoreUnavailable(error.to_string()))?;
        // Printed, not logged: whoever started the server wants the address to connect to,
        // whatever `RUST_LOG` says.
        if let Ok(address) = listener.local_addr() {
            eprintln!("{}", super::notices::listening(address, &path));
        }
        // Every POST to the endpoint skips the router's dispatch (`EndpointService`).
        let service = EndpointService::new(router, Arc::clone(&endpoint), &path, body_limit);
        let limits = endpoint.limits;
        serve_connections(listener, service, endpoint.stopping.clone(), limits).await;
        // Streams were ended and calls answered before the connections could close.
        endpoint.stopped.cancelled().await;
        Ok(())
    }

    /// The router, its endpoint, and the body limit it applies.
    fn build(self) -> Result<(axum::Router, Arc<Endpoint>, usize), Error> {
        let HttpServer {
            server,
            endpoint: path,
            guard,
            limits,
            session_idle_timeout,
            streams,
            shutdown,
            fleet,
            #[cfg(feature = "otel")]
            prometheus,
            #[cfg(feature = "jwt")]
            verifier_problem,
        } = self;
        #[cfg(feature = "jwt")]
        if let Some(problem) = verifier_problem {
            return Err(problem);
        }
        let mut server = server;
        // Its reader first: the server's metrics go where it reads.
        #[cfg(feature = "otel")]
        let prometheus = prometheus.map(|path| (path, server.telemetry.prometheus_reader()));
        let instance: Arc<str> = Arc::from(crate::protocol::random_id::random_id());
        let fleet_store = fleet
            .map(|config| config.open(&mut server, &instance))
            .transpose()?
            .map(|store| (store, instance));
        if let Some((store, _)) = &fleet_store {
            guard.share_proofs(store);
        }
        let limit = server.max_message_size_limit();
        let grace = server.shutdown_grace_period();
        let core = server.into_core()?;
        if guard.authenticates() && core.task_owner.is_none() {
            // Without an identity a session cannot be bound to the principal that opened it,
            // and a 2026-07-28 request's tasks (it has no session) would be shared by every
            // authenticated client that learns their ids.
            tracing::warn!(
                "this server authenticates requests but has no `Server::task_owner`: \
                 sessions and 2026-07-28 tasks are not tied to their principal"
            );
        }
        #[cfg(feature = "otel")]
        let metrics_guard = guard.clone();
        let endpoint = Arc::new(Endpoint::new(
            core,
            guard,
            limits,
            session_idle_timeout,
            streams,
            fleet_store,
        ));
        if let Some(signal) = shutdown {
            let endpoint = Arc::clone(&endpoint);
            tokio::spawn(async move {
                signal.await;
                endpoint.shut_down(grace).await;
            });
        }
        let router = endpoint_router(&path, Arc::clone(&endpoint), limit);
        #[cfg(feature = "otel")]
        let router = super::telemetry::prometheus_route(router, prometheus, metrics_guard);
        Ok((router, endpoint, limit))
    }
}

/// A fleet: several instances of one server behind a load balancer (see the
/// [HTTP chapter](crate::manual::http) and [`fleet`](crate::fleet)).
impl HttpServer {
    /// Shares this server's handshake-era sessions, resumable streams and tasks with every
    /// other instance that names the same Redis (`redis://host:port/db`) and key prefix
    /// (default [`DEFAULT_REDIS_KEY_PREFIX`], see [`redis_key_prefix`](HttpServer::redis_key_prefix)),
    /// and exchanges messages with them, so a load balancer may send any request to any
    /// instance (feature `redis`).
    ///
    /// [`serve`](HttpServer::serve) refuses to start when Redis cannot be reached. Once
    /// serving, a request that needs Redis while it is down is answered with an error
    /// saying so (HTTP 503), other requests are served as usual, and the server recovers
    /// by itself when Redis is back.
    #[cfg(feature = "redis")]
    pub fn redis(mut self, url: impl Into<String>) -> Self {
        let prefix = match self.fleet.take() {
            Some(FleetConfig::Redis { prefix, .. }) => prefix,
            _ => DEFAULT_REDIS_KEY_PREFIX.to_owned(),
        };
        self.fleet = Some(FleetConfig::Redis {
            url: url.into(),
            prefix,
        });
        self
    }

    /// The prefix of every key this server keeps in Redis (default
    /// [`DEFAULT_REDIS_KEY_PREFIX`]): servers that share one Redis each need their own.
    /// Only meaningful with [`redis`](HttpServer::redis), before or after it.
    #[cfg(feature = "redis")]
    pub fn redis_key_prefix(mut self, prefix: impl Into<String>) -> Self {
        let url = match self.fleet.take() {
            Some(FleetConfig::Redis { url, .. }) => url,
            _ => String::new(),
        };
        self.fleet = Some(FleetConfig::Redis {
            url,
            prefix: prefix.into(),
        });
        self
    }

    /// Shares sessions and resumable streams through a store of your own (another
    /// database); pair it with [`Server::task_store`](crate::Server::task_store) for tasks.
    /// [`redis`](HttpServer::redis) does both with Redis.
    pub fn fleet_store(mut self, store: impl FleetStore) -> Self {
        self.fleet = Some(FleetConfig::Store(Arc::new(store)));
        self
    }
}

/// Metrics for Prometheus (feature `otel`).
impl HttpServer {
    /// Serves the server's metrics at `path` (e.g. `"/metrics"`) in the Prometheus text
    /// format (feature `otel`), for a Prometheus server to scrape: the runtime's
    /// request and session durations, requests in flight and rate-limit refusals (the
    /// manual's [telemetry chapter](crate::manual::telemetry) lists them).
    ///
    /// No collector and no meter provider are needed: without a
    /// [`Telemetry`](crate::telemetry::Telemetry) built with
    /// [`prometheus()`](crate::telemetry::TelemetryBuilder::prometheus), the server
    /// records into a meter provider of its own that this endpoint reads (and into the
    /// global one too). The endpoint is behind the MCP endpoint's `Host`/`Origin`
    /// guard and its [authentication](HttpServer::authenticate), if any: a scraper
    /// reaches it by a local address or an [allowed host](HttpServer::allow_host),
    /// with credentials where requests need them. To scrape it otherwise, serve
    /// [`Telemetry::prometheus_text`](crate::telemetry::Telemetry::prometheus_text)
    /// from a route of your own.
    ///
    /// ```no_run
    /// # async fn run() -> Result<(), mcp_runtime::Error> {
    /// mcp_runtime::Server::new("weather", "1.0.0")
    ///     .http()
    ///     .prometheus_metrics("/metrics")
    ///     .serve("127.0.0.1:8080")
    ///     .await
    /// # }
    /// ```
    #[cfg(feature = "otel")]
    pub fn prometheus_metrics(mut self, path: impl Into<String>) -> Self {
        self.prometheus = Some(path.into());
        self
    }
}
