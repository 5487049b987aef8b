//! [`Context`]: what a tool knows about the request it is serving, and how it talks back
//! to the client while it runs — progress, log messages, cancellation, and requests to the
//! client (elicitation, sampling, roots).
//!
//! Everything a running request can do lives in this folder: `log` (levels and filters),
//! `log_layer` (`tracing` events forwarded as log messages), `client_requests` (asking the
//! client). It builds on `protocol` only; tools, sessions and transports build on it.

mod cancellation;
pub(crate) mod client_requests;
pub(crate) mod log;
pub(crate) mod log_layer;

use std::borrow::Cow;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use futures_util::future::BoxFuture;
use serde::Serialize;
use serde_json::{Map, Value, json};

use crate::access::AnyPrincipal;
use crate::context::cancellation::Cancellation;
use crate::context::client_requests::{
    ClientRequestError, Elicitation, InputRound, PendingClientRequests, Root, SamplingRequest,
    SamplingResponse, read_elicitation, read_roots,
};
use crate::protocol::client_info::ClientInfo;
use crate::protocol::meta;
use crate::protocol::outbox::Outbox;
use crate::protocol::version::ProtocolVersion;
pub use log::LogLevel;
pub(crate) use log::{LogFilter, SessionLogLevel};

/// How a request's tool reaches the client with requests of its own.
#[derive(Clone)]
pub(crate) enum ClientLink {
    /// Handshake era: JSON-RPC requests on the connection, kept with its caller
    /// ([`CallerInfo::connection`]).
    Connection,
    /// 2026-07-28: an `input_required` round trip.
    Rounds(Arc<InputRound>),
    /// A task's: the task is `input_required` while the client answers.
    Task(Arc<dyn TaskLink>),
    /// 2026-07-28, a tool with `input_before_task`: input rounds until the call becomes a
    /// task, then the task's.
    RoundsThenTask(Arc<InputRound>, Arc<dyn TaskLink>),
}

impl ClientLink {
    /// The task the request runs as, once it is one.
    fn task(&self) -> Option<&Arc<dyn TaskLink>> {
        match self {
            ClientLink::Task(task) => Some(task),
            ClientLink::RoundsThenTask(round, task) if round.became_task() => Some(task),
            ClientLink::Connection | ClientLink::Rounds(_) | ClientLink::RoundsThenTask(..) => None,
        }
    }
}

/// The task a request runs as, which asks the client on the tool's behalf
/// (`task::input::TaskClient`): named here so that a context needs nothing of the task
/// engine.
pub(crate) trait TaskLink: Send + Sync {
    /// The task's id, for the `_meta` of what the request sends.
    fn task_id(&self) -> &str;

    /// Asks the client and waits for the answer, the task `input_required` meanwhile.
    fn ask<'a>(
        &'a self,
        outbox: &'a Outbox,
        key: Option<&'a str>,
        method: &'a str,
        params: Value,
    ) -> BoxFuture<'a, Result<Value, ClientRequestError>>;

    /// The tool reported progress with `message`: the task's status message while it works.
    fn progressed(&self, message: &str);
}

/// The shortest interval between two progress notifications of one request; updates in
/// between are coalesced into the latest.
const PROGRESS_INTERVAL: Duration = Duration::from_millis(50);

/// A progress report waiting for its turn.
struct PendingProgress {
    progress: f64,
    total: Option<f64>,
    message: Option<String>,
}

/// Per-request notification state, shared by the tool's context and the code that sends
/// the response.
struct Notifier {
    /// Where this request's related messages go.
    outbox: Outbox,
    state: Mutex<NotifierState>,
}

struct NotifierState {
    /// False once the response is on its way: nothing about the request may follow it.
    active: bool,
    /// Kept only for a request that can report progress (it has a progress token): most
    /// have none, and every other request's context is smaller, so cheaper to make.
    progress: Option<Box<ProgressState>>,
}

