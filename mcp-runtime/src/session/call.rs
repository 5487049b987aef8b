//! The call pipeline: one future per `tools/call` once its arguments are valid, its steps in
//! the order they happen — **admit** (rate limits), **take its slots** (the tool's and the
//! server's), **run guarded** (the tool under its time limit, panics caught, and under
//! 2026-07-28 stopped when it waits for input the client has not given), **mask** (private
//! error details kept from the client when the server says so), **shape** (the result
//! written as the request's revision expects). A transport polls that future once where the
//! request is handled (`transport::calls`), so a call done then is answered without a task
//! of its own; reads, renders and completions run guarded the same way (`served`).

use std::borrow::Cow;
use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::task::{Poll, ready};
use std::time::Duration;

use futures_util::future::BoxFuture;

use tokio::sync::{Semaphore, SemaphorePermit};
use tokio::task::Unconstrained;
use tokio::time::{Instant, Sleep};

use super::admission::Admission;
use super::body::Body;
use crate::content::ContentBody;
use crate::context::client_requests::InputRound;
use crate::context::{RequestHandle, log_layer};
use crate::middleware::{LayerFuture, SharedLayer, ToolRequest, run_chain};
use crate::protocol::jsonrpc::{RpcError, code};
use crate::protocol::version::ProtocolVersion;
use crate::tool::arguments::ToolArguments;
use crate::tool::catalog::CatalogTool;
use crate::tool::extract::{CallContext, States};
use crate::tool::invoke::ToolFuture;
use crate::tool::result::{CallToolResult, ToolError};
use crate::tool::shape::ShapedResult;

/// One tool call with valid arguments and its context made, as one future: admitted, run in
/// its slots under its time limit, its result masked and shaped. It is polled by hand rather
/// than written as an `async fn`, so a call done at its first poll passes through no nested
/// state machines; everything is owned, so the call can go on as a task of its own.
pub(crate) struct ToolCallPipeline {
    run: PipelineRun,
    /// What the tool's result goes through to become the answer.
    shaping: ResultShaping,
}

enum PipelineRun {
    Direct(ToolRun),
    /// A tool with layers: their chain, whose innermost step is the tool's [`ToolRun`]
    /// (boxed: layered calls are the rare kind, and this keeps the common one small).
    Layered(LayerFuture),
}

/// What runs around the tool once any layers passed the call on.
pub(crate) struct Guards {
    pub admission: Admission,
    /// `max_concurrency` and `max_in_flight`: the slots the tool runs in.
    pub slots: CallSlots,
    pub timeout: Option<Duration>,
    /// The request's handle when the call has a time limit: fired if it runs past it, so
    /// work the tool handed off learns it should stop.
    pub cancel_on_timeout: Option<RequestHandle>,
}

/// The steps after the tool returned, and what they need.
pub(crate) struct ResultShaping {
    /// The tool's name, for messages and logs.
    pub name: Cow<'static, str>,
    pub version: ProtocolVersion,
    /// Whether the tool's structured output is wrapped as `{"result": …}`.
    pub wraps_output: bool,
    /// 2026-07-28: the input round this attempt answers, if any.
    pub round: Option<Arc<InputRound>>,
    pub mask_errors: bool,
    /// Whether the call runs as a task (or becomes one after its input rounds).
    pub in_task: bool,
}

/// What the pipeline runs.
pub(crate) enum ToolWork {
    /// A tool without layers — the common case, kept as lean as a call without the
    /// feature: its future, parameters extracted.
    Direct(ToolFuture),
    /// A tool with layers: the call as they see it, invoked once the last passes it on
    /// (boxed: layered calls are the rare kind, and this keeps the common one small).
    Layered(Box<LayeredWork>),
}

/// A call of a tool with layers, before they run.
pub(crate) struct LayeredWork {
    pub layers: Arc<[SharedLayer]>,
    pub call: ToolRequest,
    /// The tool the last layer hands the call to: layers see it only as its facts.
    pub tool: Arc<CatalogTool>,
    pub states: Arc<States>,
    pub forward_tracing: bool,
}

/// The server-wide call slots (`Server::max_in_flight`), and how many calls may wait for
/// a slot (`Server::max_waiting_calls`): a queue that a client cannot grow without bound.
pub(crate) struct ServerSlots {
    slots: Semaphore,
    waiting: AtomicUsize,
    max_waiting: usize,
}

