//! The answers the dispatcher gives: a response ready now, or one a running call gives
//! later; how a batch or a cancellation is reported to the transport; and the result body
//! before its JSON-RPC envelope.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use serde_json::Value;

use super::call::ToolCallPipeline;
use crate::context::RequestHandle;
use crate::protocol::jsonrpc::{RequestId, Response, RpcError, UnknownId, write_success};
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
    /// Running as a future; `request` fires its context's cancellation token.
    Future {
        future: Pin<Box<dyn Future<Output = Body> + Send + 'static>>,
        request: Option<RequestHandle>,
    },
    /// A tool call not started yet, held as it is: one done at once is answered without
    /// ever becoming a future ([`ToolCallPipeline::finish_at_once`]).
    Call(Box<ToolCallPipeline>),
}

impl PendingResult {
    /// The work as a future, made one if it is not yet.
    fn future(&mut self) -> &mut Pin<Box<dyn Future<Output = Body> + Send + 'static>> {
        if let PendingResult::Call(_) = self {
            // A placeholder for the moment the call is moved out: a zero-sized future,
            // which `Box` does not allocate for.
            let placeholder = PendingResult::Future {
                future: Box::pin(std::future::pending()),
                request: None,
            };
            let PendingResult::Call(call) = std::mem::replace(self, placeholder) else {
                unreachable!("checked above")
            };
            *self = PendingResult::Future {
                request: call.finishing.request.clone(),
                future: Box::pin(call.run()),
            };
        }
        match self {
            PendingResult::Future { future, .. } => future,
            PendingResult::Call(_) => unreachable!("made a future above"),
        }
    }

    /// The handle that fires the request's cancellation token, if it has a context.
    fn request(&self) -> Option<RequestHandle> {
        match self {
            PendingResult::Future { request, .. } => request.clone(),
            PendingResult::Call(call) => call.finishing.request.clone(),
        }
    }
}

impl PendingResponse {
    /// The handle that fires the request's cancellation token, if it has a context: taken
    /// only for a call that goes on as a task, not for every call.
    pub(crate) fn request(&self) -> Option<RequestHandle> {
        self.result.request()
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
    /// A tool call whose response comes later. `id` identifies it for cancellation.
    Pending {
        id: RequestId,
        response: PendingResponse,
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
    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    pub(crate) fn answered_at_once(self) -> Result<Response, Reply> {
        self.done_at_once().map(Done::into_response)
    }

    /// [`answered_at_once`](Self::answered_at_once), with a call's result not yet
    /// serialized: a transport that writes it into its own output spares the response a
    /// buffer of its own.
    #[allow(clippy::result_large_err)]
    pub(crate) fn done_at_once(self) -> Result<Done, Reply> {
        match self {
            Reply::Ready(response) => Ok(Done::Response(response)),
            Reply::Pending { id, mut response } => {
                if let PendingResult::Call(call) = response.result {
                    match call.finish_at_once() {
                        Ok(body) => return Ok(Done::Result { id, body }),
                        Err(call) => response.result = PendingResult::Call(call),
                    }
                }
                // A no-op waker: nothing is to be woken by this one poll.
                let mut first_poll = std::task::Context::from_waker(std::task::Waker::noop());
                match Pin::new(&mut response).poll(&mut first_poll) {
                    std::task::Poll::Ready(response) => Ok(Done::Response(response)),
                    std::task::Poll::Pending => Err(Reply::Pending { id, response }),
                }
            }
        }
    }
}

/// A reply done at once: a response, or the result of a call that is its response once
/// wrapped in its envelope.
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

/// The body of a request's answer before it is wrapped in a JSON-RPC envelope.
pub(crate) enum Answer {
    Now(Result<Body, RpcError>),
    Later {
        result: Pin<Box<dyn Future<Output = Body> + Send + 'static>>,
        request: Option<RequestHandle>,
    },
    /// A tool call, not started yet. Boxed: the pipeline is about 150 bytes, which the
    /// envelope, the reply and the transport otherwise copied about ten times on the way
    /// to its first poll (each a `memcpy`), for one allocation here; a call that goes on
    /// as a task would be boxed as a future anyway.
    Call(Box<ToolCallPipeline>),
}

impl Answer {
    /// The answer with any call in it made a future.
    #[cfg(feature = "otel")]
    pub(crate) fn later(self) -> Answer {
        match self {
            Answer::Call(call) => Answer::Later {
                request: call.finishing.request.clone(),
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
        Response::success(id, |out| self.write_result(out))
    }

    /// [`response`](Self::response)'s JSON, appended to `out`.
    pub(crate) fn write_response(&self, id: &RequestId, out: &mut Vec<u8>) {
        match self {
            Body::Failure(error) => {
                out.extend_from_slice(Response::failure(Some(id), error, UnknownId::Null).json())
            }
            _ => write_success(id, |out| self.write_result(out), out),
        }
    }

    fn write_result(&self, out: &mut Vec<u8>) {
        match self {
            Body::ToolResult(result) => result.write_json(out),
            body => serde_json::to_writer(out, body).expect("a result always serializes"),
        }
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
    let result = match answer {
        Answer::Now(Ok(result)) => return Reply::Ready(result.response(&id)),
        Answer::Now(Err(error)) => {
            return Reply::Ready(Response::failure(Some(&id), &error, unknown_id));
        }
        Answer::Later { result, request } => PendingResult::Future {
            future: result,
            request,
        },
        Answer::Call(call) => PendingResult::Call(call),
    };
    let response = PendingResponse {
        id: id.clone(),
        result,
    };
    Reply::Pending { id, response }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::jsonrpc::code;
    use crate::protocol::version::ProtocolVersion;
    use crate::tool::result::CallToolResult;

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