/// Where a request's progress reports stand, for coalescing them.
struct ProgressState {
    last_progress: Option<f64>,
    last_sent: Option<Instant>,
    pending: Option<PendingProgress>,
    flush_scheduled: bool,
    /// Where coalesced progress is sent from later, since a tool may report it from a
    /// thread outside the runtime.
    runtime: tokio::runtime::Handle,
}

/// Everything known about the request a tool is serving.
pub(crate) struct RequestInfo {
    pub request_id: Value,
    pub tool: Cow<'static, str>,
    pub protocol_version: ProtocolVersion,
    pub caller: Caller,
    pub progress_token: Option<Value>,
    pub client: ClientLink,
    /// Whether `tracing` events inside the tool become log messages for the client.
    pub forward_tracing: bool,
}

/// Who makes a request: the client as it described itself, the log level it asked for,
/// and who it authenticated as.
pub(crate) struct CallerInfo {
    pub client_info: Option<Arc<ClientInfo>>,
    pub client_capabilities: Arc<Value>,
    pub log_filter: LogFilter,
    /// Who made the request, as an HTTP authentication hook verified it.
    pub principal: Option<AnyPrincipal>,
    /// A handshake-era connection's requests to its client, waiting for answers: kept here,
    /// where its calls share them, rather than counted once more by each call's context.
    pub connection: Option<Arc<PendingClientRequests>>,
}

/// A request's [`CallerInfo`]: a handshake-era connection's requests share one (its
/// session makes it again when one of its parts changes), so a call takes one atomic
/// reference count rather than one for each part. A 2026-07-28 request has its own.
pub(crate) enum Caller {
    Shared(Arc<CallerInfo>),
    Own(CallerInfo),
}

impl std::ops::Deref for Caller {
    type Target = CallerInfo;

    fn deref(&self) -> &CallerInfo {
        match self {
            Caller::Shared(info) => info,
            Caller::Own(info) => info,
        }
    }
}

/// The request a tool is serving, and its channel back to the client.
///
/// Take it as a parameter of type `Context` (it never appears in the tool's input schema):
///
/// ```
/// use mcp_runtime::{mcp_tool, Context, LogLevel};
///
/// /// Count to `n`, reporting progress.
/// #[mcp_tool]
/// async fn count(n: u32, ctx: Context) -> String {
///     for i in 1..=n {
///         if ctx.is_cancelled() {
///             return format!("stopped at {i}");
///         }
///         ctx.progress(f64::from(i), Some(f64::from(n)), None);
///     }
///     ctx.log(LogLevel::Info, "done counting");
///     format!("counted to {n}")
/// }
/// ```
#[derive(Clone)]
pub struct Context {
    inner: Arc<ContextInner>,
}

struct ContextInner {
    info: RequestInfo,
    notifier: Notifier,
    cancellation: Cancellation,
}

impl std::fmt::Debug for Context {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Context")
            .field("request_id", &self.inner.info.request_id)
            .field("tool", &self.inner.info.tool)
            .field("protocol_version", &self.inner.info.protocol_version)
            .finish_non_exhaustive()
    }
}

impl ContextInner {
    /// Sends a message about the request. A task's say so in their `_meta`, which is made
    /// here rather than kept in every context.
    fn send(&self, message: &Value) {
        let Some(task) = self.info.client.task() else {
            return self.notifier.outbox.send(message);
        };
        let mut message = message.clone();
        if let Some(Value::Object(params)) = message.get_mut("params") {
            let meta = params.entry("_meta").or_insert_with(|| json!({}));
            if let Value::Object(meta) = meta {
                meta.insert(
                    crate::task::wire::RELATED_TASK.into(),
                    json!({ "taskId": task.task_id() }),
                );
            }
        }
        self.notifier.outbox.send(&message);
    }

    /// Sends the progress report coalescing held back, unless the request is finished.
    fn send_held_back(&self, state: &mut NotifierState) {
        if let (true, Some(progress)) = (state.active, state.progress.as_deref_mut())
            && let Some(report) = progress.pending.take()
        {
            self.send_progress(progress, report, Instant::now());
        }
    }

