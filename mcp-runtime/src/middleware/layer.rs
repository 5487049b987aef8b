//! [`Layer`] and how requests pass through a chain of layers ([`Next`]); the layers a
//! server adds ([`ServerLayers`]). The [module](crate::middleware) says in what order layers
//! run and how their errors and panics are handled.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use serde_json::Value;

use crate::middleware::request::{RequestError, ServedRequest, ToolRequest};
use crate::tool::result::CallToolResult;

/// The future a [`Layer`] returns for a tool call: the call's result.
pub type LayerFuture = Pin<Box<dyn Future<Output = CallToolResult> + Send>>;

/// The future a [`Layer`] returns for a read, a prompt or a completion: the JSON result, or
/// the JSON-RPC error.
pub type ServedFuture = Pin<Box<dyn Future<Output = Result<Value, RequestError>> + Send>>;

/// Something that wraps requests. See the [module](crate::middleware) for the order layers run in and
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

    /// The chain of a tool: the server's layers, those of the tags it has (`has_tag`), then
    /// its `own`.
    pub fn chain_for(
        &self,
        has_tag: impl Fn(&str) -> bool,
        own: Vec<SharedLayer>,
    ) -> Arc<[SharedLayer]> {
        let mut chain: Vec<SharedLayer> = self.every_request.clone();
        chain.extend(
            self.by_tag
                .iter()
                .filter(|(tag, _)| has_tag(tag))
                .map(|(_, layer)| Arc::clone(layer)),
        );
        chain.extend(own);
        chain.into()
    }
}
