//! What [`serve_on`](crate::HttpServer::serve_on) serves: the endpoint's router, with the
//! POSTs to the endpoint, every message a client sends, handed straight to their handler.
//!
//! The router matches a request's path, then its method, and runs the handler behind a
//! type-erased service: for a 2026-07-28 `tools/call` answered in one JSON body, about 4,000
//! of the 56,000 instructions the server spent on it (callgrind). A POST to the endpoint
//! gets the same handler, under the same body limit, and so the same answer, without that. Everything else (`GET` and
//! `DELETE` on the endpoint, other methods, the protected-resource metadata, Prometheus,
//! unknown paths) goes through the router, exactly as [`router`](crate::HttpServer::router)
//! serves it.

use std::convert::Infallible;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use axum::Router;
use axum::extract::{DefaultBodyLimit, Request, State};
use axum::http::Method;
use axum::response::Response;
use axum::routing::future::RouteFuture;
use futures_util::future::Either;
use tower_service::Service;

use super::endpoint::{Endpoint, post_message};

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

impl Service<Request> for EndpointService {
    type Response = Response;
    type Error = Infallible;
    type Future = Either<Posted, RouteFuture<Infallible>>;

    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        // The router is always ready too.
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, mut request: Request) -> Self::Future {
        if request.method() == Method::POST && request.uri().path() == &*self.path {
            // What the router's `DefaultBodyLimit` layer does for this route.
            DefaultBodyLimit::max(self.body_limit).apply(&mut request);
            let endpoint = Arc::clone(&self.endpoint);
            Either::Left(Box::pin(async move {
                Ok(post_message(State(endpoint), request).await)
            }))
        } else {
            Either::Right(self.router.call(request))
        }
    }
}
