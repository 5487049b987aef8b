//! The answers the dispatcher gives: a response ready now, or one a running call gives
//! later; how a batch or a cancellation is reported to the transport; and the result body
//! before its JSON-RPC envelope.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use serde_json::Value;

use super::call::ToolCallPipeline;
use crate::context::RequestHandle;
use crate::protocol::jsonrpc::{RequestId, Response, RpcError, UnknownId};
use crate::tool::catalog::ListPage;
use crate::tool::shape::ShapedResult;

/// A response that is not ready yet: a running tool call, wrapped in its JSON-RPC envelope
/// when it finishes.
pub(crate) struct PendingResponse {
    id: RequestId,
    result: PendingResult,
}

/// The work a pending response waits on.
enum PendingResult {
    /// Running as a future.
    Future(Pin<Box<dyn Future<Output = Body> + Send + 'static>>),
    /// A tool call not started yet, held as it is: one done at once is answered without
    /// ever becoming a future ([`ToolCallPipeline::finish_at_once`]).
    Call(ToolCallPipeline),
}

impl PendingResult {
    /// The work as a future, made one if it is not yet.
    fn future(&mut self) -> &mut Pin<Box<dyn Future<Output = Body> + Send + 'static>> {
        if let PendingResult::Call(_) = self {
            // A placeholder for the moment the call is moved out: a zero-sized future,
            // which `Box` does not allocate for.
            let placeholder = PendingResult::Future(Box::pin(std::future::pending()));
            let PendingResult::Call(call) = std::mem::replace(self, placeholder) else {
                unreachable!("checked above")
            };
            *self = PendingResult::Future(Box::pin(call.run()));
        }
        match self {
            PendingResult::Future(future) => future,
            PendingResult::Call(_) => unreachable!("made a future above"),
        }
    }
}

impl Future for PendingResponse {
    type Output = Response;

