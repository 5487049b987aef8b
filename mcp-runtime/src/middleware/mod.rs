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
//! A layer that refuses a call returns an error result ([`CallToolResult::error`](crate::CallToolResult::error)): the
//! client gets it as `isError`, as from a tool; a read, a prompt or a completion is refused
//! with a [`RequestError`], its JSON-RPC error. A layer that panics is caught like a tool:
//! the client gets ``Tool `x` failed: it panicked.`` (a JSON-RPC error `-32603` for the
//! others), the panic is logged, and the server goes on serving. With
//! [`Server::mask_error_details`](crate::Server::mask_error_details), a tool's error details
//! are masked after the last layer returned, so an audit layer still sees them; a read's or a
//! prompt's are masked before the layers see them.

mod audit;
mod cache;
mod layer;
mod request;

pub use audit::Audit;
pub use cache::ResponseCache;
pub use layer::{FromFn, Layer, LayerFuture, Next, Passed, ServedFuture, SharedLayer, from_fn};
pub(crate) use layer::{ServerLayers, run_chain};
pub(crate) use request::ToolFacts;
pub use request::{RequestError, ServedRequest, ToolRequest};
