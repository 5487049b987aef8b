//! [`Audit`]: one `tracing` event per tool call — who called what, how it ended, how long it
//! took.

use std::sync::Arc;
use std::time::Instant;

use super::{Layer, LayerFuture, Next, ToolRequest};

type Identify = Arc<dyn Fn(&ToolRequest) -> Option<String> + Send + Sync>;

/// A layer that records every tool call as one `tracing` event at `INFO`, with target
/// `mcp_runtime::audit`, once the call has ended:
///
/// | field | value |
/// |---|---|
/// | `tool` | the tool's name |
/// | `caller` | who called, as [`identify`](Audit::identify) says; `-` when unknown |
/// | `request_id` | the JSON-RPC id of the call |
/// | `protocol_version` | the revision the call was served under |
/// | `outcome` | `ok`, `error` (an `isError` result, including refusals by rate limits, time limits and panics) or `input_required` (2026-07-28, the call waits for the client) |
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
///     Audit::new().identify(|call| call.context().principal::<User>().map(|user| user.name.clone())),
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

    /// Names the caller of each call, typically from its principal.
    pub fn identify(
        mut self,
        identify: impl Fn(&ToolRequest) -> Option<String> + Send + Sync + 'static,
    ) -> Self {
        self.identify = Some(Arc::new(identify));
        self
    }
}

impl Layer for Audit {
    fn call(&self, call: ToolRequest, next: Next) -> LayerFuture {
        let caller = self
            .identify
            .as_ref()
            .and_then(|identify| identify(&call))
            .unwrap_or_else(|| "-".to_owned());
        let tool = call.name().to_owned();
        let request_id = call.context().request_id().to_string();
        let version = call.protocol_version().as_str();
        let started = Instant::now();
        Box::pin(async move {
            let result = next.run(call).await;
            let outcome = if result.awaits_input() {
                "input_required"
            } else if result.is_error {
                "error"
            } else {
                "ok"
            };
            tracing::info!(
                target: "mcp_runtime::audit",
                tool = %tool,
                caller = %caller,
                request_id = %request_id,
                protocol_version = version,
                outcome,
                duration_us = started.elapsed().as_micros() as u64,
                "tool call"
            );
            result
        })
    }
}
