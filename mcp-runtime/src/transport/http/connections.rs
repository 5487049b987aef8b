//! The accept loop of [`serve_on`](crate::HttpServer::serve_on): each connection served by
//! hyper's HTTP/1 server, on its own task, until shutdown.
//!
//! Written here rather than taken from `axum::serve`, which wraps every request's body in a
//! box and reaches the service through two adapters; the steps are the same: `TCP_NODELAY`
//! on every socket, an accept error that concerns one connection skipped and any other
//! waited out, and at shutdown no new connection, each open one closed once its request in
//! flight is answered, and this returning when all are.
//!
//! Past the cap on open connections, the connection idle the longest (no request in
//! progress, for at least [`MIN_IDLE`]) is closed to make room, as nginx reuses
//! keep-alive connections when it runs short; only when every connection is busy is the
//! new one refused. Otherwise a client holding the cap's worth of silent connections would
//! lock everyone out until the header timeout.

use std::collections::HashMap;
use std::convert::Infallible;
use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll};
use std::time::Duration;

use axum::body::Body;
use axum::http::{Request, Response};
use hyper::body::{Frame, Incoming, SizeHint};
use hyper_util::rt::TokioIo;
use tokio::io::AsyncWriteExt;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

use super::coarse_timer::{CoarseTimer, TICK};
use super::limits::{Limits, RETRY_AFTER_SECONDS};
use super::service::EndpointService;

/// How long a connection must have been idle to be closed for a new one: long enough that
/// a response just finished has left the server before its connection goes.
const MIN_IDLE: Duration = Duration::from_secs(1);

/// [`MIN_IDLE`] on the coarse timer's clock.
const MIN_IDLE_TICKS: u64 = (MIN_IDLE.as_millis() / TICK.as_millis()) as u64;

/// How long a connection that made room for itself waits for the room to be freed.
const ROOM_WAIT: Duration = Duration::from_secs(1);

/// Serves `listener`'s connections with `service` until `stop_accepting` fires, then waits
/// for the open connections to end. At most `limits.max_connections` are served at once;
/// past that the longest idle one is closed for the new one, or when all are busy the new
/// one is answered `503` and closed. A connection that takes longer than
/// `limits.header_timeout` to send a request's headers, or stays idle that long between two
/// requests, is closed.
pub(crate) async fn serve_connections(
    listener: TcpListener,
    service: EndpointService,
    stop_accepting: CancellationToken,
    limits: Limits,
) {
    let connections = TaskTracker::new();
    let slots = Arc::new(Semaphore::new(limits.max_connections));
    let timer = CoarseTimer::start();
    let open = Arc::new(OpenConnections::new(timer.clone()));
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(timer).header_read_timeout(limits.header_timeout);
    loop {
        let accepted = tokio::select! {
            biased;
            () = stop_accepting.cancelled() => break,
            accepted = listener.accept() => accepted,
        };
        let socket = match accepted {
            Ok((socket, _)) => socket,
            Err(error) => {
                wait_out(error).await;
                continue;
            }
        };
        // An SSE response goes out as several small writes (headers, then each event); with
        // Nagle's algorithm on, each would wait for the client's delayed ACK of the one before.
        if let Err(error) = socket.set_nodelay(true) {
            tracing::debug!(%error, "could not set TCP_NODELAY on an accepted socket");
        }
        let slot = match Arc::clone(&slots).try_acquire_owned() {
            Ok(slot) => Room::Free(slot),
            Err(_) if open.close_longest_idle() => Room::Freeing(Arc::clone(&slots)),
            Err(_) => {
                connections.spawn(refuse(socket));
                continue;
            }
        };
        let (service, stop, http) = (service.clone(), stop_accepting.clone(), http.clone());
        let open = Arc::clone(&open);
        connections.spawn(async move {
            let Some(_slot) = slot.taken().await else {
                return refuse(socket).await;
            };
            let (this, close) = open.register();
            let service = Tracked {
                inner: service,
                this: Arc::clone(&this),
            };
            let connection = http.serve_connection(TokioIo::new(socket), service);
            let mut connection = std::pin::pin!(connection);
            tokio::select! {
                biased;
                // A connection's error (the client went away mid-request, a malformed
                // request hyper already answered) concerns that connection only.
                _ = connection.as_mut() => {}
                // Closed for a new connection. No request starts while the connection is
                // not polled, so one that started since it was found idle is seen here:
                // that one is answered first.
                () = close.cancelled() => {
                    if this.in_progress.load(Ordering::Acquire) > 0 {
                        connection.as_mut().graceful_shutdown();
                        let _ = connection.await;
                    }
                }
                () = stop.cancelled() => {
                    connection.as_mut().graceful_shutdown();
                    let _ = connection.await;
                }
            }
            open.forget(&this);
        });
    }
    drop(listener);
    connections.close();
    connections.wait().await;
}

/// A new connection's room: a free slot, or one an idle connection is giving up.
enum Room {
    Free(OwnedSemaphorePermit),
    Freeing(Arc<Semaphore>),
}

impl Room {
    async fn taken(self) -> Option<OwnedSemaphorePermit> {
        match self {
            Room::Free(slot) => Some(slot),
            Room::Freeing(slots) => tokio::time::timeout(ROOM_WAIT, slots.acquire_owned())
                .await
                .ok()?
                .ok(),
        }
    }
}

/// The connections open now, each with whether a request is in progress on it and since
/// when it has been idle, so that the longest idle one can be closed for a new one.
struct OpenConnections {
    timer: CoarseTimer,
    next: AtomicU64,
    by_number: Mutex<HashMap<u64, (Arc<Connection>, CancellationToken)>>,
}

