//! [`Audit`]: one `tracing` event per tool call, read, prompt and completion — who asked
//! for what, how it ended, how long it took.

use std::sync::Arc;
use std::time::Instant;

use crate::context::Context;
use crate::middleware::layer::{Layer, LayerFuture, Next, ServedFuture};
use crate::middleware::request::{ServedRequest, ToolRequest};

type Identify = Arc<dyn Fn(&Context) -> Option<String> + Send + Sync>;

/// A layer that records every tool call, resource read, prompt and completion as one
/// `tracing` event at `INFO`, with target `mcp_runtime::audit`, once it has ended:
///
/// | field | value |
/// |---|---|
/// | `method` | `tools/call`, `resources/read`, `prompts/get` or `completion/complete` |
/// | `name` | the tool's name, the resource's URI, the prompt's name (a completion's prompt or template) |
/// | `caller` | who called, as [`identify`](Audit::identify) says; `-` when unknown |
/// | `request_id` | the JSON-RPC id of the call |
/// | `protocol_version` | the revision the call was served under |
/// | `outcome` | `ok`, `error` (an `isError` result, including refusals by rate limits, time limits and panics; a JSON-RPC error for the others) or `input_required` (2026-07-28, the request waits for the client) |
/// | `duration_us` | microseconds from the layer to the result |
///
/// The event goes wherever the application's subscriber sends `tracing` events (the
/// runtime's own writes them to stderr, filtered by `RUST_LOG`, e.g.
/// `RUST_LOG=mcp_runtime::audit=info`). Put it first (outermost) to time everything the
/// other layers do, last to time the tool alone.
///
/// ```
/// use mcp_runtime::Server;
/// use mcp_runtime::middleware::Audit;
///
/// struct User { name: String }
///
/// let server = Server::new("notes", "1.0.0").layer(
///     Audit::new().identify(|context| context.principal::<User>().map(|user| user.name.clone())),
/// );
/// # drop(server);
/// ```
#[derive(Clone, Default)]
pub struct Audit {
    identify: Option<Identify>,
}

impl Audit {
    /// An audit layer that does not name callers.
    pub fn new() -> Self {
        Audit::default()
    }

    /// Names the caller of each request, typically from its principal.
    pub fn identify(
        mut self,
        identify: impl Fn(&Context) -> Option<String> + Send + Sync + 'static,
    ) -> Self {
        self.identify = Some(Arc::new(identify));
        self
    }

    /// Everything recorded about a request but its outcome and duration.
    fn start(&self, method: &'static str, name: &str, context: &Context) -> Started {
        Started {
            method,
            name: name.to_owned(),
            caller: self
                .identify
                .as_ref()
                .and_then(|identify| identify(context))
                .unwrap_or_else(|| "-".to_owned()),
            request_id: context.request_id().to_string(),
            version: context.protocol_version().as_str(),
            started: Instant::now(),
        }
    }
}

/// A request on its way, until its outcome is recorded.
struct Started {
    method: &'static str,
    name: String,
    caller: String,
    request_id: String,
    version: &'static str,
    started: Instant,
}

impl Started {
    fn record(self, outcome: &str) {
        tracing::info!(
            target: "mcp_runtime::audit",
            method = self.method,
            name = %self.name,
            caller = %self.caller,
            request_id = %self.request_id,
            protocol_version = self.version,
            outcome,
            duration_us = self.started.elapsed().as_micros() as u64,
            "request"
        );
    }
}

impl Layer for Audit {
    fn call(&self, call: ToolRequest, next: Next) -> LayerFuture {
        let started = self.start(call.method(), call.name(), call.context());
        Box::pin(async move {
            let result = next.run(call).await;
            started.record(if result.awaits_input() {
                "input_required"
            } else if result.is_error {
                "error"
            } else {
                "ok"
            });
            result
        })
    }

    fn serve(&self, request: ServedRequest, next: Next<ServedRequest>) -> ServedFuture {
        let started = self.start(request.method(), request.name(), request.context());
        Box::pin(async move {
            let outcome = next.run(request).await;
            started.record(match &outcome {
                Ok(result) if result["resultType"] == "input_required" => "input_required",
                Ok(_) => "ok",
                Err(_) => "error",
            });
            outcome
        })
    }
}
