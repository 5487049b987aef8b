//! Where a request meets telemetry (feature `otel`; the spans and metrics themselves are in
//! `crate::telemetry`): its span opened and entered when it is decoded, so the dispatcher
//! and everything it starts run inside it, and ended with its answer — at once, or when the
//! work handed back to the transport finishes (`Answer::Pending`). A call that runs as a task
//! ends its request's span with the created task; its work gets a span of its own.
//!
//! An error is what the conventions call one: a JSON-RPC error (its code is `error.type`)
//! or a tool result with `isError` (`tool_error`).

use std::borrow::Cow;
use std::future::Future;
use std::pin::Pin;

use serde_json::Value;
use tracing::Instrument as _;

use super::Session;
use super::body::Body;
use super::reply::Answer;
use crate::protocol::jsonrpc::{Params, RequestId, RpcError, StringMember};
use crate::task::store::TaskRecord;
use crate::telemetry::{self, Arrival, Outcome, Request, Started, Target};

impl Session {
    /// Opens the request's span, enters it and starts its clock.
    pub(super) fn trace_request(
        &self,
        id: &RequestId,
        method: &str,
        params: &Params<'_>,
    ) -> Started {
        let name = match &params.name {
            Some(StringMember::Text(name)) => Some(&**name),
            _ => None,
        };
        let target = match (method, name) {
            ("tools/call", Some(name)) => Target::Tool {
                name,
                known: self
                    .core
                    .tools
                    .catalog()
                    .get(name)
                    .map(|tool| tool.shared_name()),
            },
            ("prompts/get", Some(name)) => Target::Prompt {
                name,
                known: self
                    .core
                    .prompts
                    .catalog()
                    .get(name)
                    .map(|prompt| Cow::Owned(prompt.name().to_owned())),
            },
            ("resources/read" | "resources/subscribe" | "resources/unsubscribe", _) => params
                .others
                .get("uri")
                .and_then(Value::as_str)
                .map_or(Target::None, Target::Resource),
            _ => Target::None,
        };
        let arrival = Arrival {
            id,
            method,
            target,
            meta: params.meta(),
        };
        Request::start(arrival, &self.telemetry, &self.core.metrics)
    }

    /// Ends the request's span with its answer, or hands the span to the work that will
    /// answer it.
    pub(super) fn traced_answer(&self, started: Started, answer: Answer) -> Answer {
        let mut request = started.exit();
        request.served_under(self.negotiated);
        match answer {
            Answer::Ready(result) => {
                request.finish(match &result {
                    Ok(body) => outcome(body),
                    Err(error) => error_outcome(error),
                });
                Answer::Ready(result)
            }
            Answer::Pending {
                result,
                request: handle,
                server_info,
            } => {
                let span = request.span().clone();
                let traced = async move {
                    let body = result.await;
                    request.finish(outcome(&body));
                    body
                };
                Answer::Pending {
                    result: Box::pin(traced.instrument(span)),
                    request: handle,
                    server_info,
                }
            }
        }
    }

    /// The messages handled next came in an HTTP request with these headers (its trace
    /// context), in the handshake-era session with this id.
    #[cfg(feature = "http")]
    pub fn traced_http(&mut self, headers: &axum::http::HeaderMap, session_id: Option<&str>) {
        self.telemetry.http(headers, session_id);
    }

    /// The connection (stdio) or session (HTTP) ended: its duration is recorded, once.
    pub fn record_session_end(&mut self) {
        self.telemetry.ended(&self.core.metrics, self.negotiated);
    }
}

/// A call's work that runs as a task, in a span of its own under the request's (current)
/// span, marked failed if the call fails.
pub(super) fn traced_task(
    work: Pin<Box<dyn Future<Output = Body> + Send + 'static>>,
    record: &TaskRecord,
) -> Pin<Box<dyn Future<Output = Body> + Send + 'static>> {
    let span = telemetry::task_span(&record.tool, &record.id);
    let marked = span.clone();
    Box::pin(
        async move {
            let body = work.await;
            match outcome(&body) {
                Outcome::Error { code, message } => {
                    telemetry::mark_error(&marked, code.to_string(), message);
                }
                Outcome::ToolError => telemetry::mark_error(
                    &marked,
                    "tool_error".to_owned(),
                    "the tool reported an error (isError)",
                ),
                Outcome::Success | Outcome::Cancelled => {}
            }
            body
        }
        .instrument(span),
    )
}

fn outcome(body: &Body) -> Outcome<'_> {
    match body {
        Body::Failure(error) => error_outcome(error),
        Body::ToolResult(result) if result.is_error() => Outcome::ToolError,
        Body::ToolResult(_) | Body::Json(_) | Body::Page { .. } => Outcome::Success,
    }
}

fn error_outcome(error: &RpcError) -> Outcome<'_> {
    Outcome::Error {
        code: error.code,
        message: &error.message,
    }
}
