//! Middleware: layers that wrap every tool call, for what cuts across tools — audit logs,
//! caching, metrics, extra checks — written once instead of in every tool.
//!
//! A [`Layer`] sees the call ([`ToolRequest`]: the tool, its validated arguments, its
//! [`Context`] with the principal and the request's ids) and decides what happens: call
//! [`Next::run`] to go on toward the tool and look at (or rewrite) the result, or answer
//! without it. [`from_fn`] makes one from an `async` closure, as axum's
//! `middleware::from_fn` does:
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
//! A tool call has one request type and one result type, is never "not ready", and is
//! already bounded by the runtime's own slots and rate limits; tower's `poll_ready`,
//! `Clone` services and generic error types would add ceremony and an allocation per layer
//! without a use. A layer here is one method that gets the call and what comes next — the
//! shape of axum's `from_fn`, which Rust web developers know — and a server without layers
//! pays nothing for the feature (the chain is skipped).
//!
//! # Order
//!
//! Layers run outermost first, in this order:
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
//! What is checked before any layer: the tool exists, its arguments are valid, the caller
//! holds its scopes. A layer sees only calls that would run.
//!
//! # Errors and panics
//!
//! A layer that refuses a call returns an error result ([`CallToolResult::error`]): the
//! client gets it as `isError`, as from a tool. A layer that panics is caught like a tool:
//! the client gets `Tool `x` failed: it panicked.`, the panic is logged, and the server goes
//! on serving. With [`Server::mask_error_details`](crate::Server::mask_error_details), error
//! details are masked after the last layer returned, so an audit layer still sees them.

mod audit;
mod cache;

use std::borrow::Cow;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use serde_json::{Map, Value};

use crate::context::Context;
use crate::protocol::version::ProtocolVersion;
use crate::tool::catalog::CatalogTool;
use crate::tool::result::CallToolResult;

pub use audit::Audit;
pub use cache::ResponseCache;

/// The future a [`Layer`] returns: the call's result.
pub type LayerFuture = Pin<Box<dyn Future<Output = CallToolResult> + Send>>;

/// Something that wraps tool calls. See the [module](self) for the order layers run in and
/// how errors and panics are handled.
///
/// Implement it for a type that holds its own state (behind an `Arc` if the returned
/// future needs it), or make one from a closure with [`from_fn`].
pub trait Layer: Send + Sync + 'static {
    /// Handles one call: usually does something, awaits `next.run(call)`, and returns its
    /// result (or another); or returns a result without calling `next`, and the tool does
    /// not run.
    fn call(&self, call: ToolRequest, next: Next) -> LayerFuture;
}

impl<L: Layer + ?Sized> Layer for Arc<L> {
    fn call(&self, call: ToolRequest, next: Next) -> LayerFuture {
        (**self).call(call, next)
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

/// One `tools/call` as layers see it: which tool, with which (validated) arguments, for
/// whom. The tool runs with the arguments this holds when the last layer passes it on.
pub struct ToolRequest {
    pub(crate) tool: Arc<CatalogTool>,
    pub(crate) name: Cow<'static, str>,
    pub(crate) arguments: Map<String, Value>,
    pub(crate) context: Context,
    pub(crate) version: ProtocolVersion,
}

impl ToolRequest {
    /// The method: `tools/call`.
    pub fn method(&self) -> &'static str {
        "tools/call"
    }

    /// The tool's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The call's arguments, valid against the tool's input schema.
    pub fn arguments(&self) -> &Map<String, Value> {
        &self.arguments
    }

    /// The call's arguments, to change before the tool gets them. They were validated
    /// before the first layer; what a layer changes is not validated again, so keep them
    /// valid (a value the tool cannot decode fails the call with an invalid-arguments error).
    pub fn arguments_mut(&mut self) -> &mut Map<String, Value> {
        &mut self.arguments
    }

    /// The request's context: its id, the session, the principal
    /// ([`Context::principal`]), progress and log messages.
    pub fn context(&self) -> &Context {
        &self.context
    }

    /// The protocol revision the call is served under.
    pub fn protocol_version(&self) -> ProtocolVersion {
        self.version
    }

    /// Whether the tool says it only reads (`read_only`).
    pub fn is_read_only(&self) -> bool {
        self.tool.hints().read_only == Some(true)
    }

    /// Whether the tool says calling it twice with the same arguments does nothing more
    /// (`idempotent`).
    pub fn is_idempotent(&self) -> bool {
        self.tool.hints().idempotent == Some(true)
    }

    /// Whether the tool says it may destroy data (`destructive`).
    pub fn is_destructive(&self) -> bool {
        self.tool.hints().destructive == Some(true)
    }

    /// Whether the tool has this tag (`tags = [...]`).
    pub fn has_tag(&self, tag: &str) -> bool {
        self.tool.has_tag(tag)
    }

    /// The scopes the tool requires (`scopes = [...]`); the caller holds them all.
    pub fn required_scopes(&self) -> Vec<&str> {
        self.tool.scopes().collect()
    }
}

/// What comes after a layer: the next layer, or at the end the tool (under its limits).
/// Consumed by [`run`](Next::run), so each layer passes a call on at most once.
pub struct Next {
    layers: Arc<[SharedLayer]>,
    position: usize,
    tool: Box<dyn FnOnce(ToolRequest) -> LayerFuture + Send>,
}

impl Next {
    /// A chain of `layers` ending in `tool`.
    pub(crate) fn new(
        layers: Arc<[SharedLayer]>,
        tool: Box<dyn FnOnce(ToolRequest) -> LayerFuture + Send>,
    ) -> Self {
        Next {
            layers,
            position: 0,
            tool,
        }
    }

    /// Passes the call on, and gives its result.
    pub fn run(self, call: ToolRequest) -> LayerFuture {
        match self.layers.get(self.position) {
            Some(layer) => {
                let layer = Arc::clone(layer);
                let next = Next {
                    layers: self.layers,
                    position: self.position + 1,
                    tool: self.tool,
                };
                layer.call(call, next)
            }
            None => (self.tool)(call),
        }
    }
}

/// The layers a server adds: to every tool, and to the tools of a tag.
#[derive(Clone, Default)]
pub(crate) struct ServerLayers {
    pub every_tool: Vec<SharedLayer>,
    pub by_tag: Vec<(String, SharedLayer)>,
}

impl std::fmt::Debug for ServerLayers {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let tags: Vec<&str> = self.by_tag.iter().map(|(tag, _)| tag.as_str()).collect();
        f.debug_struct("ServerLayers")
            .field("every_tool", &self.every_tool.len())
            .field("by_tag", &tags)
            .finish()
    }
}

impl ServerLayers {
    /// The chain for `tool`: the server's layers, its tags', then its own.
    pub fn chain_for(&self, tool: &CatalogTool) -> Arc<[SharedLayer]> {
        let mut chain: Vec<SharedLayer> = self.every_tool.clone();
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