    fn poll(
        mut self: Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Response> {
        let pending = &mut *self;
        pending
            .result
            .future()
            .as_mut()
            .poll(cx)
            .map(|result| result.response(&pending.id))
    }
}

/// The answer to one request.
pub(crate) enum Reply {
    /// The full JSON-RPC response, ready to send.
    Ready(Response),
    /// A tool call whose response comes later. `id` identifies it for cancellation, and
    /// `request` fires its context's cancellation token.
    Pending {
        id: RequestId,
        response: PendingResponse,
        request: Option<RequestHandle>,
    },
}

impl Reply {
    /// The response, if it is ready now: a pending call is polled once, where it stands,
    /// so a call that is done at once (a quick `async fn`) is answered without a task of
    /// its own. A call that is not done is given back, to run as its own task, which polls
    /// it again and registers its waker then.
    // The reply is given back by value, as it came: boxing it would cost an allocation per
    // call that is not done at once, to save moving it once.
    #[allow(clippy::result_large_err)]
    pub(crate) fn answered_at_once(self) -> Result<Response, Reply> {
        match self {
            Reply::Ready(response) => Ok(response),
            Reply::Pending {
                id,
                mut response,
                request,
            } => {
                if let PendingResult::Call(call) = response.result {
                    match call.finish_at_once() {
                        Ok(body) => return Ok(body.response(&id)),
                        Err(call) => response.result = PendingResult::Call(call),
                    }
                }
                // A no-op waker: nothing is to be woken by this one poll.
                let mut first_poll = std::task::Context::from_waker(std::task::Waker::noop());
                match Pin::new(&mut response).poll(&mut first_poll) {
                    std::task::Poll::Ready(response) => Ok(response),
                    std::task::Poll::Pending => Err(Reply::Pending {
                        id,
                        response,
                        request,
                    }),
                }
            }
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

/// The body of a request's answer before it is wrapped in a JSON-RPC envelope.
pub(crate) enum Answer {
    Now(Result<Body, RpcError>),
    Later {
        result: Pin<Box<dyn Future<Output = Body> + Send + 'static>>,
        request: Option<RequestHandle>,
    },
    /// A tool call, not started yet: held inline, not boxed, so that one done at once
    /// costs no allocation.
    Call(ToolCallPipeline),
}

impl Answer {
    /// The answer with any call in it made a future.
    #[cfg(feature = "otel")]
    pub(crate) fn later(self) -> Answer {
        match self {
            Answer::Call(call) => Answer::Later {
                request: Some(call.finishing.request.clone()),
                result: Box::pin(call.run()),
            },
            other => other,
        }
    }
}

impl From<Result<Value, RpcError>> for Answer {
    fn from(result: Result<Value, RpcError>) -> Self {
        Answer::Now(result.map(Body::Json))
    }
}

/// A result, in the form it is serialized from.
pub(crate) enum Body {
    Json(Value),
    /// A tool's result, serialized without building a `Value`.
    ToolResult(ShapedResult),
    /// A `tools/list` page: the tools from their prepared JSON, and the members around
    /// them written as they are, not built into a map (the map, its names and the server's
    /// identity copied into it cost about 5,000 of the 46,000 instructions the server spent
    /// on a 2026-07-28 `tools/list` over HTTP, callgrind).
    Page {
        page: ListPage,
        /// 2026-07-28: how long the list may be kept (`ttlMs`; `cacheScope` is `public`).
        ttl_ms: Option<u64>,
        /// 2026-07-28: the server's identity (`_meta`), with `resultType` `complete`.
        server_info: Option<Arc<Value>>,
    },
    /// An error found only once the work ran: a resource read or a prompt that failed, a
    /// variable or argument that did not parse. Answered as a JSON-RPC error.
    Failure(RpcError),
}

impl Body {
    /// The success response carrying this result: the same bytes as serializing it, a
    /// tool's result written by its own faster path.
    pub(crate) fn response(&self, id: &RequestId) -> Response {
        if let Body::Failure(error) = self {
            // The id is known, so how an unknown one is written does not matter.
            return Response::failure(Some(id), error, UnknownId::Null);
        }
        Response::success(id, |out| match self {
            Body::ToolResult(result) => result.write_json(out),
            body => serde_json::to_writer(out, body).expect("a result always serializes"),
        })
    }
}

impl serde::Serialize for Body {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        match self {
            Body::Json(result) => result.serialize(serializer),
            // Never a result: `response` answers it as an error.
            Body::Failure(error) => serializer.serialize_str(&error.message),
            Body::ToolResult(result) => result.serialize(serializer),
            Body::Page {
                page,
                ttl_ms,
                server_info,
            } => {
                // Members in the order a `serde_json::Map` writes them (by name).
                let mut map = serializer.serialize_map(None)?;
                if let Some(server_info) = server_info {
                    map.serialize_entry("_meta", &ServerInfoMeta(server_info))?;
                }
                if ttl_ms.is_some() {
                    map.serialize_entry("cacheScope", "public")?;
                }
                if let Some(next) = &page.next_cursor {
                    map.serialize_entry("nextCursor", next)?;
                }
                if server_info.is_some() {
                    map.serialize_entry("resultType", "complete")?;
                }
                map.serialize_entry("tools", page)?;
                if let Some(ttl_ms) = ttl_ms {
                    map.serialize_entry("ttlMs", ttl_ms)?;
                }
                map.end()
            }
        }
    }
}

/// A 2026-07-28 result's `_meta`: the server's identity.
struct ServerInfoMeta<'a>(&'a Value);

impl serde::Serialize for ServerInfoMeta<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(Some(1))?;
        map.serialize_entry(crate::protocol::meta::SERVER_INFO, self.0)?;
        map.end()
    }
}

/// Wraps an answer in its JSON-RPC envelope.
pub(crate) fn envelope(id: RequestId, answer: Answer, unknown_id: UnknownId) -> Reply {
    let (result, request) = match answer {
        Answer::Now(Ok(result)) => return Reply::Ready(result.response(&id)),
        Answer::Now(Err(error)) => {
            return Reply::Ready(Response::failure(Some(&id), &error, unknown_id));
        }
        Answer::Later { result, request } => (PendingResult::Future(result), request),
        Answer::Call(call) => {
            let request = Some(call.finishing.request.clone());
            (PendingResult::Call(call), request)
        }
    };
    let response = PendingResponse {
        id: id.clone(),
        result,
    };
    Reply::Pending {
        id,
        response,
        request,
    }
}