    fn send_progress(&self, state: &mut ProgressState, report: PendingProgress, now: Instant) {
        let Some(token) = &self.info.progress_token else {
            return;
        };
        let mut params = Map::new();
        params.insert(meta::PROGRESS_TOKEN.into(), token.clone());
        params.insert("progress".into(), report.progress.into());
        if let Some(total) = report.total {
            params.insert("total".into(), total.into());
        }
        if let (Some(message), true) = (
            report.message,
            self.info.protocol_version >= ProtocolVersion::V2025_03_26,
        ) {
            params.insert("message".into(), message.into());
        }
        state.last_progress = Some(report.progress);
        state.last_sent = Some(now);
        self.send(&json!({
            "jsonrpc": "2.0",
            "method": "notifications/progress",
            "params": params,
        }));
    }
}

/// The runtime's handle on a request's context: ends it when the response is sent.
#[derive(Clone)]
pub(crate) struct RequestHandle {
    // The context itself: one allocation per request serves the tool and the runtime.
    context: Arc<ContextInner>,
}

impl RequestHandle {
    /// Marks the request finished, just before its response is sent: a progress report
    /// still held back by coalescing goes out now (so the client sees the final value), and
    /// nothing about the request is sent after this.
    pub fn finish(&self) {
        let mut state = self
            .context
            .notifier
            .state
            .lock()
            .expect("notifier poisoned");
        self.context.send_held_back(&mut state);
        state.active = false;
    }

    /// [`finish`](Self::finish), by the last user of the handle. Without a progress token
    /// nothing is ever held back, and when no one else holds the context any more (the tool
    /// kept no copy: the common case) nothing else can send about the request, so letting
    /// go of it is enough: no lock, and no other atomic operation than the release.
    pub fn finish_and_release(self) {
        // A count of one cannot be out of date: no `Weak` of a context is ever made, so no
        // one but this handle could make another holder.
        if self.context.info.progress_token.is_some() || Arc::strong_count(&self.context) > 1 {
            self.finish();
        }
    }

    /// Fires the context's cancellation token.
    pub fn cancel(&self) {
        self.context.cancellation.cancel();
    }

    /// The call will not be answered by its tool (cancelled, or cut off at shutdown): nothing
    /// more about it is sent, and the tool's handed-off work learns it should stop.
    pub fn abandon(&self) {
        // Nothing is sent any more, not even progress held back by coalescing.
        self.context
            .notifier
            .state
            .lock()
            .expect("notifier poisoned")
            .active = false;
        self.cancel();
    }
}

impl Context {
    /// A context for one request, and the runtime's handle on it.
    pub(crate) fn new(info: RequestInfo, outbox: Outbox) -> (Context, RequestHandle) {
        let progress = info.progress_token.as_ref().map(|_| {
            Box::new(ProgressState {
                last_progress: None,
                last_sent: None,
                pending: None,
                flush_scheduled: false,
                runtime: tokio::runtime::Handle::current(),
            })
        });
        let notifier = Notifier {
            outbox,
            state: Mutex::new(NotifierState {
                active: true,
                progress,
            }),
        };
        let inner = Arc::new(ContextInner {
            notifier,
            info,
            cancellation: Cancellation::default(),
        });
        let handle = RequestHandle {
            context: Arc::clone(&inner),
        };
        (Context { inner }, handle)
    }

