//! The call pipeline: what happens to a `tools/call` once its arguments are valid, in the
//! order it happens — **admit** (rate limits, then the tool's and the server's concurrency
//! slots), **run guarded** (the tool under its timeout, panics caught, and under 2026-07-28
//! stopped when it waits for input the client has not given), **mask** (private error
//! details kept from the client when the server says so), **shape** (the result written as
//! the request's revision expects).

use std::borrow::Cow;
use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use futures_util::FutureExt as _;
use tokio::sync::{AcquireError, OwnedSemaphorePermit, Semaphore};

use super::admission::Admission;
use super::reply::Body;
use crate::content::ContentBody;
use crate::context::client_requests::InputRound;
use crate::context::{RequestHandle, log_layer};
use crate::middleware::{LayerFuture, SharedLayer, ToolRequest, run_chain};
use serde_json::{Map, Value};

use crate::context::Context;
use crate::protocol::jsonrpc::TypedArguments;
use crate::protocol::version::ProtocolVersion;
use crate::tool::catalog::CatalogTool;
use crate::tool::extract::States;
use crate::tool::invoke::ToolFuture;
use crate::tool::result::{CallToolResult, ToolError};
use crate::tool::shape::ShapedResult;

/// One tool call with valid arguments and its context made, ready to go through the
/// pipeline. Everything is owned, so the pipeline runs as a task of its own.
pub(super) struct ToolCallPipeline {
    /// The tool's name, for messages and logs.
    pub name: Cow<'static, str>,
    pub version: ProtocolVersion,
    /// The tool's work: started already, or made by the last of its layers.
    pub work: ToolWork,
    /// Whether the tool's structured output is wrapped as `{"result": …}`.
    pub wraps_output: bool,
    /// 2026-07-28: the input round this attempt answers, if any.
    pub round: Option<Arc<InputRound>>,
    pub admission: Admission,
    /// `max_concurrency`: the tool's own slots, if it limits them.
    pub tool_slots: Option<Arc<Semaphore>>,
    /// `max_in_flight`: the server-wide slots.
    pub server_slots: Arc<Semaphore>,
    pub timeout: Option<Duration>,
    pub mask_errors: bool,
    /// The request's handle: finished when the call is answered (nothing about it may be
    /// sent after its response), cancelled when it times out.
    pub request: RequestHandle,
}

/// What the pipeline runs.
pub(super) enum ToolWork {
    /// A tool without layers — the common case, kept as lean as a call without the
    /// feature: its future, parameters extracted.
    Direct(ToolFuture),
    /// A tool with layers: the call as they see it, invoked once the last passes it on.
    Layered {
        layers: Arc<[SharedLayer]>,
        call: ToolRequest,
        states: Arc<States>,
        forward_tracing: bool,
    },
}

/// The steps around the tool itself, after any layers: admission, then the tool under its
/// slots and time limit, panics caught.
struct Guards {
    round: Option<Arc<InputRound>>,
    admission: Admission,
    tool_slots: Option<Arc<Semaphore>>,
    server_slots: Arc<Semaphore>,
    timeout: Option<Duration>,
}

impl ToolCallPipeline {
    /// Runs the call through every step and gives its result.
    pub async fn run(self) -> Body {
        let ToolCallPipeline {
            name,
            version,
            work,
            wraps_output,
            round,
            admission,
            tool_slots,
            server_slots,
            timeout,
            mask_errors,
            request,
        } = self;
        let guards = Guards {
            round: round.clone(),
            admission,
            tool_slots,
            server_slots,
            timeout,
        };
        let result = match work {
            ToolWork::Direct(running) => guards.run(&name, running, &request).await,
            ToolWork::Layered {
                layers,
                call,
                states,
                forward_tracing,
            } => {
                let handle = request.clone();
                let tool = Box::new(move |call: ToolRequest| {
                    Box::pin(async move {
                        let ToolRequest {
                            tool,
                            name,
                            arguments,
                            context,
                            ..
                        } = call;
                        let running = invoke(&tool, arguments, context, states, forward_tracing);
                        guards.run(&name, running, &handle).await
                    }) as LayerFuture
                });
                // A layer's panic is caught like a tool's (the tool's own was caught inside).
                run_chain(layers, call, tool, |panic| panicked(&name, panic)).await
            }
        };
        if let (true, Some(round)) = (result.awaits_input, &round) {
            request.finish();
            return Body::Json(round.input_required_result());
        }
        let result = if mask_errors {
            mask(&name, result)
        } else {
            result
        };
        // Nothing about this request may be sent after its response.
        request.finish();
        Body::ToolResult(ShapedResult::new(result, version, wraps_output))
    }
}

