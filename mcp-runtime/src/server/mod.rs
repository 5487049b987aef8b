//! [`Server`]: configure once, then serve every `#[mcp_tool]` linked into the binary —
//! over stdio, over Streamable HTTP (`transport::http`), or as a command-line client of
//! its own tools (`cli`, `MCP_CLI`).

mod access;
#[cfg(feature = "cli")]
pub(crate) mod cli;
#[cfg(feature = "http")]
pub(crate) mod fleet;
#[cfg(feature = "http")]
pub(crate) mod http;
#[cfg(feature = "jwt")]
mod jwt;
pub(crate) mod linking;
mod notices;
mod stdio;
mod tasks;
#[cfg(feature = "otel")]
mod telemetry;

use std::sync::Arc;
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite};

use crate::access::Access;
use crate::changes::Notifier;
use crate::error::Error;
use crate::icon::Icon;
use crate::middleware::ServerLayers;
use crate::prompt::set::PromptSet;
use crate::resource::set::ResourceSet;
use crate::session::RateLimits;
use crate::session::{ServerCore, ServerInfo, ServerSlots};
use crate::skill::set::SkillSet;
use crate::task::engine::{TaskConfig, Tasks};
use crate::tool::extract::States;
use crate::tool::rate::{Rate, RateLimitMode};
use crate::tool::set::ToolSet;
use crate::transport::stdio::{Ending, Input, serve_connection};

/// Default number of tools per `tools/list` page.
pub const DEFAULT_PAGE_SIZE: usize = 1000;
/// Default limit on one incoming message, in bytes.
pub const DEFAULT_MAX_MESSAGE_SIZE: usize = 8 * 1024 * 1024;
/// Default limit on the output waiting for a stdio client to read it, in bytes.
pub const DEFAULT_MAX_OUTPUT_BACKLOG: usize = 4 * 1024 * 1024;
/// Default freshness hint (`ttlMs`) for 2026-07-28 list and discover results.
pub const DEFAULT_LIST_TTL: Duration = Duration::from_secs(60);

/// An MCP server offering every `#[mcp_tool]` function linked into the binary.
///
/// ```no_run
/// #[tokio::main]
/// async fn main() -> Result<(), mcp_runtime::Error> {
///     mcp_runtime::Server::new("calculator", env!("CARGO_PKG_VERSION"))
///         .serve_stdio()
///         .await
/// }
/// ```
#[derive(Clone, Debug)]
#[must_use = "a server does nothing until you call `serve_stdio().await`"]
pub struct Server {
    info: ServerInfo,
    instructions: Option<String>,
    page_size: usize,
    max_message_size: usize,
    max_output_backlog: usize,
    list_ttl: Duration,
    redirect_prints: bool,
    max_in_flight: usize,
    max_waiting_calls: usize,
    call_timeout: Option<Duration>,
    shutdown_grace: Duration,
    client_request_timeout: Duration,
    mask_error_details: bool,
    forward_tracing: bool,
    #[cfg(feature = "otel")]
    telemetry: crate::telemetry::ServerTelemetry,
    rate_limit: Option<Rate>,
    rate_limit_mode: RateLimitMode,
    states: States,
    tools: ToolSet,
    /// Tells clients of changed resources and lists; shared with every clone.
    notifier: Notifier,
    resources: ResourceSet,
    prompts: PromptSet,
    skills: SkillSet,
    /// Whether starting with no tools at all is meant (they come at run time), rather than
    /// worth a warning.
    no_tools_expected: bool,
    /// Where tasks are kept, and their limits.
    tasks: TaskConfig,
    /// The layers around tool calls.
    layers: ServerLayers,
    /// Scopes and the local principal.
    access: Access,
}

/// Default number of tool calls running at once; more wait their turn.
pub const DEFAULT_MAX_IN_FLIGHT: usize = 1024;
/// Default number of calls that may wait for a slot: see [`Server::max_waiting_calls`].
pub const DEFAULT_MAX_WAITING_CALLS: usize = 1024;
/// Default time calls in flight get to finish once input ends or a signal arrives.
pub const DEFAULT_SHUTDOWN_GRACE: Duration = Duration::from_secs(10);
/// Default time a tool waits for the client to answer one of its requests (elicitation
/// waits for a person, so this is generous).
pub const DEFAULT_CLIENT_REQUEST_TIMEOUT: Duration = Duration::from_secs(300);

