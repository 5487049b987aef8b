//! One `debug` line per request, what an operator reads when a host says "the tool failed":
//! `RUST_LOG=mcp_runtime=debug` shows each request's method, the tool, prompt or resource it
//! names, its id, its outcome (`ok`, `error` with its JSON-RPC code, or `isError`) and how
//! long it took, over every transport (they all hand their requests to the dispatcher).
//!
//! With `debug` off for this module nothing is formatted, timed or allocated: the arrival
//! is noted only when [`tracing::enabled!`] says the line would be written.

use std::time::Instant;

use serde_json::Value;

use super::body::Body;
use super::reply::Answer;
use crate::protocol::jsonrpc::{Params, RequestId, RpcError, StringMember};

/// A request whose line is written once it is answered.
pub(super) struct Arrival {
    method: String,
    /// The tool, prompt or resource the request names, if it names one.
    name: Option<String>,
    id: RequestId,
    started: Instant,
    /// Whether the line was written: a request whose work is dropped unanswered (its
    /// connection ended) is logged as `dropped` when its arrival is.
    written: bool,
}

/// The request's arrival, if its line would be written.
#[inline]
pub(super) fn arrival(id: &RequestId, method: &str, params: &Params<'_>) -> Option<Arrival> {
    if !tracing::enabled!(tracing::Level::DEBUG) {
        return None;
    }
    let name = match (method, &params.name) {
        ("tools/call" | "prompts/get", Some(StringMember::Text(name))) => Some(name.to_string()),
        ("resources/read" | "resources/subscribe" | "resources/unsubscribe", _) => params
            .others
            .get("uri")
            .and_then(Value::as_str)
            .map(str::to_owned),
        _ => None,
    };
    Some(Arrival {
        method: method.to_owned(),
        name,
        id: id.clone(),
        started: Instant::now(),
        written: false,
    })
}

/// `answer`, its line written now if it is ready, or when its work is done.
#[inline]
pub(super) fn logged(arrival: Option<Arrival>, answer: Answer) -> Answer {
    let Some(mut arrival) = arrival else {
        return answer;
    };
    match answer {
        Answer::Ready(result) => {
            match &result {
                Ok(body) => arrival.write(&outcome(body)),
                Err(error) => arrival.write(&error_outcome(error)),
            }
            Answer::Ready(result)
        }
        Answer::Pending {
            result,
            request,
            server_info,
        } => Answer::Pending {
            result: Box::pin(async move {
                let body = result.await;
                arrival.write(&outcome(&body));
                body
            }),
            request,
            server_info,
        },
    }
}

impl Arrival {
    fn write(&mut self, outcome: &str) {
        self.written = true;
        tracing::debug!(
            method = self.method.as_str(),
            name = self.name.as_deref(),
            id = %self.id,
            outcome,
            duration = ?self.started.elapsed(),
            "request answered"
        );
    }
}

impl Drop for Arrival {
    fn drop(&mut self) {
        if !self.written {
            self.write("dropped");
        }
    }
}

/// How a request's body reads in its line.
fn outcome(body: &Body) -> String {
    match body {
        Body::Failure(error) => error_outcome(error),
        Body::ToolResult(result) if result.is_error() => "isError".to_owned(),
        Body::ToolResult(_) | Body::Json(_) | Body::Page { .. } => "ok".to_owned(),
    }
}

fn error_outcome(error: &RpcError) -> String {
    format!("error {}", error.code)
}