/// A call's arguments: a map, checked against the input schema, or decoded straight into
/// the tool's parameters (`tool::typed`).
pub(super) enum ToolArguments {
    Map(Map<String, Value>),
    Typed(TypedArguments),
}

impl From<Map<String, Value>> for ToolArguments {
    fn from(arguments: Map<String, Value>) -> Self {
        ToolArguments::Map(arguments)
    }
}

/// Starts `tool` with these arguments (forwarding its `tracing` events to the client when
/// the server says so).
pub(super) fn invoke(
    tool: &CatalogTool,
    arguments: impl Into<ToolArguments>,
    context: Context,
    states: Arc<States>,
    forward_tracing: bool,
) -> ToolFuture {
    let current = forward_tracing.then(|| context.clone());
    let invoked = match arguments.into() {
        ToolArguments::Map(arguments) => tool.invoke(arguments, context, states),
        ToolArguments::Typed(arguments) => tool.invoke_typed(arguments, context, states),
    };
    match current {
        Some(current) => Box::pin(log_layer::forwarding(invoked, current)),
        None => invoked,
    }
}

impl Guards {
    async fn run(self, name: &str, running: ToolFuture, request: &RequestHandle) -> CallToolResult {
        if let Err(refused) = self.admission.admit(name).await {
            return refused;
        }
        match run_guarded(
            running,
            self.round,
            self.tool_slots,
            self.server_slots,
            self.timeout,
        )
        .await
        {
            Guarded::Finished(result) => result,
            Guarded::NeedsInput(_) => CallToolResult {
                awaits_input: true,
                ..CallToolResult::default()
            },
            Guarded::Panicked(panic) => panicked(name, panic),
            Guarded::TimedOut(limit) => {
                request.cancel();
                timed_out(name, limit)
            }
        }
    }
}

/// How a guarded run of a tool (or a read, a prompt, a completion) ended.
pub(super) enum Guarded<T> {
    /// The tool returned.
    Finished(T),
    /// 2026-07-28: the tool waits for input the client has not given yet.
    NeedsInput(Arc<InputRound>),
    /// The tool panicked; the payload.
    Panicked(Box<dyn std::any::Any + Send>),
    /// The tool ran past its time limit and was stopped.
    TimedOut(Duration),
}

/// Runs the tool once it has a slot — its own first, so a busy tool does not hold
/// server-wide slots — waiting rather than failing while either is full; under its time
/// limit, with panics caught. Reads, renders and completions run through it too, without a
/// tool's slots.
pub(super) async fn run_guarded<F: Future + Unpin>(
    running: F,
    round: Option<Arc<InputRound>>,
    tool_slots: Option<Arc<Semaphore>>,
    server_slots: Arc<Semaphore>,
    timeout: Option<Duration>,
) -> Guarded<F::Output> {
    let _tool_slot = match tool_slots {
        Some(tool_slots) => Some(slot(tool_slots).await),
        None => None,
    };
    let _server_slot = slot(server_slots).await;
    let guarded = AssertUnwindSafe(UntilInputRequired {
        tool: running,
        round,
    })
    .catch_unwind();
    let finished = match timeout {
        Some(limit) => tokio::time::timeout(limit, guarded)
            .await
            .map_err(|_| limit),
        None => Ok(guarded.await),
    };
    match finished {
        Ok(Ok(Attempt::Finished(result))) => Guarded::Finished(result),
        Ok(Ok(Attempt::NeedsInput(round))) => Guarded::NeedsInput(round),
        Ok(Err(panic)) => Guarded::Panicked(panic),
        Err(limit) => Guarded::TimedOut(limit),
    }
}

