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
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use futures_util::FutureExt as _;
use tokio::sync::{AcquireError, Semaphore, SemaphorePermit};

use super::admission::Admission;
use super::reply::Body;
use super::stateless::decorated;
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
pub(crate) struct ToolCallPipeline {
    /// The tool's work: started already, or made by the last of its layers.
    pub work: ToolWork,
    pub admission: Admission,
    /// `max_concurrency` and `max_in_flight`: the slots the tool runs in.
    pub slots: CallSlots,
    pub timeout: Option<Duration>,
    /// What the tool's result goes through to become the answer.
    pub finishing: Finishing,
}

/// The steps after the tool returned, and what they need.
pub(crate) struct Finishing {
    /// The tool's name, for messages and logs.
    pub name: Cow<'static, str>,
    pub version: ProtocolVersion,
    /// Whether the tool's structured output is wrapped as `{"result": …}`.
    pub wraps_output: bool,
    /// 2026-07-28: the input round this attempt answers, if any.
    pub round: Option<Arc<InputRound>>,
    pub mask_errors: bool,
    /// The request's handle: finished when the call is answered (nothing about it may be
    /// sent after its response), cancelled when it times out. `None` for a call made
    /// without a context (its tool takes only arguments): nothing can send about it.
    pub request: Option<RequestHandle>,
    /// 2026-07-28: the server's identity, for the result to carry.
    pub stateless_info: Option<Arc<Value>>,
}

/// What the pipeline runs.
pub(crate) enum ToolWork {
    /// A tool without layers — the common case, kept as lean as a call without the
    /// feature: its future, parameters extracted.
    Direct(ToolFuture),
    /// A tool with layers: the call as they see it, invoked once the last passes it on
    /// (boxed: a call is held inline until it runs, and layered ones are the rare kind).
    Layered(Box<LayeredWork>),
}

/// A call of a tool with layers, before they run.
pub(crate) struct LayeredWork {
    pub layers: Arc<[SharedLayer]>,
    pub call: ToolRequest,
    pub states: Arc<States>,
    pub forward_tracing: bool,
}

/// The server-wide call slots (`Server::max_in_flight`), and how many calls may wait for
/// a slot (`Server::max_waiting_calls`): a queue that a client cannot grow without bound.
pub(crate) struct ServerSlots {
    slots: Arc<Semaphore>,
    waiting: AtomicUsize,
    max_waiting: usize,
}

impl ServerSlots {
    pub fn new(max_in_flight: usize, max_waiting: usize) -> Self {
        ServerSlots {
            slots: Arc::new(Semaphore::new(max_in_flight)),
            waiting: AtomicUsize::new(0),
            max_waiting,
        }
    }

    /// A place among the calls waiting for slots, or `None` when all are taken.
    fn wait(&self) -> Option<Waiting<'_>> {
        if self.waiting.fetch_add(1, Ordering::Relaxed) >= self.max_waiting {
            self.waiting.fetch_sub(1, Ordering::Relaxed);
            return None;
        }
        Some(Waiting(&self.waiting))
    }
}

/// A call's place in the queue for slots, given up when dropped (taken its slots, or
/// cancelled while it waited).
struct Waiting<'a>(&'a AtomicUsize);

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}

/// A call refused because as many calls as may wait for slots are waiting.
pub(super) struct Busy(usize);

impl Busy {
    pub fn message(&self) -> String {
        format!(
            "Server busy: every call slot is taken and {} calls are waiting for one; try again later.",
            self.0
        )
    }
}

/// The slots a call runs in: its tool's own first, so a busy tool does not hold
/// server-wide slots.
pub(crate) enum CallSlots {
    /// Waited for when the call runs.
    Wanted {
        /// `max_concurrency`: the tool's own slots, if it limits them.
        tool: Option<Arc<Semaphore>>,
        /// `max_in_flight`: the server-wide slots.
        server: Arc<ServerSlots>,
    },
    /// Taken already: the call's first poll ran in them.
    Held(HeldSlots),
}

/// Slots taken, given back when dropped. `None` where none was to be had because the
/// semaphore closed (the call runs then, as it did when waiting reported that).
pub(crate) struct HeldSlots {
    _tool: Option<Slot>,
    _server: Option<Slot>,
}

/// One slot of a semaphore, given back when dropped: an `OwnedSemaphorePermit`, made from
/// a borrowed permit so that taking it costs the semaphore no reference count of its own.
struct Slot(Arc<Semaphore>);

