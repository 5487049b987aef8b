//! Response streams: the messages of one outbox as Server-Sent Events.

use std::convert::Infallible;
use std::time::Duration;

use axum::http::HeaderValue;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

/// How often an idle stream carries a comment, so proxies do not time it out.
const KEEP_ALIVE: Duration = Duration::from_secs(15);

/// An SSE response carrying every message queued on an outbox, one `message` event each,
/// until the outbox is ended (or `until` fires, for streams that never end by themselves).
/// Dropping the response (the client went away) drops `queued`, which the outbox's owner
/// sees as closed.
pub(crate) fn response(
    queued: mpsc::UnboundedReceiver<Vec<u8>>,
    until: Option<CancellationToken>,
) -> Response {
    let events = futures_util::stream::unfold((queued, until), |(mut queued, until)| async move {
        let line = match &until {
            Some(until) => tokio::select! {
                line = queued.recv() => line,
                () = until.cancelled() => None,
            },
            None => queued.recv().await,
        };
        // An empty line is the end marker: the request's response was the last event.
        let line = line.filter(|line| !line.is_empty())?;
        let event = Event::default().data(String::from_utf8_lossy(line.trim_ascii_end()));
        Some((Ok::<_, Infallible>(event), (queued, until)))
    });
    let mut response = Sse::new(events)
        .keep_alive(KeepAlive::new().interval(KEEP_ALIVE))
        .into_response();
    // nginx would otherwise buffer the stream and hold progress back.
    response
        .headers_mut()
        .insert("x-accel-buffering", HeaderValue::from_static("no"));
    response
}

/// For a client that does not accept SSE: waits for the end of the outbox and returns the
/// last message (the response); related messages before it are dropped.
pub(crate) async fn last_message(mut queued: mpsc::UnboundedReceiver<Vec<u8>>) -> Option<Vec<u8>> {
    let mut last = None;
    while let Some(line) = queued.recv().await {
        if line.is_empty() {
            break;
        }
        last = Some(line);
    }
    last
}