/// One open connection, as its requests see it.
struct Connection {
    number: u64,
    timer: CoarseTimer,
    /// Requests whose response has not been sent whole yet.
    in_progress: AtomicUsize,
    /// The timer's tick when the last request in progress finished (or the connection
    /// opened).
    idle_since: AtomicU64,
}

impl OpenConnections {
    fn new(timer: CoarseTimer) -> Self {
        OpenConnections {
            timer,
            next: AtomicU64::new(0),
            by_number: Mutex::new(HashMap::new()),
        }
    }

    fn by_number(
        &self,
    ) -> std::sync::MutexGuard<'_, HashMap<u64, (Arc<Connection>, CancellationToken)>> {
        self.by_number
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }

    /// A new connection, and what fires when it is to be closed for another.
    fn register(&self) -> (Arc<Connection>, CancellationToken) {
        let connection = Arc::new(Connection {
            number: self.next.fetch_add(1, Ordering::Relaxed),
            timer: self.timer.clone(),
            in_progress: AtomicUsize::new(0),
            idle_since: AtomicU64::new(self.timer.ticks()),
        });
        let close = CancellationToken::new();
        self.by_number()
            .insert(connection.number, (Arc::clone(&connection), close.clone()));
        (connection, close)
    }

    fn forget(&self, connection: &Connection) {
        self.by_number().remove(&connection.number);
    }

    /// Closes the connection idle the longest, if one has been idle long enough; whether
    /// one was. It is forgotten at once, so that it is not chosen twice.
    fn close_longest_idle(&self) -> bool {
        let now = self.timer.ticks();
        let mut by_number = self.by_number();
        let longest = by_number
            .values()
            .filter(|(connection, _)| connection.in_progress.load(Ordering::Acquire) == 0)
            .map(|(connection, _)| {
                (
                    connection.idle_since.load(Ordering::Acquire),
                    connection.number,
                )
            })
            .filter(|(since, _)| now.saturating_sub(*since) >= MIN_IDLE_TICKS)
            .min();
        let Some((_, number)) = longest else {
            return false;
        };
        if let Some((_, close)) = by_number.remove(&number) {
            close.cancel();
        }
        true
    }
}

impl Connection {
    fn started(self: &Arc<Self>) -> InProgress {
        self.in_progress.fetch_add(1, Ordering::AcqRel);
        InProgress(Arc::clone(self))
    }
}

/// A request in progress on its connection, until its response has been sent whole (or
/// given up).
struct InProgress(Arc<Connection>);

impl Drop for InProgress {
    fn drop(&mut self) {
        let connection = &self.0;
        // The time is set before the count drops, so that a connection seen idle has its
        // time.
        connection
            .idle_since
            .store(connection.timer.ticks(), Ordering::Release);
        connection.in_progress.fetch_sub(1, Ordering::AcqRel);
    }
}

/// The endpoint's service on one connection, noting each request in progress.
struct Tracked {
    inner: EndpointService,
    this: Arc<Connection>,
}

impl hyper::service::Service<Request<Incoming>> for Tracked {
    type Response = Response<TrackedBody>;
    type Error = Infallible;
    type Future =
        TrackedResponse<<EndpointService as hyper::service::Service<Request<Incoming>>>::Future>;

    fn call(&self, request: Request<Incoming>) -> Self::Future {
        TrackedResponse {
            in_progress: Some(self.this.started()),
            inner: self.inner.call(request),
        }
    }
}

/// The response of a request in progress.
struct TrackedResponse<F> {
    in_progress: Option<InProgress>,
    inner: F,
}

impl<F> Future for TrackedResponse<F>
where
    F: Future<Output = Result<Response<Body>, Infallible>> + Unpin,
{
    type Output = Result<Response<TrackedBody>, Infallible>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let Ok(response) = std::task::ready!(Pin::new(&mut self.inner).poll(cx));
        let in_progress = self.in_progress.take();
        Poll::Ready(Ok(response.map(|body| TrackedBody {
            body,
            _in_progress: in_progress,
        })))
    }
}

/// A response's body: its request is in progress until the body is done with.
struct TrackedBody {
    body: Body,
    _in_progress: Option<InProgress>,
}

impl hyper::body::Body for TrackedBody {
    type Data = <Body as hyper::body::Body>::Data;
    type Error = <Body as hyper::body::Body>::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Self::Data>, Self::Error>>> {
        Pin::new(&mut self.body).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.body.size_hint()
    }
}
/// Answers a connection past the cap `503` and closes it, without reading its request:
/// whatever it sent is discarded with the socket.
async fn refuse(mut socket: TcpStream) {
    let body = r#"{"jsonrpc":"2.0","error":{"code":-32603,"message":"Server busy: too many open connections; try again later."}}"#;
    let refusal = format!(
        "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\n\
         retry-after: {RETRY_AFTER_SECONDS}\r\nconnection: close\r\ncontent-length: {}\r\n\r\n{body}",
        body.len()
    );
    let write = async {
        socket.write_all(refusal.as_bytes()).await?;
        socket.shutdown().await
    };
    // A client that does not read its refusal does not hold the task.
    let _ = tokio::time::timeout(Duration::from_secs(1), write).await;
}

/// After an accept error: none if it concerned only the connection being accepted (it is
/// gone; the next one may be fine), else a second's pause, as `axum::serve` takes, so that
/// running out of file descriptors does not become a busy loop.
async fn wait_out(error: std::io::Error) {
    use std::io::ErrorKind;
    if matches!(
        error.kind(),
        ErrorKind::ConnectionRefused | ErrorKind::ConnectionAborted | ErrorKind::ConnectionReset
    ) {
        return;
    }
    tracing::error!(%error, "accepting a connection failed; trying again in a second");
    tokio::time::sleep(Duration::from_secs(1)).await;
}
