//! CORS for the browser origins [`allow_origin`](crate::HttpServer::allow_origin) names: a
//! page of such an origin may call the endpoint from its scripts (a web host, the Inspector's
//! direct connection). Without CORS a browser refuses a cross-origin page both the preflight
//! of a JSON `POST` and the reading of any answer.
//!
//! Local origins (`http://localhost:*`, ...) are accepted, as before, but not opened to
//! other pages' scripts: only a named origin gets `Access-Control-Allow-Origin`.

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use super::guard::Guard;

/// What a cross-origin script may read of an answer beyond the safelisted headers: the
/// session, the revision, an authorization challenge (for OAuth discovery) and when to retry.
const EXPOSED: HeaderValue =
    HeaderValue::from_static("mcp-session-id, mcp-protocol-version, www-authenticate, retry-after");

/// What the endpoint answers besides `OPTIONS`.
const METHODS: HeaderValue = HeaderValue::from_static("GET, POST, DELETE");

/// How long a browser may reuse a preflight's answer, in seconds (browsers cap it anyway:
/// Chromium at 2 hours, Firefox at 1 day).
const MAX_AGE: HeaderValue = HeaderValue::from_static("600");

/// Opens `response` to the page of `origin` (from [`Guard::cors_origin`]).
///
/// [`Guard::cors_origin`]: super::Guard::cors_origin
pub(super) fn open(response: &mut Response, origin: HeaderValue) {
    let headers = response.headers_mut();
    headers.insert(header::ACCESS_CONTROL_ALLOW_ORIGIN, origin);
    headers.insert(header::ACCESS_CONTROL_EXPOSE_HEADERS, EXPOSED);
    // The answer differs by `Origin`: a cache must not hand one origin's to another.
    headers.append(header::VARY, HeaderValue::from_static("origin"));
}

/// The router's layer when some origin is named: every answer to such a page, refusals
/// included (a `401` must be readable for its challenge), carries the CORS headers.
pub(super) async fn layer(
    State(guard): State<Arc<Guard>>,
    request: Request,
    next: Next,
) -> Response {
    let origin = guard.cors_origin(request.headers());
    let mut response = next.run(request).await;
    if let Some(origin) = origin {
        open(&mut response, origin);
    }
    response
}

/// `OPTIONS` on the endpoint: a browser's preflight. Behind `Host`/`Origin` like every
/// request; a named origin may send the methods the endpoint answers with the headers it
/// asks for (MCP's own include per-tool `Mcp-Param-*` names, so they are not listed here).
pub(super) fn preflight(guard: &Guard, headers: &HeaderMap) -> Response {
    if let Some(refused) = guard.refusal(headers) {
        return refused;
    }
    let mut response = StatusCode::NO_CONTENT.into_response();
    if guard.cors_origin(headers).is_some() {
        let allowed = response.headers_mut();
        allowed.insert(header::ACCESS_CONTROL_ALLOW_METHODS, METHODS);
        if let Some(asked) = headers.get(header::ACCESS_CONTROL_REQUEST_HEADERS) {
            allowed.insert(header::ACCESS_CONTROL_ALLOW_HEADERS, asked.clone());
        }
        allowed.insert(header::ACCESS_CONTROL_MAX_AGE, MAX_AGE);
    }
    response
}