impl Server {
    /// A server that introduces itself to clients with this name and version.
    pub fn new(name: impl Into<String>, version: impl Into<String>) -> Self {
        let notifier = Notifier::new();
        let resources = ResourceSet::new(notifier.clone());
        Server {
            info: ServerInfo {
                name: name.into(),
                version: version.into(),
                title: None,
                icons: Vec::new(),
            },
            instructions: None,
            page_size: DEFAULT_PAGE_SIZE,
            max_message_size: DEFAULT_MAX_MESSAGE_SIZE,
            max_output_backlog: DEFAULT_MAX_OUTPUT_BACKLOG,
            list_ttl: DEFAULT_LIST_TTL,
            redirect_prints: true,
            max_in_flight: DEFAULT_MAX_IN_FLIGHT,
            max_waiting_calls: DEFAULT_MAX_WAITING_CALLS,
            call_timeout: None,
            shutdown_grace: DEFAULT_SHUTDOWN_GRACE,
            client_request_timeout: DEFAULT_CLIENT_REQUEST_TIMEOUT,
            mask_error_details: false,
            forward_tracing: false,
            #[cfg(feature = "otel")]
            telemetry: Default::default(),
            rate_limit: None,
            rate_limit_mode: RateLimitMode::Reject,
            states: States::default(),
            tools: ToolSet::new(),
            resources: resources.clone(),
            prompts: PromptSet::new(notifier.clone()),
            skills: SkillSet::new(notifier.clone(), resources),
            notifier,
            no_tools_expected: false,
            tasks: TaskConfig::default(),
            layers: ServerLayers::default(),
            access: Access::default(),
        }
    }

    /// A display name for the server (sent from protocol revision 2025-06-18 on).
    pub fn title(mut self, title: impl Into<String>) -> Self {
        self.info.title = Some(title.into());
        self
    }

    /// Guidance for the model on using this server's tools, sent with `initialize` and
    /// `server/discover`.
    pub fn instructions(mut self, instructions: impl Into<String>) -> Self {
        self.instructions = Some(instructions.into());
        self
    }

    /// How many tools one `tools/list` page holds (default [`DEFAULT_PAGE_SIZE`]). Clients
    /// follow `nextCursor` for the rest.
    pub fn page_size(mut self, tools_per_page: usize) -> Self {
        self.page_size = tools_per_page.max(1);
        self
    }

    /// The largest message accepted, in bytes (default [`DEFAULT_MAX_MESSAGE_SIZE`]). A
    /// longer line is skipped and answered with a JSON-RPC error; memory stays bounded.
    pub fn max_message_size(mut self, bytes: usize) -> Self {
        self.max_message_size = bytes.max(1);
        self
    }

    /// How much output may wait for a stdio client to read it, in bytes (default
    /// [`DEFAULT_MAX_OUTPUT_BACKLOG`]; [`serve_stdio`](Server::serve_stdio) and
    /// [`serve_io`](Server::serve_io)). Past it, the server handles and reads no more
    /// requests until the client has read enough: a client that keeps sending without
    /// reading fills its pipe to the server, not the server's memory. No request is
    /// dropped; once the client reads again, every request is answered. One answer larger
    /// than the limit still goes out whole, and calls already running still send theirs,
    /// but the notifications they send meanwhile (progress, log messages) are dropped.
    pub fn max_output_backlog(mut self, bytes: usize) -> Self {
        self.max_output_backlog = bytes;
        self
    }

    /// How long 2026-07-28 clients may cache `tools/list` and `server/discover` results
    /// (`ttlMs`; default [`DEFAULT_LIST_TTL`]).
    pub fn list_ttl(mut self, ttl: Duration) -> Self {
        self.list_ttl = ttl;
        self
    }

