//! The HTTP responses that carry JSON-RPC bodies: an error refused before the protocol saw
//! the request (by the guard, the authentication hook or the endpoint), or a response as
//! JSON. A leaf, so the guard and the hook need not reach into the endpoint.

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::Value;

use crate::protocol::jsonrpc::{RpcError, UnknownId};

/// A JSON-RPC error response without an id, with an HTTP status.
pub(crate) fn error_response(status: StatusCode, error: &RpcError) -> Response {
    let body = crate::protocol::jsonrpc::failure(None, error, UnknownId::Omit);
    json_response(status, &body)
}

/// A message over the size limit (`Server::max_message_size`): 413, with the error stdio
/// sends for a line over it.
pub(crate) fn too_large(limit: usize) -> Response {
    let error = RpcError::new(
        crate::protocol::jsonrpc::code::INVALID_REQUEST,
        format!("Invalid request: the message is longer than the {limit}-byte limit."),
    );
    error_response(StatusCode::PAYLOAD_TOO_LARGE, &error)
}

/// 405 for a method the endpoint does not take, naming those it does.
pub(crate) fn method_not_allowed(message: &str) -> Response {
    let mut response = error_response(
        StatusCode::METHOD_NOT_ALLOWED,
        &RpcError::new(crate::protocol::jsonrpc::code::INVALID_REQUEST, message),
    );
    response
        .headers_mut()
        .insert(header::ALLOW, HeaderValue::from_static("GET, POST, DELETE"));
    response
}

/// A JSON-RPC error without an id, with status 400.
pub(crate) fn bad_request(code: i64, message: impl Into<String>) -> Response {
    error_response(StatusCode::BAD_REQUEST, &RpcError::new(code, message))
}

/// A JSON-RPC error answering the request with this `id` (echoed when it is a valid one),
/// with an HTTP status: for requests refused before the protocol sees them.
pub(crate) fn refusal(status: StatusCode, error: &RpcError, id: Option<&Value>) -> Response {
    let id = id.filter(|id| id.is_string() || id.is_i64() || id.is_u64());
    let body = crate::protocol::jsonrpc::failure(id, error, UnknownId::Omit);
    json_response(status, &body)
}

pub(crate) fn json_response(status: StatusCode, body: &Value) -> Response {
    let body = serde_json::to_vec(body).expect("a JSON value always serializes");
    bytes_response(status, body)
}

/// A JSON-RPC response as the body.
pub(crate) fn response_json(
    status: StatusCode,
    response: crate::protocol::jsonrpc::Response,
) -> Response {
    bytes_response(status, response.json().to_vec())
}

/// A call's response as a client that does not accept SSE gets it: the line its outbox
/// carries (newline included), whether the call was answered at once or later.
pub(crate) fn response_line(
    status: StatusCode,
    response: crate::protocol::jsonrpc::Response,
) -> Response {
    bytes_response(status, response.into_line())
}

fn bytes_response(status: StatusCode, body: Vec<u8>) -> Response {
    (
        status,
        [(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        )],
        body,
    )
        .into_response()
}
