//! What [`serve_on`](crate::HttpServer::serve_on) runs on each connection: the endpoint's
//! router, with the POSTs to the endpoint, every message a client sends, handed straight to
//! their handler.
//!
//! A POST to the endpoint is read off hyper's body as it comes, under the same limit, and
//! answered as the router's handler answers it. The router's way costs more for the same
//! answer, and POSTs are every call: it boxes the body, records its limit in the request's
//! extensions, and reaches the handler through a type-erased service. Everything else
//! (`GET` and `DELETE` on the endpoint, other methods, the protected-resource metadata,
//! Prometheus, unknown paths) goes through the router, exactly as
//! [`router`](crate::HttpServer::router) serves it.

use std::convert::Infallible;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use axum::Router;
use axum::http::{Method, Request, header};
use axum::response::Response;
use axum::routing::future::RouteFuture;
use futures_util::future::Either;
use hyper::body::Incoming;
use tower_service::Service;

use super::cors;
use super::endpoint::{Endpoint, serve_post};
use super::response::bad_request;
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
        // This server speaks HTTP/1 only, where every request names its Host (RFC 9112
        // §3.2); `router()` leaves the check to the application's server, which may speak
        // HTTP/2 (`:authority` instead).
        if !request.headers().contains_key(header::HOST) {
            let refused = bad_request(
                code::INVALID_REQUEST,
                "Bad request: the Host header is missing.",
            );
            return Either::Left(Box::pin(std::future::ready(Ok(refused))));
        }
        if request.method() == Method::POST && request.uri().path() == &*self.path {
            let (endpoint, limit) = (Arc::clone(&self.endpoint), self.body_limit);
            Either::Left(Box::pin(async move {
                let (parts, body) = request.into_parts();
                // What the router's CORS layer does for everything else.
                let origin = endpoint.guard.cors_origin(&parts.headers);
                let mut response = serve_post(&endpoint, parts, body, limit).await;
                if let Some(origin) = origin {
                    cors::open(&mut response, origin);
                }
                Ok(response)
            }))
        } else {
            // A clone of the router is a reference count: it holds its routes behind an `Arc`.
            Either::Right(self.router.clone().call(request))
        }
    }
}
