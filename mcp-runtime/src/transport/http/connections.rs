//! The accept loop of [`serve_on`](crate::HttpServer::serve_on): each connection served by
//! hyper's HTTP/1 server, on its own task, until shutdown.
//!
//! Written here rather than taken from `axum::serve`, which wraps every request's body in a
//! box and reaches the service through two adapters; the steps are the same: `TCP_NODELAY`
//! on every socket, an accept error that concerns one connection skipped and any other
//! waited out, and at shutdown no new connection, each open one closed once its request in
//! flight is answered, and this returning when all are.

use std::sync::Arc;
use std::time::Duration;

use hyper_util::rt::TokioIo;
use tokio::io::AsyncWriteExt;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Semaphore;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

use super::coarse_timer::CoarseTimer;
use super::limits::{Limits, RETRY_AFTER_SECONDS};
use super::service::EndpointService;

/// Serves `listener`'s connections with `service` until `stop_accepting` fires, then waits
/// for the open connections to end. At most `limits.max_connections` are served at once;
/// one more is answered `503` and closed. A connection that takes longer than
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
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(CoarseTimer::start())
        .header_read_timeout(limits.header_timeout);
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
        let Ok(slot) = Arc::clone(&slots).try_acquire_owned() else {
            connections.spawn(refuse(socket));
            continue;
        };
        let (service, stop, http) = (service.clone(), stop_accepting.clone(), http.clone());
        connections.spawn(async move {
            let _slot = slot;
            let connection = http.serve_connection(TokioIo::new(socket), service);
            let mut connection = std::pin::pin!(connection);
            tokio::select! {
                biased;
                // A connection's error (the client went away mid-request, a malformed
                // request hyper already answered) concerns that connection only.
                _ = connection.as_mut() => return,
                () = stop.cancelled() => {}
            }
            connection.as_mut().graceful_shutdown();
            let _ = connection.await;
        });
    }
    drop(listener);
    connections.close();
    connections.wait().await;
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
