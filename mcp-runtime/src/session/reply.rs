//! What goes back for a request, one word per stage, each either ready or pending:
//!
//! - [`Body`]: a result (or an error found only once the work ran) before its envelope;
//! - [`Answer`]: what a method's handler gives, a body ready or pending;
//! - [`Reply`]: an answer with its id, a [`Response`] ready or a [`PendingResponse`];
//! - [`Done`]: a reply once it is done, as a transport writes it;
//! - [`Outcome`]: what one message asks of the connection (a reply, a batch of them, a
//!   cancellation, or nothing).

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::Poll;

use serde_json::Value;

use super::body::Body;
use crate::context::RequestHandle;
use crate::protocol::jsonrpc::{RequestId, Response, RpcError, UnknownId};

/// A response that is not ready yet: the work that answers a request (a tool call's
/// pipeline, a read, a listen stream), its result wrapped in its JSON-RPC envelope when it
/// is done. A transport polls it once where the request is handled
/// (`transport::calls`), and a call not done then goes on as a task of its own.
pub(crate) struct PendingResponse {
    id: RequestId,
    result: Pin<Box<dyn Future<Output = Body> + Send + 'static>>,
    /// The request's handle, if it has a context: finished once the result is ready, and
    /// what the transport cancels a call running as a task by.
    request: Option<RequestHandle>,
    /// 2026-07-28: the server's identity, which the result carries.
    server_info: Option<Arc<Value>>,
}

impl PendingResponse {
    /// The handle that fires the request's cancellation token, if it has a context: taken
    /// only for a call that goes on as a task, not for every call.
    pub(crate) fn request(&self) -> Option<RequestHandle> {
        self.request.clone()
    }

    /// The result, once the work is done.
    pub(crate) fn poll_result(&mut self, cx: &mut std::task::Context<'_>) -> Poll<Body> {
        let body = std::task::ready!(self.result.as_mut().poll(cx));
        // Nothing about the request may be sent after its response. Whoever finishes it
        // last takes its context apart, without the lock when the tool kept no copy.
        if let Some(request) = self.request.take() {
            request.finish_and_release();
        }
        Poll::Ready(match &self.server_info {
            Some(server_info) => body.decorated(server_info),
            None => body,
        })
    }
}

impl Future for PendingResponse {
    type Output = Response;

    fn poll(mut self: Pin<&mut Self>, cx: &mut std::task::Context<'_>) -> Poll<Response> {
        let pending = &mut *self;
        pending
            .poll_result(cx)
            .map(|result| result.response(&pending.id))
    }
}

/// The answer to one request.
pub(crate) enum Reply {
    /// The full JSON-RPC response, ready to send.
    Ready(Response),
    /// A response that comes later. `id` identifies it for cancellation.
    Pending {
        id: RequestId,
        response: PendingResponse,
    },
}

/// A reply that is done: a response, or the result of a call that is its response once
/// wrapped in its envelope (written so, it needs no buffer of its own).
pub(crate) enum Done {
    Response(Response),
    Result { id: RequestId, body: Body },
}

impl Done {
    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    pub(crate) fn into_response(self) -> Response {
        match self {
            Done::Response(response) => response,
            Done::Result { id, body } => body.response(&id),
        }
    }

    /// Appends the response's JSON to `out`: the same bytes as
    /// [`into_response`](Self::into_response) gives.
    #[inline]
    pub(crate) fn write(&self, out: &mut Vec<u8>) {
        match self {
            Done::Response(response) => out.extend_from_slice(response.json()),
            Done::Result { id, body } => body.write_response(id, out),
        }
    }
}

/// What one message asks the connection to do.
pub(crate) enum Outcome {
    /// Nothing to send (a notification, or a response to the server).
    Nothing,
    /// Answer a request.
    Reply(Reply),
    /// Answer a batch with an array of these (2025-03-26).
    Batch(Vec<Reply>),
    /// Stop the request with this id, and send nothing for it.
    Cancel(RequestId),
}

/// What a method's handler gives for a request: its body, ready or pending, not yet
/// wrapped in a JSON-RPC envelope (that needs the id: [`envelope`]).
pub(crate) enum Answer {
    Ready(Result<Body, RpcError>),
    /// Work that gives the body: a tool call's pipeline, a read, a listen stream.
    Pending {
        result: Pin<Box<dyn Future<Output = Body> + Send + 'static>>,
        /// The request's handle, if it has a context.
        request: Option<RequestHandle>,
        /// 2026-07-28: the server's identity, added to the result once it is ready, so
        /// the work stays one future.
        server_info: Option<Arc<Value>>,
    },
}

impl From<Result<Value, RpcError>> for Answer {
    fn from(result: Result<Value, RpcError>) -> Self {
        Answer::Ready(result.map(Body::Json))
    }
}

/// Wraps an answer in its JSON-RPC envelope.
#[inline]
pub(crate) fn envelope(id: RequestId, answer: Answer, unknown_id: UnknownId) -> Reply {
    match answer {
        Answer::Ready(Ok(result)) => Reply::Ready(result.response(&id)),
        Answer::Ready(Err(error)) => Reply::Ready(Response::failure(Some(&id), &error, unknown_id)),
        Answer::Pending {
            result,
            request,
            server_info,
        } => Reply::Pending {
            response: PendingResponse {
                id: id.clone(),
                result,
                request,
                server_info,
            },
            id,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::jsonrpc::code;
    use crate::protocol::version::ProtocolVersion;
    use crate::tool::result::CallToolResult;
    use crate::tool::shape::ShapedResult;

    #[test]
    fn a_result_written_into_the_output_is_the_response_it_makes() {
        let tool_result = |version| {
            let result = CallToolResult::error("it \"failed\"\n");
            Body::ToolResult(ShapedResult::new(result, version, false))
        };
        let bodies = [
            tool_result(ProtocolVersion::V2025_11_25),
            tool_result(ProtocolVersion::V2026_07_28),
            Body::Json(serde_json::json!({"b": [1, 2], "a": null})),
            Body::Failure(RpcError::new(code::INVALID_PARAMS, "no such prompt")),
        ];
        for (index, body) in bodies.into_iter().enumerate() {
            let id = RequestId::from(format!("id {index}"));
            let response = body.response(&id);
            let mut out = b"before".to_vec();
            Done::Result { id, body }.write(&mut out);
            assert_eq!(out, [b"before", response.json()].concat());
            let mut out = Vec::new();
            Done::Response(response.clone()).write(&mut out);
            assert_eq!(out, response.json());
        }
    }
}