impl ServerSlots {
    pub fn new(max_in_flight: usize, max_waiting: usize) -> Self {
        ServerSlots {
            slots: Semaphore::new(max_in_flight),
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
/// server-wide slots. The permits taken are kept as flags and given back by hand, so
/// holding them costs no reference count and borrows nothing.
pub(crate) struct CallSlots {
    /// `max_concurrency`: the tool's own slots, if it limits them.
    tool: Option<Arc<Semaphore>>,
    /// `max_in_flight`: the server-wide slots.
    server: Arc<ServerSlots>,
    held: Held,
}

/// Which slots a call holds. One it could not take because its semaphore closed is not
/// held, and the call runs without it.
#[derive(Clone, Copy, Default)]
struct Held {
    tool: bool,
    server: bool,
}

impl CallSlots {
    pub fn new(tool: Option<Arc<Semaphore>>, server: Arc<ServerSlots>) -> CallSlots {
        CallSlots {
            tool,
            server,
            held: Held::default(),
        }
    }

    /// Takes the slots if both are free now.
    fn try_take(&mut self) -> bool {
        let tool = match &self.tool {
            Some(tool) => match tool.try_acquire() {
                Ok(permit) => Some(permit),
                Err(_) => return false,
            },
            None => None,
        };
        // Without the server's slot, the tool's permit is given back as it drops.
        let Ok(server) = self.server.slots.try_acquire() else {
            return false;
        };
        let tool = tool.map(SemaphorePermit::forget).is_some();
        server.forget();
        self.held = Held { tool, server: true };
        true
    }

    /// Waits for the slots in a queue of bounded length: refused when the queue is full.
    /// Only a call that found them taken ([`try_take`](Self::try_take)) waits, so one that
    /// need not wait takes no place in the queue. A wait dropped half-way gives back what
    /// it took.
    fn wait(&self) -> impl Future<Output = Result<Held, Busy>> + Send + 'static {
        let (tool, server) = (self.tool.clone(), Arc::clone(&self.server));
        async move {
            let Some(_waiting) = server.wait() else {
                return Err(Busy(server.max_waiting));
            };
            let tool = match &tool {
                Some(tool) => tool.acquire().await.ok(),
                None => None,
            };
            let server = server.slots.acquire().await.ok();
            Ok(Held {
                tool: tool.map(SemaphorePermit::forget).is_some(),
                server: server.map(SemaphorePermit::forget).is_some(),
            })
        }
    }

    /// Gives back the slots the call holds.
    fn release(&mut self) {
        let held = std::mem::take(&mut self.held);
        if let (true, Some(tool)) = (held.tool, &self.tool) {
            tool.add_permits(1);
        }
        if held.server {
            self.server.slots.add_permits(1);
        }
    }
}

impl Drop for CallSlots {
    fn drop(&mut self) {
        self.release();
    }
}

impl ToolCallPipeline {
    #[inline]
    pub fn new(work: ToolWork, guards: Guards, shaping: ResultShaping) -> ToolCallPipeline {
        let round = shaping.round.clone();
        let run = match work {
            ToolWork::Direct(running) => {
                PipelineRun::Direct(ToolRun::new(shaping.name.clone(), running, guards, round))
            }
            ToolWork::Layered(layered) => {
                let LayeredWork {
                    layers,
                    call,
                    tool,
                    states,
                    forward_tracing,
                } = *layered;
                let tool = Box::new(move |call: ToolRequest| {
                    let ToolRequest {
                        name,
                        arguments,
                        context,
                        ..
                    } = call;
                    let running = invoke(
                        &tool,
                        ToolArguments::Map(arguments),
                        CallContext::Made(context),
                        &states,
                        forward_tracing,
                    );
                    Box::pin(ToolRun::new(name, running, guards, round)) as LayerFuture
                });
                // A layer's panic is caught like a tool's (the tool's own was caught inside).
                let name = shaping.name.clone();
                PipelineRun::Layered(Box::pin(run_chain(layers, call, tool, move |panic| {
                    panicked(&name, panic)
                })))
            }
        };
        ToolCallPipeline { run, shaping }
    }
}

impl Future for ToolCallPipeline {
    type Output = Body;

    fn poll(mut self: Pin<&mut Self>, cx: &mut std::task::Context<'_>) -> Poll<Body> {
        let result = match &mut self.run {
            PipelineRun::Direct(run) => ready!(Pin::new(run).poll(cx)),
            PipelineRun::Layered(chain) => ready!(chain.as_mut().poll(cx)),
        };
        Poll::Ready(self.shaping.shape(result))
    }
}

/// The steps around the tool itself, after any layers: admission, then the tool run
/// guarded ([`GuardedRun`]), its end turned into the tool's result.
struct ToolRun {
    name: Cow<'static, str>,
    /// Set while the call waits to be admitted (boxed: only a call under a rate limit
    /// waits, and this keeps every other call's future small).
    admitting: Option<BoxFuture<'static, Result<(), CallToolResult>>>,
    guarded: GuardedRun<ToolFuture>,
    cancel_on_timeout: Option<RequestHandle>,
}

impl ToolRun {
    fn new(
        name: Cow<'static, str>,
        running: ToolFuture,
        guards: Guards,
        round: Option<Arc<InputRound>>,
    ) -> ToolRun {
        let Guards {
            admission,
            slots,
            timeout,
            cancel_on_timeout,
        } = guards;
        let admitting = (!admission.is_unlimited()).then(|| {
            let name = name.clone();
            Box::pin(async move { admission.admit(&name).await }) as BoxFuture<'static, _>
        });
        ToolRun {
            name,
            admitting,
            guarded: run_guarded(running, round, slots, timeout),
            cancel_on_timeout,
        }
    }
}

impl Future for ToolRun {
    type Output = CallToolResult;

    fn poll(mut self: Pin<&mut Self>, cx: &mut std::task::Context<'_>) -> Poll<CallToolResult> {
        let this = &mut *self;
        if let Some(admitting) = &mut this.admitting {
            if let Err(refused) = ready!(admitting.as_mut().poll(cx)) {
                return Poll::Ready(refused);
            }
            this.admitting = None;
        }
        let name = &this.name;
        Poll::Ready(match ready!(Pin::new(&mut this.guarded).poll(cx)) {
            Guarded::Finished(result) => result,
            Guarded::NeedsInput(_) => CallToolResult {
                awaits_input: true,
                ..CallToolResult::default()
            },
            Guarded::Panicked(panic) => panicked(name, panic),
            Guarded::TimedOut(limit) => {
                if let Some(request) = &this.cancel_on_timeout {
                    request.cancel();
                }
                timed_out(name, limit)
            }
            Guarded::Busy(busy) => refused(name, &busy),
        })
    }
}

impl ResultShaping {
    /// The steps after the tool returned: its result masked if the server says so, then
    /// shaped as the request's revision expects (or, under 2026-07-28, the input the tool
    /// waits for asked of the client).
    fn shape(&self, result: CallToolResult) -> Body {
        if let (true, Some(round)) = (result.awaits_input, &self.round) {
            return Body::Json(round.input_required_result());
        }
        // Only a plain 2026-07-28 call (one with a round) answers a missing capability with
        // -32021; a task has already been answered, and older revisions have no such error.
        if let (Some(capability), Some(_)) = (result.missing_capability, &self.round) {
            return Body::Failure(missing_capability(capability));
        }
        // A 2026-07-28 task's `failed` is for the server's own failures, with a JSON-RPC
        // error; a panic is one (its message says no more than the `isError` would).
        if result.panicked && self.in_task && self.version.is_stateless() {
            let message = result.content.iter().find_map(|block| match &block.body {
                ContentBody::Text { text } => Some(text.clone()),
                _ => None,
            });
            return Body::Failure(RpcError::new(
                code::INTERNAL_ERROR,
                message.unwrap_or_else(|| format!("Tool `{}` failed.", self.name)),
            ));
        }
        let result = if self.mask_errors {
            mask(&self.name, result)
        } else {
            result
        };
        Body::ToolResult(ShapedResult::new(result, self.version, self.wraps_output))
    }
}

/// Starts `tool` with these arguments (forwarding its `tracing` events to the client when
/// the server says so: then the context was made before the call).
pub(super) fn invoke<'a>(
    tool: &CatalogTool,
    arguments: ToolArguments,
    context: CallContext<'a>,
    states: &'a States,
    forward_tracing: bool,
) -> ToolFuture {
    let current = forward_tracing.then(|| context.get().clone());
    let invoked = tool.invoke(arguments, context, states);
    match current {
        Some(current) => Box::pin(log_layer::forwarding(invoked, current)),
        None => invoked,
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

/// Runs `running` once it has its slots, waiting while either is full (unless the queue
/// for them is full); under its time limit, with panics caught. Tool calls run through it,
/// and reads, renders and completions too, without a tool's slots.
pub(super) fn run_guarded<F: Future + Unpin>(
    running: F,
    round: Option<Arc<InputRound>>,
    slots: CallSlots,
    limit: Option<Duration>,
) -> GuardedRun<F> {
    GuardedRun {
        work: Some(running),
        round,
        slots,
        waiting: None,
        started: false,
        limit,
        deadline: None,
        timer: None,
    }
}

/// The future of [`run_guarded`].
pub(super) struct GuardedRun<F> {
    /// Dropped as soon as it ends, so nothing it holds outlives its run.
    work: Option<F>,
    /// 2026-07-28: the input round, whose requests stop the attempt when the tool waits.
    round: Option<Arc<InputRound>>,
    slots: CallSlots,
    /// Set while the call waits for its slots (boxed: only a call that finds them taken
    /// waits).
    waiting: Option<BoxFuture<'static, Result<Held, Busy>>>,
    /// Whether the slots are taken and the work has begun.
    started: bool,
    limit: Option<Duration>,
    /// When the time limit runs out, counted from the work's first poll; `None` without a
    /// limit, or one further off than the clock can count.
    deadline: Option<Instant>,
    /// Started only once the work waits: a call done at its first poll never needs one.
    /// Unconstrained by the task's budget, so a tool that uses it up every poll still
    /// times out.
    timer: Option<Pin<Box<Unconstrained<Sleep>>>>,
}

impl<F: Future + Unpin> Future for GuardedRun<F> {
    type Output = Guarded<F::Output>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut std::task::Context<'_>) -> Poll<Self::Output> {
        let this = &mut *self;
        if !this.started {
            if this.waiting.is_none() && !this.slots.try_take() {
                this.waiting = Some(Box::pin(this.slots.wait()));
            }
            if let Some(waiting) = &mut this.waiting {
                let taken = ready!(waiting.as_mut().poll(cx));
                this.waiting = None;
                match taken {
                    Ok(held) => this.slots.held = held,
                    Err(busy) => return Poll::Ready(Guarded::Busy(busy)),
                }
            }
            this.started = true;
            this.deadline = this
                .limit
                .and_then(|limit| Instant::now().checked_add(limit));
        }
        let work = this
            .work
            .as_mut()
            .expect("a guarded run polled after it ended");
        let ended = match std::panic::catch_unwind(AssertUnwindSafe(|| Pin::new(work).poll(cx))) {
            Ok(Poll::Ready(output)) => Guarded::Finished(output),
            Err(panic) => Guarded::Panicked(panic),
            Ok(Poll::Pending) => match (&this.round, this.deadline) {
                // Requests made in the same poll (two elicitations joined) are all collected.
                (Some(round), _) if round.needs_input() => Guarded::NeedsInput(Arc::clone(round)),
                (_, Some(deadline)) => {
                    let timer = this.timer.get_or_insert_with(|| {
                        Box::pin(tokio::task::unconstrained(tokio::time::sleep_until(
                            deadline,
                        )))
                    });
                    ready!(timer.as_mut().poll(cx));
                    Guarded::TimedOut(this.limit.unwrap_or_default())
                }
                _ => return Poll::Pending,
            },
        };
        this.work = None;
        this.timer = None;
        this.slots.release();
        Poll::Ready(ended)
    }
}

/// The answer to a call refused for want of a slot.
#[cold]
fn refused(name: &str, busy: &Busy) -> CallToolResult {
    let message = busy.message();
    tracing::warn!(tool = %name, "a call was refused: {message}");
    CallToolResult::error(message)
}

/// The answer to a call whose tool panicked: a panic with a [`ToolError`] is public, its
/// message for the client; any other is logged and reported without its message.
#[cold]
fn panicked(name: &str, panic: Box<dyn std::any::Any + Send>) -> CallToolResult {
    let result = match panic.downcast::<ToolError>() {
        Ok(public) => {
            tracing::warn!(tool = %name, panic = %public, "a tool panicked with a public error");
            CallToolResult::error(public.message().to_owned())
        }
        Err(panic) => {
            let message = panic_message(panic.as_ref());
            tracing::error!(tool = %name, panic = %message, "a tool panicked");
            CallToolResult::error(format!("Tool `{name}` failed: it panicked."))
        }
    };
    CallToolResult {
        panicked: true,
        ..result
    }
}

/// -32021: the call needs a client capability the request did not declare.
fn missing_capability(capability: &str) -> RpcError {
    let mut required = serde_json::Map::new();
    required.insert(capability.to_owned(), serde_json::json!({}));
    RpcError::new(
        code::MISSING_REQUIRED_CLIENT_CAPABILITY,
        format!(
            "Missing required client capability: the call needs `{capability}`, which the \
             request's client capabilities do not declare."
        ),
    )
    .with_data(serde_json::json!({ "requiredCapabilities": required }))
}

/// The answer to a call stopped at its time limit.
#[cold]
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

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn only_a_call_whose_slots_are_taken_waits_for_them() {
        // No call may wait: only one whose slots are free runs.
        let server = Arc::new(ServerSlots::new(1, 0));
        let tool = Arc::new(Semaphore::new(1));
        let mut first = CallSlots::new(Some(Arc::clone(&tool)), Arc::clone(&server));
        assert!(first.try_take(), "free slots");
        let mut second = CallSlots::new(None, Arc::clone(&server));
        assert!(!second.try_take(), "the server's slot is taken");
        let busy = second.wait().await.err().expect("no call may wait");
        assert_eq!(busy.0, 0);
        assert_eq!(server.waiting.load(Ordering::Relaxed), 0);
        drop(first);
        assert_eq!(tool.available_permits(), 1);
        assert_eq!(server.slots.available_permits(), 1);
        assert!(second.try_take(), "free again");
    }

    #[tokio::test]
    async fn a_busy_tool_holds_no_server_slot_and_a_dropped_wait_gives_back_its_slots() {
        let server = Arc::new(ServerSlots::new(2, 4));
        let tool = Arc::new(Semaphore::new(1));
        let mut first = CallSlots::new(Some(Arc::clone(&tool)), Arc::clone(&server));
        assert!(first.try_take());
        let mut second = CallSlots::new(Some(Arc::clone(&tool)), Arc::clone(&server));
        assert!(!second.try_take(), "the tool's slot is taken");
        assert_eq!(
            server.slots.available_permits(),
            1,
            "none held for the busy tool"
        );
        let mut waiting = Box::pin(second.wait());
        assert!(futures_util::poll!(waiting.as_mut()).is_pending());
        assert_eq!(server.waiting.load(Ordering::Relaxed), 1);
        drop(waiting);
        assert_eq!(server.waiting.load(Ordering::Relaxed), 0);
        first.release();
        let held = second.wait().await.ok().expect("room to wait");
        assert!(held.tool && held.server);
        second.held = held;
        assert_eq!(tool.available_permits(), 0);
        drop(second);
        assert_eq!(tool.available_permits(), 1);
        assert_eq!(server.slots.available_permits(), 2);
    }

    fn free_slots() -> CallSlots {
        CallSlots::new(None, Arc::new(ServerSlots::new(1, 1)))
    }

    #[tokio::test(start_paused = true)]
    async fn work_that_waits_is_stopped_at_its_time_limit() {
        let limit = Duration::from_secs(5);
        let done = run_guarded(std::future::ready(7), None, free_slots(), Some(limit)).await;
        assert!(matches!(done, Guarded::Finished(7)));
        let started = tokio::time::Instant::now();
        let never = std::future::pending::<()>();
        let stopped = run_guarded(never, None, free_slots(), Some(limit)).await;
        assert!(matches!(stopped, Guarded::TimedOut(l) if l == limit));
        assert!(started.elapsed() >= limit);
    }

    #[tokio::test]
    async fn a_panic_is_caught_and_the_slots_are_given_back_when_the_work_ends() {
        let slots = free_slots();
        let server = Arc::clone(&slots.server);
        let panicking = Box::pin(async { panic!("boom") });
        let ended = run_guarded(panicking, None, slots, None).await;
        assert!(
            matches!(&ended, Guarded::Panicked(panic) if panic_message(panic.as_ref()) == "boom")
        );
        assert_eq!(server.slots.available_permits(), 1);
    }
}