    /// Registers shared state: every tool with a [`State<T>`](crate::State) parameter
    /// receives it. One value per type; registering a type again replaces the value.
    pub fn state<T: Send + Sync + 'static>(mut self, value: T) -> Self {
        self.states.insert(value);
        self
    }

    /// How many tool calls may run at once, server-wide (default [`DEFAULT_MAX_IN_FLIGHT`]).
    /// Calls beyond the limit wait for a free slot, up to
    /// [`max_waiting_calls`](Server::max_waiting_calls) of them.
    pub fn max_in_flight(mut self, calls: usize) -> Self {
        self.max_in_flight = calls.max(1);
        self
    }

    /// How many calls may wait for a slot (of [`max_in_flight`](Server::max_in_flight), or
    /// of a tool's `max_concurrency`) at once (default [`DEFAULT_MAX_WAITING_CALLS`]): one
    /// more is refused at once — a tool call with an `isError` result, a resource read or
    /// prompt with a JSON-RPC error (-32603), both "Server busy" — rather than held.
    pub fn max_waiting_calls(mut self, calls: usize) -> Self {
        self.max_waiting_calls = calls;
        self
    }

    /// Limits the calls of all tools together, across all connections, to `rate` (default:
    /// no limit). A tool's own limit (`#[mcp_tool(rate = "10/s")]`) is checked first, then
    /// this one. Calls over a limit are refused with an `isError` result naming the limit
    /// and when to retry, or wait: see [`rate_limit_mode`](Server::rate_limit_mode).
    ///
    /// ```
    /// use mcp_runtime::{Rate, RateLimitMode, Server};
    ///
    /// let server = Server::new("search", "1.0.0")
    ///     .rate_limit(Rate::per_minute(600))
    ///     .rate_limit_mode(RateLimitMode::Wait);
    /// ```
    pub fn rate_limit(mut self, rate: Rate) -> Self {
        self.rate_limit = Some(rate);
        self
    }

    /// What happens to a call over a rate limit, the server's or a tool's (default
    /// [`RateLimitMode::Reject`]: an `isError` result saying which limit and when to retry).
    pub fn rate_limit_mode(mut self, mode: RateLimitMode) -> Self {
        self.rate_limit_mode = mode;
        self
    }

    /// Stops any tool call that runs longer than `limit`, answering it with an `isError`
    /// result that says so (default: no limit). A plain-`fn` tool's thread cannot be
    /// stopped; its call is answered all the same, and its eventual result discarded.
    pub fn call_timeout(mut self, limit: Duration) -> Self {
        self.call_timeout = Some(limit);
        self
    }

    /// How long calls in flight may still run once input ends or SIGINT/SIGTERM arrives
    /// (default [`DEFAULT_SHUTDOWN_GRACE`]). Calls still running then are answered with a
    /// JSON-RPC error, so no request goes unanswered.
    pub fn shutdown_grace(mut self, grace: Duration) -> Self {
        self.shutdown_grace = grace;
        self
    }

    /// Hides the message of every tool error not marked public: an `Err(e)` returned by a
    /// tool reaches the client as "Tool `name` failed. The details were logged on the
    /// server." (the message goes to the server's log instead), unless `e` is a
    /// [`ToolError`](crate::ToolError), whose message is meant for the client. Use it when
    /// errors from databases or HTTP clients could carry internal detail. (Panics are
    /// always masked, unless their payload is a `ToolError`; argument validation errors are
    /// always shown, since they are about the client's own input.)
    pub fn mask_error_details(mut self) -> Self {
        self.mask_error_details = true;
        self
    }

    /// Forwards `tracing` events emitted inside tools to the client, as log messages of the
    /// call (`notifications/message`, logger = the event's target), filtered by the client's
    /// log level like [`Context::log`](crate::Context::log). Off by default: events can
    /// carry detail meant for operators.
    ///
    /// `serve_stdio` installs the forwarding layer with its stderr subscriber; if your
    /// program installs its own subscriber, add [`ClientLogLayer`](crate::ClientLogLayer)
    /// to it.
    ///
    /// MCP logging is deprecated from protocol revision 2026-07-28 (SEP-2577; it keeps
    /// working in every revision released within a year): see
    /// [`Context::log`](crate::Context::log) for what replaces it.
    pub fn forward_tracing(mut self) -> Self {
        self.forward_tracing = true;
        self
    }

    /// A handle on this server's tools, to disable and enable them by name or tag and to
    /// add tools defined at run time — before serving or while serving, from anywhere.
    ///
    /// Taking the handle makes the server announce `listChanged: true`, and each change is
    /// sent to clients: `notifications/tools/list_changed` in the handshake era, and on
    /// `subscriptions/listen` streams under 2026-07-28. Clones of this server share the
    /// same tools.
    pub fn tool_set(&self) -> ToolSet {
        self.tools.announce_changes();
        self.tools.clone()
    }

    /// A handle that tells clients a resource changed (to those subscribed to it), or that
    /// the list of resources or prompts did: from a background task, a file watcher, or
    /// anywhere outside a request. Tools, resources and prompts can take a [`Notifier`] as
    /// a parameter instead.
    ///
    /// Taking the handle makes the server announce `listChanged: true` for resources and
    /// prompts, so that clients listen for list changes. Clones of this server share it.
    pub fn notifier(&self) -> Notifier {
        self.notifier.announce_list_changes();
        self.notifier.clone()
    }

    /// A handle on this server's resources and resource templates, to disable and enable
    /// them by URI and to add resources defined at run time ([`DynamicResource`](crate::DynamicResource))
    /// — before serving or while serving, from anywhere.
    ///
    /// Taking the handle makes the server declare the `resources` capability (even with
    /// none yet) and announce `listChanged: true`, and each change is sent to clients. Clones
    /// of this server share the same resources.
    pub fn resource_set(&self) -> ResourceSet {
        self.resources.announce_changes();
        self.resources.clone()
    }

    /// A handle on this server's skills (the `io.modelcontextprotocol/skills` extension), to
    /// disable and enable them and to add skills defined at run time
    /// ([`DynamicSkill`](crate::DynamicSkill)) — before serving or while serving, from
    /// anywhere. Skills known at compile time need no handle: `mcp_runtime::skill!("folder")`.
    ///
    /// Taking the handle makes the server declare the extension and the `resources`
    /// capability (even with no skill yet) and announce `listChanged: true`; each change is
    /// sent to clients as a change of the resources, which a skill's files are. Clones of
    /// this server share the same skills.
    pub fn skill_set(&self) -> SkillSet {
        self.skills.announce_changes();
        self.skills.clone()
    }

    /// A handle on this server's prompts, to disable and enable them by name and to add
    /// prompts defined at run time ([`DynamicPrompt`](crate::DynamicPrompt)) — before serving
    /// or while serving, from anywhere.
    ///
    /// Taking the handle makes the server declare the `prompts` capability (even with none
    /// yet) and announce `listChanged: true`, and each change is sent to clients. Clones of
    /// this server share the same prompts.
    pub fn prompt_set(&self) -> PromptSet {
        self.prompts.announce_changes();
        self.prompts.clone()
    }

    /// An icon clients may show for this server (`serverInfo.icons`, 2025-11-25 on); call
    /// once per icon (sizes, themes).
    ///
    /// ```
    /// use mcp_runtime::{Icon, Server};
    ///
    /// let server = Server::new("weather", "1.0.0")
    ///     .icon(Icon::new("https://example.com/weather.png").mime_type("image/png").sizes(["48x48"]));
    /// # let _ = server;
    /// ```
    pub fn icon(mut self, icon: Icon) -> Self {
        self.info.icons.push(icon);
        self
    }

    /// Starts quietly with no tools at all: for a server whose tools all come at run time,
    /// added through its [`ToolSet`] once it serves (a tool added before serving counts
    /// already).
    ///
    /// Otherwise a server that has no `#[mcp_tool]` linked in and no
    /// [`DynamicTool`](crate::DynamicTool) added warns on stderr when it starts (through
    /// `tracing` if a subscriber is installed), naming the usual causes: a library crate of
    /// tools the binary never names, so the linker leaves it out, or an integration test of
    /// a binary crate, which links none of the binary's tools. Disabled tools count as
    /// tools: only a server with none at all warns.
    ///
    /// ```
    /// use mcp_runtime::Server;
    ///
    /// let server = Server::new("plugins", "1.0.0").allow_no_tools();
    /// let tools = server.tool_set(); // filled once plugins load
    /// # let _ = tools;
    /// ```
    pub fn allow_no_tools(mut self) -> Self {
        self.no_tools_expected = true;
        self
    }

    /// How long a tool waits for the client to answer an elicitation, sampling or roots
    /// request sent on the connection (default [`DEFAULT_CLIENT_REQUEST_TIMEOUT`]); then
    /// the request fails with [`ClientRequestError::TimedOut`](crate::ClientRequestError::TimedOut).
    /// A tool's own `timeout` still applies to the whole call.
    pub fn client_request_timeout(mut self, limit: Duration) -> Self {
        self.client_request_timeout = limit;
        self
    }

    /// Leaves file descriptor 1 alone when serving stdio.
    ///
    /// By default `serve_stdio` keeps the real stdout for protocol messages and points
    /// descriptor 1 at stderr, so a `println!` in a tool (or a library it uses) shows up in
    /// the host's logs instead of corrupting the protocol stream. Call this if your program
    /// must manage descriptor 1 itself. (Only Unix redirects; elsewhere this is the default.)
    pub fn keep_stdout(mut self) -> Self {
        self.redirect_prints = false;
        self
    }

    /// The largest message accepted, in bytes.
    #[cfg(feature = "http")]
    pub(crate) fn max_message_size_limit(&self) -> usize {
        self.max_message_size
    }

    /// How long calls in flight may still run once shutdown begins.
    #[cfg(feature = "http")]
    pub(crate) fn shutdown_grace_period(&self) -> Duration {
        self.shutdown_grace
    }

    /// Whether this server would warn that it has no tools (see
    /// [`allow_no_tools`](Server::allow_no_tools)).
    pub(crate) fn warns_of_no_tools(&self) -> bool {
        !self.no_tools_expected && self.tools.has_no_tools()
    }

    pub(crate) fn into_core(mut self) -> Result<Arc<ServerCore>, Error> {
        self.tools.prepare(&self.states)?;
        // Every tool, resource and prompt may take the notifier as a parameter.
        self.states.insert(self.notifier.clone());
        self.resources.prepare(&self.states)?;
        let resources = self.resources.catalog();
        self.tools
            .check_views(|uri| resources.find(uri).is_some())?;
        self.prompts.prepare(&self.states)?;
        self.skills.prepare()?;
        if self.warns_of_no_tools() {
            notices::warn(notices::NO_TOOLS);
        }
        for warning in linking::unlinked_dependencies() {
            notices::warn(&warning);
        }
        tracing::debug!(tools = self.tools.catalog().len(), "tool catalog ready");
        let task_settings = self.tasks.settings(self.max_message_size);
        #[cfg(feature = "otel")]
        let metrics = self.telemetry.metrics();
        let rate_limits = RateLimits::new(self.rate_limit, self.rate_limit_mode);
        #[cfg(feature = "otel")]
        let rate_limits = rate_limits.counted_in(&metrics);
        Ok(Arc::new(ServerCore {
            tasks: Arc::new(Tasks::new(Arc::clone(&self.tasks.store), task_settings)),
            task_owner: self.tasks.owner_of_principal,
            layers: self.layers,
            access: self.access,
            info: self.info,
            stateless_info: std::sync::OnceLock::new(),
            no_capabilities: Arc::new(serde_json::json!({})),
            instructions: self.instructions,
            tools: self.tools,
            resources: self.resources,
            prompts: self.prompts,
            skills: self.skills,
            notifier: self.notifier,
            page_size: self.page_size,
            list_ttl_ms: u64::try_from(self.list_ttl.as_millis()).unwrap_or(u64::MAX),
            call_slots: Arc::new(ServerSlots::new(self.max_in_flight, self.max_waiting_calls)),
            call_timeout: self.call_timeout,
            rate_limits,
            client_request_timeout: self.client_request_timeout,
            mask_error_details: self.mask_error_details,
            forward_tracing: self.forward_tracing,
            states: Arc::new(self.states),
            #[cfg(feature = "otel")]
            metrics,
        }))
    }

    /// Serves one connection over any byte streams: pipes, sockets, or an in-memory
    /// [`tokio::io::duplex`] pair in tests. Same framing and behaviour as
    /// [`serve_stdio`](Server::serve_stdio).
    pub async fn serve_io<R, W>(self, input: R, output: W) -> Result<(), Error>
    where
        R: AsyncRead + Unpin + Send + 'static,
        W: AsyncWrite + Unpin + Send + 'static,
    {
        let limit = self.max_message_size;
        let backlog_limit = self.max_output_backlog;
        let grace = self.shutdown_grace;
        let core = self.into_core()?;
        let ending = Ending {
            grace,
            stop: Box::pin(std::future::pending()),
        };
        serve_connection(
            core,
            Input::Polled(Box::pin(input)),
            Box::pin(output),
            limit,
            backlog_limit,
            ending,
        )
        .await?;
        Ok(())
    }
}

