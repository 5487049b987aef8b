//! What [`serve_on`](crate::HttpServer::serve_on) runs on each connection: the endpoint's
//! router, with the POSTs to the endpoint, every message a client sends, handed straight to
//! their handler.
//!
//! A POST to the endpoint is read off hyper's body as it comes, under the same limit, and
//! answered as the router's handler answers it. The router's way costs more for the same
//! answer: it boxes the body, records its limit in the request's extensions, and reaches the
//! handler through a type-erased service (about 6,000 of the 50,000 instructions the server
//! spent on a 2026-07-28 `tools/call` answered in one JSON body, callgrind, and nine of its
//! 42 allocations). Everything else (`GET` and `DELETE` on the endpoint, other methods, the
//! protected-resource metadata, Prometheus, unknown paths) goes through the router, exactly
//! as [`router`](crate::HttpServer::router) serves it.

use std::convert::Infallible;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use axum::Router;
use axum::body::Bytes;
use axum::http::{Method, Request};
use axum::response::Response;
use axum::routing::future::RouteFuture;
use futures_util::future::Either;
use hyper::body::{Body, Incoming};
use tower_service::Service;

use super::endpoint::{Endpoint, post_body};
use super::response::{bad_request, too_large};
use crate::protocol::jsonrpc::code;

/// The router, and what a POST to the endpoint needs without it.
#[derive(Clone)]
pub(crate) struct EndpointService {
    router: Router,
    endpoint: Arc<Endpoint>,
    path: Arc<str>,
    body_limit: usize,
}

impl EndpointService {
    /// `router` must be the one [`router`](super::router) made for `endpoint`, at `path`,
    /// with `body_limit`.
    pub fn new(router: Router, endpoint: Arc<Endpoint>, path: &str, body_limit: usize) -> Self {
        EndpointService {
            router,
            endpoint,
            path: Arc::from(path),
            body_limit,
        }
    }
}

type Posted = Pin<Box<dyn Future<Output = Result<Response, Infallible>> + Send>>;

impl hyper::service::Service<Request<Incoming>> for EndpointService {
    type Response = Response;
    type Error = Infallible;
    type Future = Either<Posted, RouteFuture<Infallible>>;

    fn call(&self, request: Request<Incoming>) -> Self::Future {
        if request.method() == Method::POST && request.uri().path() == &*self.path {
            let (endpoint, limit) = (Arc::clone(&self.endpoint), self.body_limit);
            Either::Left(Box::pin(async move {
                let (parts, body) = request.into_parts();
                let body = match read_body(body, limit).await {
                    Ok(body) => body,
                    Err(refused) => return Ok(refused),
                };
                Ok(post_body(&endpoint, parts.headers, body).await)
            }))
        } else {
            // A clone of the router is a reference count: it holds its routes behind an `Arc`.
            Either::Right(self.router.clone().call(request))
        }
    }
}

/// The whole body, or the answer that refuses it: `413` when it is longer than `limit`
/// (told by its `Content-Length` before any of it is read, or found while reading), `400`
/// when the client stopped sending it.
async fn read_body(mut body: Incoming, limit: usize) -> Result<Bytes, Response> {
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
        match &mut joined {
            Some(joined) => joined.extend_from_slice(&data),
            None if whole.is_empty() => whole = data,
            None => joined = Some([whole.as_ref(), data.as_ref()].concat()),
        }
    }
    Ok(joined.map_or(whole, Bytes::from))
}
