//! The endpoint's routes: the router (POST handed to [`serve_post`], the CORS preflight,
//! the protected-resource metadata), and a session's GET stream and DELETE.

use std::sync::Arc;

use axum::Router;
use axum::extract::{DefaultBodyLimit, FromRequestParts, Request, State};
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderName, StatusCode};
use axum::middleware;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};

use super::auth::{AnyPrincipal, RequestHead};
use super::checks::{header_text, is_stateless};
use super::cors;
use super::endpoint::{
    Endpoint, SESSION_ID, accepts_event_stream, find_session, serve_post, unavailable,
};
use super::fleet::{claim_here, remote_stream};
use super::response::{bad_request, error_response, json_response, method_not_allowed};
use super::scopes::required_scopes;
use super::sse;
use crate::protocol::jsonrpc::{RpcError, code};

const LAST_EVENT_ID: HeaderName = HeaderName::from_static("last-event-id");

pub(crate) fn router(path: &str, endpoint: Arc<Endpoint>, body_limit: usize) -> Router {
    let mut router = Router::new().route(
        path,
        post(move |state, request| post_message(state, request, body_limit))
            .get(open_stream)
            .delete(end_session)
            .options(
                |State(endpoint): State<Arc<Endpoint>>, headers: HeaderMap| async move {
                    cors::preflight(&endpoint.guard, &headers)
                },
            ),
    );
    if let Some(resource) = &endpoint.guard.resource {
        for metadata_path in resource.paths() {
            let (resource, endpoint) = (resource.clone(), Arc::clone(&endpoint));
            // Made for each request: tools, resources and prompts may come and go.
            // Behind `Host`/`Origin` like the endpoint, but read without credentials: it
            // tells a client where to get them.
            router = router.route(
                &metadata_path,
                get(move |headers: HeaderMap| async move {
                    if let Some(refused) = endpoint.guard.refusal(&headers) {
                        return refused;
                    }
                    let document = resource.document(&required_scopes(&endpoint.core));
                    json_response(StatusCode::OK, &document)
                }),
            );
        }
    }
    if endpoint.guard.opens_cors() {
        let guard = Arc::new(endpoint.guard.clone());
        router = router.layer(middleware::from_fn_with_state(guard, cors::layer));
    }
    router
        .layer(DefaultBodyLimit::max(body_limit))
        .with_state(endpoint)
}

/// A POST to the endpoint as the router serves it (`HttpServer::router`): the same steps as
/// `serve_on` takes (`EndpointService`), the guard before the body.
async fn post_message(
    State(endpoint): State<Arc<Endpoint>>,
    request: Request,
    body_limit: usize,
) -> Response {
    let (parts, body) = request.into_parts();
    serve_post(&endpoint, parts, body, body_limit).await
}

fn speaks_stateless(headers: &HeaderMap) -> bool {
    is_stateless(headers, None)
}

/// The principal of a GET or DELETE the guard let in; the guard's refusal is the
/// response otherwise.
struct Admitted(Option<AnyPrincipal>);

impl FromRequestParts<Arc<Endpoint>> for Admitted {
    type Rejection = Response;

    async fn from_request_parts(
        parts: &mut Parts,
        endpoint: &Arc<Endpoint>,
    ) -> Result<Self, Response> {
        let head = RequestHead::new(&parts.method, &parts.uri, &parts.headers);
        match endpoint.guard.admit(head).await {
            Ok(principal) => Ok(Admitted(principal)),
            Err(refused) => Err(*refused),
        }
    }
}