impl Slot {
    /// The slot `permit` took, kept past the borrow.
    fn keep(permit: SemaphorePermit<'_>, slots: Arc<Semaphore>) -> Slot {
        debug_assert_eq!(permit.num_permits(), 1);
        permit.forget();
        Slot(slots)
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        self.0.add_permits(1);
    }
}

/// Slots taken for a call that may be done where it stands: borrowed, and given back
/// without a reference count of the semaphores changing, unless the call goes on.
struct BorrowedSlots<'s> {
    tool: Option<(SemaphorePermit<'s>, &'s Arc<Semaphore>)>,
    server: (SemaphorePermit<'s>, &'s Arc<Semaphore>),
}

impl BorrowedSlots<'_> {
    /// The slots, kept for a call that goes on as a future.
    fn keep(self) -> HeldSlots {
        let keep = |(permit, slots): (SemaphorePermit<'_>, &Arc<Semaphore>)| {
            Slot::keep(permit, Arc::clone(slots))
        };
        HeldSlots {
            _tool: self.tool.map(keep),
            _server: Some(keep(self.server)),
        }
    }
}

impl CallSlots {
    pub fn wanted(tool: Option<Arc<Semaphore>>, server: Arc<ServerSlots>) -> CallSlots {
        CallSlots::Wanted { tool, server }
    }

    /// The slots, taken now if they are free: `None` if the call would have to wait.
    fn try_take(&self) -> Option<BorrowedSlots<'_>> {
        match self {
            CallSlots::Wanted { tool, server } => {
                let tool = match tool {
                    Some(tool) => Some((tool.try_acquire().ok()?, tool)),
                    None => None,
                };
                let server = (server.slots.try_acquire().ok()?, &server.slots);
                Some(BorrowedSlots { tool, server })
            }
            CallSlots::Held(_) => None,
        }
    }

    /// The slots, waited for while either is full, in a queue of bounded length: refused
    /// when the queue is full.
    async fn take(self) -> Result<HeldSlots, Busy> {
        match self {
            CallSlots::Wanted { tool, server } => {
                let Some(_waiting) = server.wait() else {
                    return Err(Busy(server.max_waiting));
                };
                let tool = match tool {
                    Some(tool) => slot(tool).await.ok(),
                    None => None,
                };
                Ok(HeldSlots {
                    _tool: tool,
                    _server: slot(Arc::clone(&server.slots)).await.ok(),
                })
            }
            CallSlots::Held(held) => Ok(held),
        }
    }
}

/// The steps around the tool itself, after any layers: admission, then the tool under its
/// slots and time limit, panics caught.
struct Guards {
    round: Option<Arc<InputRound>>,
    admission: Admission,
    slots: CallSlots,
    timeout: Option<Duration>,
}

impl ToolCallPipeline {
    /// The call run to its end here, with no future of its own, when nothing makes it wait:
    /// no rate limit to pass, its slots free, no layers, and the tool done at its first poll
    /// (or, under 2026-07-28, waiting at it for input the client has not given) — the same
    /// steps [`run`](Self::run) takes, in the same order. Otherwise the call is given back,
    /// to run as a future: started, in the slots it took, if it got as far as the tool's
    /// first poll.
    pub fn finish_at_once(mut self: Box<Self>) -> Result<Body, Box<ToolCallPipeline>> {
        let plain = matches!(self.work, ToolWork::Direct(_)) && self.admission.is_unlimited();
        let held = match plain {
            true => self.slots.try_take(),
            false => None,
        };
        let (Some(held), ToolWork::Direct(running)) = (held, &mut self.work) else {
            return Err(self);
        };
        // A no-op waker: a tool not done at once is polled again by the future it goes on in.
        let mut first_poll = std::task::Context::from_waker(std::task::Waker::noop());
        let polled =
            std::panic::catch_unwind(AssertUnwindSafe(|| running.as_mut().poll(&mut first_poll)));
        let result = match polled {
            Ok(std::task::Poll::Ready(result)) => result,
            // What `UntilInputRequired` makes of the same poll: this attempt ends here.
            Ok(std::task::Poll::Pending) if self.finishing.needs_input() => CallToolResult {
                awaits_input: true,
                ..CallToolResult::default()
            },
            Ok(std::task::Poll::Pending) => {
                self.slots = CallSlots::Held(held.keep());
                return Err(self);
            }
            Err(panic) => panicked(&self.finishing.name, panic),
        };
        // The tool first, then its slots, as `run_guarded` lets go of them.
        drop(self.work);
        drop(held);
        Ok(self.finishing.finish(result))
    }