    /// Who made the request, as the HTTP transport's authentication hook verified it, if
    /// its principal is a `T` (see [`Principal`](crate::Principal)). `None` over stdio.
    pub fn principal<T: Send + Sync + 'static>(&self) -> Option<Arc<T>> {
        let principal = self.inner.info.caller.principal.as_ref()?;
        Arc::clone(principal).downcast::<T>().ok()
    }

    /// The JSON-RPC id of the request, exactly as the client sent it.
    pub fn request_id(&self) -> &Value {
        &self.inner.info.request_id
    }

    /// The name of the tool being called.
    pub fn tool_name(&self) -> &str {
        &self.inner.info.tool
    }

    /// The protocol revision the request is served under.
    pub fn protocol_version(&self) -> ProtocolVersion {
        self.inner.info.protocol_version
    }

    /// The client's self-description (`name`, `version`, …), if it gave one. Self-reported:
    /// use it for display and logs, not for security decisions.
    pub fn client_info(&self) -> Option<&Value> {
        self.inner
            .info
            .caller
            .client_info
            .as_deref()
            .map(ClientInfo::value)
    }

    /// The capabilities the client declared (for this request, under 2026-07-28).
    pub fn client_capabilities(&self) -> &Value {
        &self.inner.info.caller.client_capabilities
    }

    /// Whether the client cancelled the request (or it timed out).
    ///
    /// An async tool is stopped at its next `.await` (its future is dropped, so clean up in
    /// `Drop`); code that runs without awaiting — a plain `fn` tool, or a long computation
    /// inside an async one — cannot be interrupted and should check this in its loops.
    pub fn is_cancelled(&self) -> bool {
        self.inner.cancellation.is_cancelled()
    }

    /// Resolves when the request is cancelled or times out.
    ///
    /// For work the tool hands off — a spawned task, a job on another service — that must
    /// stop when the call does: move a clone of the `Context` (or a
    /// [`cancellation_token`](Context::cancellation_token)) into it. Inside the tool's own
    /// future this never resolves first: the runtime drops that future before firing the
    /// token, so put the tool's own cleanup in a `Drop` guard.
    pub async fn cancelled(&self) {
        self.inner.cancellation.token().cancelled().await;
    }

    /// A token cancelled with the request (when the client cancels it, it times out, or
    /// shutdown's grace period ends), to hand to code that takes a tokio-util
    /// [`CancellationToken`](tokio_util::sync::CancellationToken). It is a child token:
    /// cancelling it does not cancel the request.
    pub fn cancellation_token(&self) -> tokio_util::sync::CancellationToken {
        self.inner.cancellation.token().child_token()
    }

    /// Reports progress: `progress` done out of `total` (if known), with an optional message.
    ///
    /// Sent as `notifications/progress` only if the client asked for progress (a
    /// `progressToken` in the request); otherwise a no-op. Values that do not increase are
    /// dropped, since the spec requires strictly increasing progress.
    ///
    /// At most one notification is sent per 50 ms, so a tight loop cannot flood the client:
    /// reports made within 50 ms of the last one sent are merged into the latest of them,
    /// which is sent when the 50 ms are up or, if the call finishes first, just before its
    /// result. Callable from async and plain `fn` tools alike.
    ///
    /// In a call that runs as a task, `message` also becomes the task's `statusMessage`
    /// while it works: what `tasks/get` and the task's status notifications show, whether
    /// or not the client asked for progress. Under 2026-07-28, where a task sends no
    /// notifications, that is how a client polling it sees its progress. The task's store
    /// takes at most one new message a second, the latest of those reported.
    pub fn progress(&self, progress: f64, total: Option<f64>, message: Option<&str>) {
        if let (Some(message), Some(task)) = (message, self.inner.info.client.task()) {
            task.progressed(message);
        }
        if self.inner.info.progress_token.is_none() {
            return;
        }
        let mut state = self.inner.notifier.state.lock().expect("notifier poisoned");
        let NotifierState {
            active: true,
            progress: Some(state),
        } = &mut *state
        else {
            return;
        };
        if state.last_progress.is_some_and(|last| progress <= last) || !progress.is_finite() {
            return;
        }
        let report = PendingProgress {
            progress,
            total,
            message: message.map(str::to_owned),
        };
        let now = Instant::now();
        let due = state.last_sent.map_or(now, |sent| sent + PROGRESS_INTERVAL);
        if now >= due && !state.flush_scheduled {
            self.inner.send_progress(state, report, now);
            return;
        }
        state.last_progress = Some(progress);
        state.pending = Some(report);
        if !state.flush_scheduled {
            state.flush_scheduled = true;
            let context = self.clone();
            state.runtime.spawn(async move {
                tokio::time::sleep_until(due.into()).await;
                context.flush_progress();
            });
        }
    }

    fn flush_progress(&self) {
        let mut state = self.inner.notifier.state.lock().expect("notifier poisoned");
        if let Some(progress) = state.progress.as_deref_mut() {
            progress.flush_scheduled = false;
        }
        self.inner.send_held_back(&mut state);
    }

    /// Sends a log message to the client (`notifications/message`) if the client's level
    /// allows it: the level set with `logging/setLevel` (default `info`), or under
    /// 2026-07-28 the request's own `_meta` level (without one, nothing is sent).
    ///
    /// **Deprecated by the protocol:** 2026-07-28 deprecates MCP logging (SEP-2577), as it
    /// does sampling and roots. It keeps working in every revision released within a year,
    /// and this method works in every revision this crate serves. For what operators read,
    /// log with `tracing` instead: a stdio server's stderr is the host's log (`serve_stdio`
    /// installs a subscriber there), and for observability, export traces with
    /// OpenTelemetry (a `tracing-opentelemetry` layer on your subscriber).
    pub fn log(&self, level: LogLevel, data: impl Serialize) {
        self.log_as(level, &self.inner.info.tool, data);
    }

    /// Whether the tool's `tracing` events are forwarded to the client.
    pub(crate) fn forwards_tracing(&self) -> bool {
        self.inner.info.forward_tracing
    }

    /// Whether a message at `level` would be sent (so callers can skip building it).
    pub(crate) fn logs_at(&self, level: LogLevel) -> bool {
        self.inner.info.caller.log_filter.allows(level)
    }

    /// [`log`](Context::log) under another logger name.
    pub(crate) fn log_as(&self, level: LogLevel, logger: &str, data: impl Serialize) {
        if !self.logs_at(level) {
            return;
        }
        let data = match serde_json::to_value(data) {
            Ok(data) => data,
            Err(error) => json!(format!("(log data could not be serialized: {error})")),
        };
        let state = self.inner.notifier.state.lock().expect("notifier poisoned");
        if !state.active {
            return;
        }
        self.inner.send(&json!({
            "jsonrpc": "2.0",
            "method": "notifications/message",
            "params": { "level": level.as_str(), "logger": logger, "data": data },
        }));
    }

    /// Asks the user for input through the client (`elicitation/create`): a message and a
    /// form generated from `T`'s schema (a flat struct of strings, numbers, booleans and
    /// unit enums; doc comments become the fields' descriptions).
    ///
    /// ```
    /// use mcp_runtime::{mcp_tool, Context, Elicitation};
    ///
    /// #[derive(serde::Deserialize, schemars::JsonSchema)]
    /// struct Confirm {
    ///     /// Type the project's name to confirm.
    ///     name: String,
    /// }
    ///
    /// /// Delete a project, after the user confirms.
    /// #[mcp_tool(destructive)]
    /// async fn delete_project(project: String, ctx: Context) -> Result<String, String> {
    ///     let answer = ctx
    ///         .elicit::<Confirm>(format!("Really delete {project}?"))
    ///         .await
    ///         .map_err(|error| error.to_string())?;
    ///     match answer {
    ///         Elicitation::Accepted(confirm) if confirm.name == project => Ok(format!("deleted {project}")),
    ///         _ => Err("not confirmed; nothing was deleted".to_owned()),
    ///     }
    /// }
    /// ```
    ///
    /// Works in every era that has elicitation: under 2025-06-18 and 2025-11-25 the server
    /// sends the request and this waits for the answer; under 2026-07-28 the call ends with
    /// an `input_required` result and the client calls again with the answer, which runs the
    /// tool again from the start (so do side effects after asking, not before). Fails with
    /// [`ClientRequestError::Unsupported`] when the client did not declare `elicitation`.
    /// For `async fn` tools (a plain `fn` tool cannot wait for an answer).
    pub async fn elicit<T>(
        &self,
        message: impl Into<String>,
    ) -> Result<Elicitation<T>, ClientRequestError>
    where
        T: serde::de::DeserializeOwned + schemars::JsonSchema,
    {
        self.keyed_elicit(None, message.into()).await
    }

    async fn keyed_elicit<T>(
        &self,
        key: Option<&str>,
        message: String,
    ) -> Result<Elicitation<T>, ClientRequestError>
    where
        T: serde::de::DeserializeOwned + schemars::JsonSchema,
    {
        let schema = crate::json_schema::elicitation_schema::<T>()
            .map_err(ClientRequestError::InvalidRequest)?;
        let answer = self.elicit_with_schema_raw(key, message, schema).await?;
        read_elicitation(answer)
    }

    /// Like [`elicit`](Context::elicit), with a `requestedSchema` written by hand (a flat
    /// object schema, as the spec restricts it). The accepted content comes back as a map.
    pub async fn elicit_with_schema(
        &self,
        message: impl Into<String>,
        requested_schema: Value,
    ) -> Result<Elicitation<Map<String, Value>>, ClientRequestError> {
        let answer = self
            .elicit_with_schema_raw(None, message.into(), requested_schema)
            .await?;
        read_elicitation(answer)
    }

    async fn elicit_with_schema_raw(
        &self,
        key: Option<&str>,
        message: String,
        schema: Value,
    ) -> Result<Value, ClientRequestError> {
        let unsupported = ClientRequestError::Unsupported {
            request: "elicitation",
            capability: "elicitation",
        };
        if self.protocol_version() < ProtocolVersion::V2025_06_18 {
            return Err(unsupported);
        }
        // An empty `elicitation` object means form mode; from 2025-11-25 a client may declare
        // only `url` mode, which cannot show a form.
        match self.client_capabilities().get("elicitation") {
            Some(Value::Object(modes)) if modes.is_empty() || modes.contains_key("form") => {}
            _ => return Err(unsupported),
        }
        let mut params = Map::new();
        if self.protocol_version() >= ProtocolVersion::V2025_11_25 {
            params.insert("mode".into(), "form".into());
        }
        params.insert("message".into(), message.into());
        params.insert("requestedSchema".into(), schema);
        self.ask_client(key, "elicitation/create", Value::Object(params))
            .await
    }

    /// Asks the client's LLM for a completion (`sampling/createMessage`). The client decides
    /// which model runs it and may ask the user first. Same eras and rules as
    /// [`elicit`](Context::elicit); needs the client's `sampling` capability.
    ///
    /// **Deprecated by the protocol:** 2026-07-28 deprecates sampling (SEP-2577). It keeps
    /// working in every revision released within a year, and this method works in every
    /// revision this crate serves, for clients that declare `sampling`. A tool that needs a
    /// model should call the model provider's API itself, with the server's own
    /// configuration and key.
    pub async fn sample(
        &self,
        request: SamplingRequest,
    ) -> Result<SamplingResponse, ClientRequestError> {
        self.keyed_sample(None, request).await
    }

    async fn keyed_sample(
        &self,
        key: Option<&str>,
        request: SamplingRequest,
    ) -> Result<SamplingResponse, ClientRequestError> {
        self.require_capability("sampling", "sampling")?;
        let answer = self
            .ask_client(key, "sampling/createMessage", request.into_params())
            .await?;
        SamplingResponse::read(answer)
    }

    /// The directories and files the client lets this server work in (`roots/list`). Same
    /// eras and rules as [`elicit`](Context::elicit); needs the client's `roots` capability.
    ///
    /// **Deprecated by the protocol:** 2026-07-28 deprecates roots (SEP-2577). It keeps
    /// working in every revision released within a year, and this method works in every
    /// revision this crate serves, for clients that declare `roots`. Take the directories
    /// a server may work in from its configuration instead — an argument, an environment
    /// variable, a file — as the `files` example takes its root directory.
    pub async fn list_roots(&self) -> Result<Vec<Root>, ClientRequestError> {
        self.keyed_list_roots(None).await
    }

    async fn keyed_list_roots(&self, key: Option<&str>) -> Result<Vec<Root>, ClientRequestError> {
        self.require_capability("roots", "roots")?;
        let answer = self.ask_client(key, "roots/list", json!({})).await?;
        read_roots(answer)
    }

    /// Requests to the client under a key of the tool's choosing: `ctx.keyed("user_name")
    /// .elicit::<Name>("What is your name?")`. Under 2026-07-28 the key names the request in
    /// the `input_required` result's `inputRequests` (and in a task's), and the client
    /// answers under it, so a client that knows the tool can recognise what is asked.
    /// Without a key, requests are named `input-0`, `input-1`, ... in the order the tool
    /// makes them. Give each request of a call its own key, the same on every run of the
    /// tool. Earlier revisions send JSON-RPC requests, which have no key.
    pub fn keyed<'a>(&'a self, key: &'a str) -> Keyed<'a> {
        Keyed { context: self, key }
    }

    fn require_capability(
        &self,
        request: &'static str,
        capability: &'static str,
    ) -> Result<(), ClientRequestError> {
        match self.client_capabilities().get(capability) {
            Some(Value::Object(_)) => Ok(()),
            _ => Err(ClientRequestError::Unsupported {
                request,
                capability,
            }),
        }
    }

    async fn ask_client(
        &self,
        key: Option<&str>,
        method: &str,
        params: Value,
    ) -> Result<Value, ClientRequestError> {
        if !self
            .inner
            .notifier
            .state
            .lock()
            .expect("notifier poisoned")
            .active
        {
            // The call was answered (or cancelled): nothing about it may reach the client.
            return Err(ClientRequestError::Disconnected);
        }
        match &self.inner.info.client {
            ClientLink::Connection => match &self.inner.info.caller.connection {
                Some(pending) => {
                    pending
                        .request(&self.inner.notifier.outbox, method, params)
                        .await
                }
                // Only a handshake-era caller is reached through its connection.
                None => Err(ClientRequestError::Disconnected),
            },
            ClientLink::RoundsThenTask(round, task) if round.became_task() => {
                let outbox = &self.inner.notifier.outbox;
                task.ask(outbox, key, method, params).await
            }
            ClientLink::Rounds(round) | ClientLink::RoundsThenTask(round, _) => {
                match round.ask(key, method, params) {
                    Some(answer) => Ok(answer),
                    // The runtime sees the unanswered request, stops this attempt and answers
                    // the call with `input_required`; the retry carries the answer.
                    None => std::future::pending().await,
                }
            }
            ClientLink::Task(task) => {
                let outbox = &self.inner.notifier.outbox;
                task.ask(outbox, key, method, params).await
            }
        }
    }
}

