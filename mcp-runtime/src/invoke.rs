//! Running a tool: argument decoding and the async / blocking call paths the macro uses.

use std::future::Future;
use std::pin::Pin;

use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use crate::result::{CallToolResult, IntoCallToolResult};

/// The future of one tool call. Panics inside it are caught by the dispatcher.
#[doc(hidden)]
pub type ToolFuture = Pin<Box<dyn Future<Output = CallToolResult> + Send + 'static>>;

/// What a tool receives for one call.
#[doc(hidden)]
pub struct Invocation {
    pub(crate) arguments: Map<String, Value>,
}

impl Invocation {
    pub(crate) fn new(arguments: Map<String, Value>) -> Self {
        Invocation { arguments }
    }
}

/// Decodes the arguments object into the macro's arguments struct. Failures become an
/// `isError` result naming the argument, so the model can correct the call.
fn decode_arguments<A: DeserializeOwned>(
    arguments: Map<String, Value>,
) -> Result<A, CallToolResult> {
    serde_path_to_error::deserialize(Value::Object(arguments)).map_err(|error| {
        let path = error.path().to_string();
        let inner = error.into_inner();
        if path == "." {
            CallToolResult::error(format!("Invalid arguments: {inner}"))
        } else {
            CallToolResult::error(format!("Invalid argument `{path}`: {inner}"))
        }
    })
}

/// Runs an `async fn` tool: decode the arguments, then await the user's function.
#[doc(hidden)]
pub fn call_async<A, F, Fut>(invocation: Invocation, tool: F) -> ToolFuture
where
    A: DeserializeOwned,
    F: FnOnce(A) -> Fut,
    Fut: Future + Send + 'static,
    Fut::Output: IntoCallToolResult,
{
    match decode_arguments::<A>(invocation.arguments) {
        Ok(arguments) => {
            let running = tool(arguments);
            Box::pin(async move { running.await.into_call_tool_result() })
        }
        Err(result) => Box::pin(std::future::ready(result)),
    }
}

/// Runs a plain `fn` tool on tokio's blocking pool, so a slow or CPU-bound tool never
/// stalls the tasks serving other calls.
#[doc(hidden)]
pub fn call_blocking<A, F, R>(invocation: Invocation, tool: F) -> ToolFuture
where
    A: DeserializeOwned + Send + 'static,
    F: FnOnce(A) -> R + Send + 'static,
    R: IntoCallToolResult + 'static,
{
    let arguments = match decode_arguments::<A>(invocation.arguments) {
        Ok(arguments) => arguments,
        Err(result) => return Box::pin(std::future::ready(result)),
    };
    Box::pin(async move {
        let blocking = tokio::task::spawn_blocking(move || tool(arguments).into_call_tool_result());
        match blocking.await {
            Ok(result) => result,
            // Re-raise the panic so the dispatcher handles it like any async tool's panic.
            Err(error) if error.is_panic() => std::panic::resume_unwind(error.into_panic()),
            Err(_) => CallToolResult::error("The tool was cancelled."),
        }
    })
}
