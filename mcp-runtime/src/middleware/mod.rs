//! Middleware: layers that wrap every request that runs your code — tool calls, resource
//! reads, prompts, completions — for what cuts across them: audit logs, caching, metrics,
//! extra checks, written once instead of in every function.
//!
//! A [`Layer`] sees a tool call ([`ToolRequest`]: the tool, its validated arguments, its
//! [`Context`](crate::Context) with the principal and the request's ids) and decides what
//! happens: call [`Next::run`] to go on toward the tool and look at (or rewrite) the result,
//! or answer without it. Its [`serve`](Layer::serve) method does the same for a
//! `resources/read`, `prompts/get` or `completion/complete` ([`ServedRequest`], answered
//! with the JSON result or a [`RequestError`]); by default it passes them on. [`from_fn`]
//! makes a tool-call layer from an `async` closure, as axum's `middleware::from_fn` does:
//!
//! ```
//! use mcp_runtime::Server;
//! use mcp_runtime::middleware::{Next, ToolRequest, from_fn};
//!
//! let server = Server::new("notes", "1.0.0").layer(from_fn(|call: ToolRequest, next: Next| async move {
//!     let started = std::time::Instant::now();
//!     let name = call.name().to_owned();
//!     let result = next.run(call).await;
//!     tracing::info!(tool = %name, elapsed = ?started.elapsed(), failed = result.is_error, "call");
//!     result
//! }));
//! # drop(server);
//! ```
//!
//! # Why this shape rather than tower's `Service`
//!
//! A request here has one request type and one result type, is never "not ready", and is
//! already bounded by the runtime's own slots and rate limits; tower's `poll_ready`,
//! `Clone` services and generic error types would add ceremony and an allocation per layer
//! without a use. A layer here is one method that gets the call and what comes next — the
//! shape of axum's `from_fn`, which Rust web developers know — and a server without layers
//! pays nothing for the feature (the chain is skipped).
//!
//! # Order
//!
//! Layers run outermost first, in this order (reads, prompts and completions go through the
//! first only):
//! 1. the server's, in the order of [`Server::layer`](crate::Server::layer) calls;
//! 2. those added for one of the tool's tags ([`Server::layer_for_tag`](crate::Server::layer_for_tag)),
//!    in the order they were added;
//! 3. the tool's own (`#[mcp_tool(layer = ...)]`, [`DynamicTool::layer`](crate::DynamicTool::layer)),
//!    in the order written.
//!
//! Innermost, beside the tool, sit the limits a tool states for itself and the server's:
//! the rate limits (a refused call is an `isError` result the layers see), the concurrency
//! slots and the time limit. They bound the tool's own work, so a layer's waiting (a cache
//! lookup, an audit write) takes no slot and no time from the tool.
//!
//! What is checked before any layer: the tool (resource, prompt) exists, its arguments are
//! valid, the caller holds its scopes. A layer sees only requests that would run.
//!
//! # Errors and panics
//!
//! A layer that refuses a call returns an error result ([`CallToolResult::error`]): the
//! client gets it as `isError`, as from a tool; a read, a prompt or a completion is refused
//! with a [`RequestError`], its JSON-RPC error. A layer that panics is caught like a tool:
//! the client gets ``Tool `x` failed: it panicked.`` (a JSON-RPC error `-32603` for the
//! others), the panic is logged, and the server goes on serving. With
//! [`Server::mask_error_details`](crate::Server::mask_error_details), a tool's error details
//! are masked after the last layer returned, so an audit layer still sees them; a read's or a
//! prompt's are masked before the layers see them.

mod audit;
mod cache;
mod request;

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use serde_json::Value;

use crate::tool::catalog::CatalogTool;
use crate::tool::result::CallToolResult;

pub use audit::Audit;
pub use cache::ResponseCache;
pub use request::{RequestError, ServedRequest, ToolRequest};

/// The future a [`Layer`] returns for a tool call: the call's result.
pub type LayerFuture = Pin<Box<dyn Future<Output = CallToolResult> + Send>>;

/// The future a [`Layer`] returns for a read, a prompt or a completion: the JSON result, or
/// the JSON-RPC error.
pub type ServedFuture = Pin<Box<dyn Future<Output = Result<Value, RequestError>> + Send>>;

/// Something that wraps requests. See the [module](self) for the order layers run in and
/// how errors and panics are handled.
///
/// [`call`](Layer::call) wraps tool calls; [`serve`](Layer::serve) wraps `resources/read`,
/// `prompts/get` and `completion/complete`, and passes them on unless a layer says
/// otherwise. Implement it for a type that holds its own state (behind an `Arc` if the
/// returned future needs it), or make a tool-call layer from a closure with [`from_fn`].
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a layer",
    label = "not an `mcp_runtime::middleware::Layer`",
    note = "a layer implements `mcp_runtime::middleware::Layer`, or is made from an async closure: \
            `middleware::from_fn(|call, next| async move {{ next.run(call).await }})`"
)]
pub trait Layer: Send + Sync + 'static {
    /// Handles one tool call: usually does something, awaits `next.run(call)`, and returns
    /// its result (or another); or returns a result without calling `next`, and the tool
    /// does not run.
    fn call(&self, call: ToolRequest, next: Next) -> LayerFuture;

    /// Handles one read, prompt or completion, as [`call`](Layer::call) a tool call. The
    /// default passes it on untouched.
    fn serve(&self, request: ServedRequest, next: Next<ServedRequest>) -> ServedFuture {
        next.run(request)
    }
}

impl<L: Layer + ?Sized> Layer for Arc<L> {
    fn call(&self, call: ToolRequest, next: Next) -> LayerFuture {
        (**self).call(call, next)
    }