/// A slot of `slots`, waited for only when none is free: taking a free one needs no
/// waiting future (about 150 instructions a call).
async fn slot(slots: Arc<Semaphore>) -> Result<OwnedSemaphorePermit, AcquireError> {
    match Arc::clone(&slots).try_acquire_owned() {
        Ok(permit) => Ok(permit),
        // No slot free, or the semaphore closed (which the wait reports as it did).
        Err(_) => slots.acquire_owned().await,
    }
}

/// The answer to a call whose tool panicked: a panic with a [`ToolError`] is public, its
/// message for the client; any other is logged and reported without its message.
fn panicked(name: &str, panic: Box<dyn std::any::Any + Send>) -> CallToolResult {
    match panic.downcast::<ToolError>() {
        Ok(public) => {
            tracing::warn!(tool = %name, panic = %public, "a tool panicked with a public error");
            CallToolResult::error(public.message().to_owned())
        }
        Err(panic) => {
            let message = panic_message(panic.as_ref());
            tracing::error!(tool = %name, panic = %message, "a tool panicked");
            CallToolResult::error(format!("Tool `{name}` failed: it panicked."))
        }
    }
}

/// The answer to a call stopped at its time limit.
fn timed_out(name: &str, limit: Duration) -> CallToolResult {
    tracing::warn!(tool = %name, ?limit, "a tool call timed out");
    CallToolResult::error(format!(
        "Tool `{name}` timed out after {} and was stopped.",
        describe_duration(limit)
    ))
}

/// With error details masked: an error not marked public is logged here and the client is
/// told only that the tool failed.
fn mask(name: &str, result: CallToolResult) -> CallToolResult {
    if !result.private_error {
        return result;
    }
    let detail: Vec<&str> = result
        .content
        .iter()
        .filter_map(|block| match &block.body {
            ContentBody::Text { text } => Some(text.as_str()),
            _ => None,
        })
        .collect();
    tracing::error!(tool = %name, error = %detail.join(" "), "a tool failed (details masked from the client)");
    CallToolResult::error(format!(
        "Tool `{name}` failed. The details were logged on the server."
    ))
}

/// How one attempt at a tool call (or a read, a prompt, a completion) ended.
enum Attempt<T> {
    /// The tool returned.
    Finished(T),
    /// 2026-07-28: the tool waits for input the client has not given yet.
    NeedsInput(Arc<InputRound>),
}

/// Runs a tool until it returns or, under 2026-07-28, until it waits for input the client
/// has not given: then this attempt stops, and the call is answered `input_required`.
/// Requests made in the same poll (e.g. two elicitations joined) are all collected.
struct UntilInputRequired<F> {
    tool: F,
    round: Option<Arc<InputRound>>,
}

impl<F: Future + Unpin> Future for UntilInputRequired<F> {
    type Output = Attempt<F::Output>;

    fn poll(
        mut self: Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Attempt<F::Output>> {
        match Pin::new(&mut self.tool).poll(cx) {
            std::task::Poll::Ready(result) => std::task::Poll::Ready(Attempt::Finished(result)),
            std::task::Poll::Pending => match &self.round {
                Some(round) if round.needs_input() => {
                    std::task::Poll::Ready(Attempt::NeedsInput(Arc::clone(round)))
                }
                _ => std::task::Poll::Pending,
            },
        }
    }
}

pub(super) fn describe_duration(duration: std::time::Duration) -> String {
    let millis = duration.as_millis();
    if millis.is_multiple_of(1000) {
        format!("{} s", millis / 1000)
    } else {
        format!("{millis} ms")
    }
}

pub(super) fn panic_message(panic: &(dyn std::any::Any + Send)) -> String {
    if let Some(message) = panic.downcast_ref::<&str>() {
        (*message).to_owned()
    } else if let Some(message) = panic.downcast_ref::<String>() {
        message.clone()
    } else {
        "a non-string panic payload".to_owned()
    }
}
