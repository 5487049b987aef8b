//! Running a tool: the async and blocking call paths the macro uses.
//!
//! Parameters are extracted on the async side, in declaration order; the first that cannot
//! be produced answers the call with an `isError` result and the tool does not run.

use std::future::Future;
use std::pin::Pin;

use crate::context::log_layer::with_current;
use crate::tool::extract::ToolCall;
use crate::tool::result::{CallToolResult, IntoCallToolResult};

/// The future of one tool call. Panics inside it are caught by the dispatcher.
#[doc(hidden)]
pub type ToolFuture = Pin<Box<dyn Future<Output = CallToolResult> + Send + 'static>>;

/// Runs an `async fn` tool: extract its parameters, then await it.
#[doc(hidden)]
pub fn call_async<F, Fut>(mut call: ToolCall, tool: F) -> ToolFuture
where
    F: FnOnce(&mut ToolCall) -> Result<Fut, CallToolResult>,
    Fut: Future + Send + 'static,
    Fut::Output: IntoCallToolResult,
{
    match tool(&mut call) {
        Ok(running) => Box::pin(async move { running.await.into_call_tool_result() }),
        Err(rejected) => Box::pin(std::future::ready(rejected)),
    }
}

/// Runs a plain `fn` tool on a thread of its own (reused from call to call, detached so a
/// tool that never returns cannot keep the process from exiting; see `blocking`), so a slow
/// or CPU-bound tool never stalls the tasks serving other calls.
#[doc(hidden)]
pub fn call_blocking<F, G, R>(mut call: ToolCall, tool: F) -> ToolFuture
where
    F: FnOnce(&mut ToolCall) -> Result<G, CallToolResult>,
    G: FnOnce() -> R + Send + 'static,
    R: IntoCallToolResult + 'static,
{
    let run = match tool(&mut call) {
        Ok(run) => run,
        Err(rejected) => return Box::pin(std::future::ready(rejected)),
    };
    // The blocking thread gets the tool's context, so its `tracing` events are forwarded
    // too when that is on.
    let forwarded = call
        .context_made_before()
        .filter(|context| context.forwards_tracing())
        .cloned();
    Box::pin(async move {
        let blocking = crate::tool::blocking::run(move || {
            with_current(forwarded, || run().into_call_tool_result())
        });
        match blocking.await {
            Ok(result) => result,
            // Re-raise the panic so the dispatcher handles it like any async tool's panic.
            Err(panic) => std::panic::resume_unwind(panic),
        }
    })
}