    fn serve(&self, request: ServedRequest, next: Next<ServedRequest>) -> ServedFuture {
        (**self).serve(request, next)
    }
}

/// A layer made from an `async` closure `|call, next| async move { ... }`; see [`from_fn`].
pub struct FromFn<F>(F);

/// Makes a [`Layer`] from an `async` closure taking the call and what comes next.
///
/// ```
/// use mcp_runtime::CallToolResult;
/// use mcp_runtime::middleware::{Next, ToolRequest, from_fn};
///
/// // Refuses destructive tools on Fridays, without running them.
/// let layer = from_fn(|call: ToolRequest, next: Next| async move {
///     if call.is_destructive() && is_friday() {
///         return CallToolResult::error("No destructive tools on Fridays.");
///     }
///     next.run(call).await
/// });
/// # fn is_friday() -> bool { false }
/// # drop(layer);
/// ```
pub fn from_fn<F, Fut>(function: F) -> FromFn<F>
where
    F: Fn(ToolRequest, Next) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = CallToolResult> + Send + 'static,
{
    FromFn(function)
}

impl<F, Fut> Layer for FromFn<F>
where
    F: Fn(ToolRequest, Next) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = CallToolResult> + Send + 'static,
{
    fn call(&self, call: ToolRequest, next: Next) -> LayerFuture {
        Box::pin((self.0)(call, next))
    }
}

/// A layer as the runtime keeps it: shared, its type erased.
pub type SharedLayer = Arc<dyn Layer>;

/// A request a layer can pass on: a tool call, or a read, a prompt or a completion.
pub trait Passed: Send + Sized + 'static {
    /// What the request ends with.
    type Outcome: Send + 'static;

    /// Hands the request to `layer`.
    #[doc(hidden)]
    fn enter(
        layer: &dyn Layer,
        request: Self,
        next: Next<Self>,
    ) -> Pin<Box<dyn Future<Output = Self::Outcome> + Send>>;
}

impl Passed for ToolRequest {
    type Outcome = CallToolResult;

    fn enter(layer: &dyn Layer, request: Self, next: Next<Self>) -> LayerFuture {
        layer.call(request, next)
    }
}

impl Passed for ServedRequest {
    type Outcome = Result<Value, RequestError>;

    fn enter(layer: &dyn Layer, request: Self, next: Next<Self>) -> ServedFuture {
        layer.serve(request, next)
    }
}

/// Runs the request once the last layer passed it on.
type Innermost<R> =
    Box<dyn FnOnce(R) -> Pin<Box<dyn Future<Output = <R as Passed>::Outcome> + Send>> + Send>;

/// What comes after a layer: the next layer, or at the end the tool (under its limits) or
/// the read, prompt or completion. Consumed by [`run`](Next::run), so each layer passes a
/// request on at most once.
pub struct Next<R: Passed = ToolRequest> {
    layers: Arc<[SharedLayer]>,
    position: usize,
    innermost: Innermost<R>,
}

impl<R: Passed> Next<R> {
    /// A chain of `layers` ending in `innermost`.
    pub(crate) fn new(layers: Arc<[SharedLayer]>, innermost: Innermost<R>) -> Self {
        Next {
            layers,
            position: 0,
            innermost,
        }
    }

    /// Passes the request on, and gives its outcome.
    pub fn run(self, request: R) -> Pin<Box<dyn Future<Output = R::Outcome> + Send>> {
        match self.layers.get(self.position) {
            Some(layer) => {
                let layer = Arc::clone(layer);
                let next = Next {
                    layers: self.layers,
                    position: self.position + 1,
                    innermost: self.innermost,
                };
                R::enter(layer.as_ref(), request, next)
            }
            None => (self.innermost)(request),
        }
    }
}

/// Runs `request` through `layers` to `innermost`, catching a layer's panic (also one
/// raised before its future exists) as `panicked` says.
pub(crate) async fn run_chain<R: Passed>(
    layers: Arc<[SharedLayer]>,
    request: R,
    innermost: Innermost<R>,
    panicked: impl FnOnce(Box<dyn std::any::Any + Send>) -> R::Outcome,
) -> R::Outcome {
    use futures_util::FutureExt as _;
    let chain = async move { Next::new(layers, innermost).run(request).await };
    match std::panic::AssertUnwindSafe(chain).catch_unwind().await {
        Ok(outcome) => outcome,
        Err(panic) => panicked(panic),
    }
}

/// The layers a server adds: to every tool, and to the tools of a tag.
#[derive(Clone, Default)]
pub(crate) struct ServerLayers {
    pub every_request: Vec<SharedLayer>,
    pub by_tag: Vec<(String, SharedLayer)>,
    /// `every_request`, shared by every read, prompt and completion once made.
    served: std::sync::OnceLock<Arc<[SharedLayer]>>,
}

impl std::fmt::Debug for ServerLayers {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let tags: Vec<&str> = self.by_tag.iter().map(|(tag, _)| tag.as_str()).collect();
        f.debug_struct("ServerLayers")
            .field("every_request", &self.every_request.len())
            .field("by_tag", &tags)
            .finish()
    }
}

impl ServerLayers {
    /// The chain of reads, prompts and completions: the server's layers.
    pub fn served(&self) -> &Arc<[SharedLayer]> {
        self.served
            .get_or_init(|| self.every_request.clone().into())
    }

    /// The chain for `tool`: the server's layers, its tags', then its own.
    pub fn chain_for(&self, tool: &CatalogTool) -> Arc<[SharedLayer]> {
        let mut chain: Vec<SharedLayer> = self.every_request.clone();
        chain.extend(
            self.by_tag
                .iter()
                .filter(|(tag, _)| tool.has_tag(tag))
                .map(|(_, layer)| Arc::clone(layer)),
        );
        chain.extend(tool.own_layers());
        chain.into()
    }
}