    /// Runs the call through every step and gives its result.
    pub async fn run(self) -> Body {
        let ToolCallPipeline {
            work,
            admission,
            slots,
            timeout,
            finishing,
        } = self;
        let guards = Guards {
            round: finishing.round.clone(),
            admission,
            slots,
            timeout,
        };
        let name = &finishing.name;
        let result = match work {
            ToolWork::Direct(running) => {
                guards.run(name, running, finishing.request.as_ref()).await
            }
            ToolWork::Layered(layered) => {
                let LayeredWork {
                    layers,
                    call,
                    states,
                    forward_tracing,
                } = *layered;
                let handle = finishing.request.clone();
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
                        guards.run(&name, running, handle.as_ref()).await
                    }) as LayerFuture
                });
                // A layer's panic is caught like a tool's (the tool's own was caught inside).
                run_chain(layers, call, tool, |panic| panicked(name, panic)).await
            }
        };
        finishing.finish(result)
    }
}

impl Finishing {
    /// 2026-07-28: whether the tool waits for input the client has not given yet.
    fn needs_input(&self) -> bool {
        self.round.as_ref().is_some_and(|round| round.needs_input())
    }

    /// The steps after the tool returned: its result masked if the server says so, then
    /// shaped as the request's revision expects, the request finished first.
    fn finish(self, result: CallToolResult) -> Body {
        // Nothing about this request may be sent after its response. (Masking below logs
        // on the server only: no tool's context is current here to forward it.)
        if let Some(request) = self.request {
            request.finish_and_release();
        }
        let body = if let (true, Some(round)) = (result.awaits_input, &self.round) {
            Body::Json(round.input_required_result())
        } else {
            let result = if self.mask_errors {
                mask(&self.name, result)
            } else {
                result
            };
            Body::ToolResult(ShapedResult::new(result, self.version, self.wraps_output))
        };
        match &self.stateless_info {
            Some(server_info) => decorated(body, server_info),
            None => body,
        }
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
        ToolArguments::Typed(arguments) => tool.invoke_typed(arguments, Some((context, states))),
    };
    match current {
        Some(current) => Box::pin(log_layer::forwarding(invoked, current)),
        None => invoked,
    }
}

impl Guards {
    async fn run(
        self,
        name: &str,
        running: ToolFuture,
        request: Option<&RequestHandle>,
    ) -> CallToolResult {
        if let Err(refused) = self.admission.admit(name).await {
            return refused;
        }
        match run_guarded(running, self.round, self.slots, self.timeout).await {
            Guarded::Finished(result) => result,
            Guarded::NeedsInput(_) => CallToolResult {
                awaits_input: true,
                ..CallToolResult::default()
            },
            Guarded::Panicked(panic) => panicked(name, panic),
            Guarded::TimedOut(limit) => {
                if let Some(request) = request {
                    request.cancel();
                }
                timed_out(name, limit)
            }
            Guarded::Busy(busy) => {
                tracing::warn!(tool = %name, "a call was refused: {}", busy.message());
                CallToolResult::error(busy.message())
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
    /// Not run: every slot was taken and the queue for them full.
    Busy(Busy),
}

/// Runs the tool once it has its slots, waiting while either is full (unless the queue
/// for them is full); under its time limit, with panics caught. Reads, renders and completions run through it
/// too, without a tool's slots.
pub(super) async fn run_guarded<F: Future + Unpin>(
    running: F,
    round: Option<Arc<InputRound>>,
    slots: CallSlots,
    timeout: Option<Duration>,
) -> Guarded<F::Output> {
    let _slots = match slots.take().await {
        Ok(slots) => slots,
        Err(busy) => return Guarded::Busy(busy),
    };
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
async fn slot(slots: Arc<Semaphore>) -> Result<Slot, AcquireError> {
    let permit = match slots.try_acquire() {
        Ok(permit) => permit,
        // No slot free, or the semaphore closed (which the wait reports as it did).
        Err(_) => slots.acquire().await?,
    };
    // Given back by the `Slot`, which takes the reference count this call was given.
    permit.forget();
    Ok(Slot(slots))
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
