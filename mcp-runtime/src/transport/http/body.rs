//! A POST's body, read as it comes, under the endpoint's limits: its length, the time it
//! may take, and the bytes all the bodies being read may hold together.

use std::pin::Pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use axum::body::Bytes;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::Response;
use hyper::body::Body;

use super::limits::{Limits, RETRY_AFTER_SECONDS};
use super::response::{bad_request, error_response, too_large};
use crate::protocol::jsonrpc::{RpcError, code};

/// The whole body, or the answer that refuses it: `413` when it is longer than `limit`
/// (told by its `Content-Length` before any of it is read, or found while reading), `408`
/// when it has not all arrived within the endpoint's body timeout, `503` when the bodies
/// being read hold more than the endpoint allows, `400` when the client stopped sending it.
/// `reading` is the endpoint's count of the bytes of the bodies being read now.
pub(super) async fn read_body<B>(
    body: B,
    limit: usize,
    limits: &Limits,
    reading: &AtomicUsize,
) -> Result<Bytes, Response>
where
    B: Body<Data = Bytes> + Unpin,
    B::Error: std::fmt::Display,
{
    let deadline = limits.body_timeout;
    let reading = Reading {
        total: reading,
        max: limits.max_reading_bytes,
        held: 0,
    };
    match tokio::time::timeout(deadline, read_within(body, limit, reading)).await {
        Ok(read) => read,
        Err(_) => Err(timed_out(deadline)),
    }
}

/// The bytes of one body being read, counted in the endpoint's total until it is read.
struct Reading<'a> {
    total: &'a AtomicUsize,
    max: usize,
    held: usize,
}

impl Reading<'_> {
    /// Counts `bytes` more; false if the bodies being read now hold more than allowed.
    fn take(&mut self, bytes: usize) -> bool {
        self.held += bytes;
        self.total.fetch_add(bytes, Ordering::Relaxed) + bytes <= self.max
    }
}

impl Drop for Reading<'_> {
    fn drop(&mut self) {
        self.total.fetch_sub(self.held, Ordering::Relaxed);
    }
}

async fn read_within<B>(
    mut body: B,
    limit: usize,
    mut reading: Reading<'_>,
) -> Result<Bytes, Response>
where
    B: Body<Data = Bytes> + Unpin,
    B::Error: std::fmt::Display,
{
    if body.size_hint().lower() > limit as u64 {
        return Err(too_large(limit));
    }
    // Most bodies come in one piece (a client writes a message at once): that piece is
    // kept as it came, with no copy; pieces are joined only once a second one arrives.
    // (`http_body_util::Limited` and `collect()`, what axum's `Bytes` does, would allocate
    // a queue of pieces for every body.)
    let mut whole = Bytes::new();
    let mut joined: Option<Vec<u8>> = None;
    while let Some(frame) = std::future::poll_fn(|cx| Pin::new(&mut body).poll_frame(cx)).await {
        let frame = frame.map_err(|error| {
            bad_request(
                code::INVALID_REQUEST,
                format!("Invalid request: the body could not be read: {error}."),
            )
        })?;
        let Ok(data) = frame.into_data() else {
            continue; // Trailers: nothing the endpoint reads.
        };
        let length = joined.as_ref().map_or(whole.len(), Vec::len);
        if length + data.len() > limit {
            return Err(too_large(limit));
        }
        if !reading.take(data.len()) {
            return Err(busy());
        }
        match &mut joined {
            Some(joined) => joined.extend_from_slice(&data),
            None if whole.is_empty() => whole = data,
            None => joined = Some([whole.as_ref(), data.as_ref()].concat()),
        }
    }
    Ok(joined.map_or(whole, Bytes::from))
}

/// `503` for a body refused because the bodies being read hold as much as allowed.
fn busy() -> Response {
    let error = RpcError::new(
        code::INTERNAL_ERROR,
        "Server busy: too many requests are being received; try again later.",
    );
    let mut response = error_response(StatusCode::SERVICE_UNAVAILABLE, &error);
    let headers = response.headers_mut();
    headers.insert(header::RETRY_AFTER, HeaderValue::from(RETRY_AFTER_SECONDS));
    headers.insert(header::CONNECTION, HeaderValue::from_static("close"));
    response
}

/// `408` for a body that took longer than `deadline`; the connection is closed after it.
fn timed_out(deadline: Duration) -> Response {
    let error = RpcError::new(
        code::INVALID_REQUEST,
        format!(
            "Request timeout: the body did not arrive within {} s.",
            deadline.as_secs_f64()
        ),
    );
    let mut response = error_response(StatusCode::REQUEST_TIMEOUT, &error);
    response
        .headers_mut()
        .insert(header::CONNECTION, HeaderValue::from_static("close"));
    response
}