/// A [`Context`]'s requests to the client under a key of the tool's choosing
/// ([`Context::keyed`]); the same methods, the same rules.
#[derive(Clone, Copy, Debug)]
pub struct Keyed<'a> {
    context: &'a Context,
    key: &'a str,
}

impl Keyed<'_> {
    /// [`Context::elicit`] under this key.
    pub async fn elicit<T>(
        self,
        message: impl Into<String>,
    ) -> Result<Elicitation<T>, ClientRequestError>
    where
        T: serde::de::DeserializeOwned + schemars::JsonSchema,
    {
        self.context
            .keyed_elicit(Some(self.key), message.into())
            .await
    }

    /// [`Context::elicit_with_schema`] under this key.
    pub async fn elicit_with_schema(
        self,
        message: impl Into<String>,
        requested_schema: Value,
    ) -> Result<Elicitation<Map<String, Value>>, ClientRequestError> {
        let answer = self
            .context
            .elicit_with_schema_raw(Some(self.key), message.into(), requested_schema)
            .await?;
        read_elicitation(answer)
    }

    /// [`Context::sample`] under this key.
    pub async fn sample(
        self,
        request: SamplingRequest,
    ) -> Result<SamplingResponse, ClientRequestError> {
        self.context.keyed_sample(Some(self.key), request).await
    }

    /// [`Context::list_roots`] under this key.
    pub async fn list_roots(self) -> Result<Vec<Root>, ClientRequestError> {
        self.context.keyed_list_roots(Some(self.key)).await
    }
}