/// GET: the session's standalone stream (tool list changes). 2026-07-28 has none.
async fn open_stream(
    State(endpoint): State<Arc<Endpoint>>,
    Admitted(principal): Admitted,
    headers: HeaderMap,
) -> Response {
    if speaks_stateless(&headers) || header_text(&headers, SESSION_ID).is_none() {
        return method_not_allowed(
            "Method not allowed: GET opens the stream of a session; without a session (or under 2026-07-28) there is none.",
        );
    }
    if !accepts_event_stream(&headers) {
        return error_response(
            StatusCode::NOT_ACCEPTABLE,
            &RpcError::new(
                code::INVALID_REQUEST,
                "Not acceptable: the stream is text/event-stream.",
            ),
        );
    }
    let (session_id, session) = match find_session(&endpoint, &headers, principal.as_ref()).await {
        Ok(found) => found,
        Err((status, error)) => return error_response(status, &error),
    };
    let polls = session.polls();
    let retry = polls.then_some(endpoint.streams.retry);
    // In a fleet, the GET stream's events are numbered by whichever instance held it, so a
    // resumption of it (number 0) starts afresh rather than replay another numbering.
    let last_event = header_text(&headers, LAST_EVENT_ID).filter(|last| {
        endpoint.fleet.is_none() || sse::parse_event_id(last).is_none_or(|(number, _)| number != 0)
    });
    if let Some(last) = last_event {
        // A client resuming a stream it lost: the events after `last`, then whatever else
        // the stream carries. This connection takes over from any still reading it.
        let Some((number, seq)) = sse::parse_event_id(last) else {
            return bad_request(
                code::INVALID_REQUEST,
                format!("Invalid request: `{last}` is not an event id of this server."),
            );
        };
        if let (None, Some(fleet)) = (session.stream(number), &endpoint.fleet) {
            // A stream of a call another instance runs (or ran).
            let until = session.ended.clone();
            match remote_stream(fleet, session_id.clone(), number, seq, until, retry).await {
                Ok(Some(response)) => return response,
                Ok(None) => {}
                Err(error) => {
                    return error_response(StatusCode::SERVICE_UNAVAILABLE, &unavailable(&error));
                }
            }
        }
        let Some(replay) = session.stream(number) else {
            return bad_request(
                code::INVALID_REQUEST,
                format!(
                    "Invalid request: the stream of event `{last}` cannot be resumed (it finished more than {} s ago, or never existed).",
                    sse::RETAIN_ENDED.as_secs()
                ),
            );
        };
        if replay.finished_after(seq) {
            // Nothing more will come after the response: 204 tells the client to stop
            // reconnecting.
            return StatusCode::NO_CONTENT.into_response();
        }
        let standalone = Arc::ptr_eq(&replay, &session.standalone());
        if let (Some(fleet), false) = (&endpoint.fleet, standalone) {
            claim_here(fleet, &session_id, number).await;
        }
        let polling = endpoint.streams.polling.filter(|_| polls && !standalone);
        return replay.respond(Some(seq), Some(session.ended.clone()), polling, retry);
    }
    let standalone = session.standalone();
    if standalone.is_attached() {
        return error_response(
            StatusCode::CONFLICT,
            &RpcError::new(
                code::INVALID_REQUEST,
                "Conflict: this session's stream is already open.",
            ),
        );
    }
    // A fresh GET sees what comes from now on, after a priming event from 2025-11-25.
    let start = standalone.latest();
    if polls {
        standalone.push_priming();
    }
    standalone.respond(start, Some(session.ended.clone()), None, retry)
}

/// DELETE: ends a session; its calls in flight are cancelled.
async fn end_session(
    State(endpoint): State<Arc<Endpoint>>,
    Admitted(principal): Admitted,
    headers: HeaderMap,
) -> Response {
    if speaks_stateless(&headers) {
        return method_not_allowed(
            "Method not allowed: protocol revision 2026-07-28 has no sessions to end.",
        );
    }
    if header_text(&headers, SESSION_ID).is_none() {
        return bad_request(
            code::INVALID_REQUEST,
            "Invalid request: the Mcp-Session-Id header names the session to end.",
        );
    }
    // Found first: a session is ended only by its own principal.
    let id = match find_session(&endpoint, &headers, principal.as_ref()).await {
        Ok((id, _)) => id,
        Err((status, error)) => return error_response(status, &error),
    };
    match endpoint.sessions.remove(&id).await {
        Ok(true) => StatusCode::OK.into_response(),
        Ok(false) => error_response(
            StatusCode::NOT_FOUND,
            &RpcError::new(code::INVALID_REQUEST, "Invalid request: no such session."),
        ),
        Err(error) => error_response(StatusCode::SERVICE_UNAVAILABLE, &unavailable(&error)),
    }
}
