//! The accept loop of [`serve_on`](crate::HttpServer::serve_on): each connection served by
//! hyper's HTTP/1 server, on its own task, until shutdown.
//!
//! Written here rather than taken from `axum::serve`, which wraps every request's body in a
//! box and reaches the service through two adapters; the steps are the same: `TCP_NODELAY`
//! on every socket, an accept error that concerns one connection skipped and any other
//! waited out, and at shutdown no new connection, each open one closed once its request in
//! flight is answered, and this returning when all are.

use std::time::Duration;

use hyper_util::rt::TokioIo;
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

use super::service::EndpointService;

/// Serves `listener`'s connections with `service` until `stop_accepting` fires, then waits
/// for the open connections to end.
pub(crate) async fn serve_connections(
    listener: TcpListener,
    service: EndpointService,
    stop_accepting: CancellationToken,
) {
    let connections = TaskTracker::new();
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
        let (service, stop) = (service.clone(), stop_accepting.clone());
        connections.spawn(async move {
            let connection = hyper::server::conn::http1::Builder::new()
                .serve_connection(TokioIo::new(socket), service);
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