/// Resolves on SIGINT or SIGTERM: hosts send SIGTERM when the client's polite shutdown
/// (closing stdin) is not enough.
pub(crate) async fn termination_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        match (
            signal(SignalKind::terminate()),
            signal(SignalKind::interrupt()),
        ) {
            (Ok(mut terminate), Ok(mut interrupt)) => {
                tokio::select! {
                    _ = terminate.recv() => tracing::info!("SIGTERM: finishing calls in flight"),
                    _ = interrupt.recv() => tracing::info!("SIGINT: finishing calls in flight"),
                }
            }
            _ => std::future::pending().await,
        }
    }
    #[cfg(not(unix))]
    {
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    }
}

pub(crate) fn install_stderr_logging(server: &Server) {
    use tracing_subscriber::EnvFilter;
    use tracing_subscriber::prelude::*;
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("warn"));
    let stderr = tracing_subscriber::fmt::layer()
        .with_writer(std::io::stderr)
        .with_ansi(false)
        .with_filter(filter);
    // `RUST_LOG` filters only what goes to stderr: the client's own level decides what it
    // receives. An application that installed its own subscriber keeps it.
    let forwarding = server.forward_tracing.then(crate::ClientLogLayer::new);
    let subscriber = tracing_subscriber::registry().with(stderr).with(forwarding);
    // The OpenTelemetry layer of `Server::telemetry`, if any.
    #[cfg(feature = "otel")]
    let subscriber = subscriber.with(server.telemetry.runtime_layer());
    let _ = subscriber.try_init();
}
