//! Test your server in-process: a client connected to a [`Server`] through an in-memory
//! pipe, and checked-in snapshots of its tool contract. (Cargo feature `testing`.)
//!
//! [`TestClient`] speaks real JSON-RPC lines into [`Server::serve_io`], so a test covers
//! the same path a remote client takes — framing, the session, argument validation, result
//! shaping for the revision in use — without spawning a process.
//!
//! ```standalone_crate
//! use mcp_runtime::testing::TestClient;
//! use mcp_runtime::{Server, mcp_tool};
//! use serde_json::json;
//!
//! /// Add two integers.
//! #[mcp_tool]
//! async fn add(a: i64, b: i64) -> i64 {
//!     a + b
//! }
//!
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() {
//! let client = TestClient::connect(Server::new("calculator", "1.0.0")).await.unwrap();
//! let result = client.call_tool("add", json!({ "a": 2, "b": 3 })).await.unwrap();
//! assert_eq!(result.text(), "5");
//!
//! let bad = client.call_tool("add", json!({ "a": "two" })).await.unwrap();
//! assert!(bad.is_error);
//! # }
//! ```
//!
//! Resources, resource templates, prompts and completions have typed methods too
//! ([`list_resources`](TestClient::list_resources), [`read_resource`](TestClient::read_resource),
//! [`get_prompt`](TestClient::get_prompt),
//! [`complete_prompt_argument`](TestClient::complete_prompt_argument), ...), and so do tasks,
//! in both eras ([`start_task`](TestClient::start_task), [`get_task`](TestClient::get_task),
//! [`task_result`](TestClient::task_result), [`cancel_task`](TestClient::cancel_task), ...),
//! and skills ([`list_skills`](TestClient::list_skills), [`get_skill`](TestClient::get_skill),
//! [`read_skill_file`](TestClient::read_skill_file), ...).
//!
//! Add it to your tests with
//! `mcp-runtime = { version = "0.1", features = ["testing"] }` under `[dev-dependencies]`.

use std::collections::HashMap;
use std::future::Future;
use std::panic::Location;
use std::path::Path;
use std::sync::Arc;

use serde_json::{Value, json};
use tokio::sync::mpsc;

use crate::client::{self, ClientCore, Handler, Introduction, Observer};
pub use crate::client::{
    Completion, CompletionTarget, Notification, Progress, Prompt, PromptArgument, PromptMessages,
    ReadResult, RenderedMessage, Resource, ResourceContent, ResourceTemplate, ResponseError, Skill,
    SkillResource, SkillResources, TaskInfo, Tool, ToolResult,
};
use crate::protocol::version::ProtocolVersion;
use crate::server::Server;
pub use crate::task::TaskStatus;
/// For the author of a [`TaskStore`](crate::TaskStore) (over a database, say):
pub use crate::task::contract::check_task_store;

// The task and skill methods, in files of their own.
mod skills;
mod tasks;

/// The 2026-07-28 tasks extension's identifier. [`TestClient`]'s task methods declare it on
/// their own requests; declare it for every request with
/// `.capability("extensions", json!({ TASKS_EXTENSION: {} }))` on the builder, and
/// [`call_tool`](TestClient::call_tool) of a task-capable tool is answered with a task,
/// which it waits for.
pub const TASKS_EXTENSION: &str = crate::client::TASKS_EXTENSION;

// Ports for servers a test starts itself.
mod ports;
pub use ports::free_loopback_port;

// The runtime's own check of a value against a JSON Schema.
mod schema;
pub use schema::{SchemaProblem, schema_problems};

// Checked-in JSON snapshots.
mod snapshots;
use snapshots::compare_snapshot;
pub use snapshots::{SNAPSHOTS_ENV, assert_json_snapshot};

// A real Redis for fleet tests (features `testing` and `redis`).
#[cfg(feature = "redis")]
mod redis_server;
#[cfg(feature = "redis")]
pub use redis_server::RedisServer;

/// No arguments, for [`TestClient::get_prompt`] and [`TestClient::complete`]:
/// `client.get_prompt("greeting", NO_ARGUMENTS)`.
pub const NO_ARGUMENTS: [(&str, &str); 0] = [];

/// The lists the contract snapshot holds beside the tools, when the server offers them:
/// (method, member of its result and of the snapshot).
const CONTRACT_LISTS: [(&str, &str); 3] = [
    ("resources/list", "resources"),
    ("resources/templates/list", "resourceTemplates"),
    ("prompts/list", "prompts"),
];

/// A client connected to a [`Server`] in the same process.
///
/// [`connect`](TestClient::connect) performs the handshake of 2025-11-25;
/// [`builder`](TestClient::builder) picks another revision (2026-07-28 sends its `_meta`
/// with every request instead), declares capabilities and answers the server's own
/// requests (`roots/list`, `sampling/createMessage`, `elicitation/create`). The same
/// handlers serve both eras: under 2026-07-28 a call answered with `input_required` is
/// fulfilled through them and sent again (with `inputResponses` and `requestState`) until
/// it completes, as a real client does, so [`call_tool`](TestClient::call_tool) returns the
/// final result. ([`PendingCall::id`] is the first round's id: cancelling by it stops only
/// that round.) Tasks have methods of their own: see [`start_task`](TestClient::start_task).
pub struct TestClient {
    core: ClientCore,
}

/// Configures a [`TestClient`] before it connects.
///
/// ```
/// use mcp_runtime::testing::TestClient;
/// use mcp_runtime::{ProtocolVersion, Server};
/// use serde_json::json;
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// let client = TestClient::builder()
///     .revision(ProtocolVersion::V2026_07_28)
///     .on_request("roots/list", |_params| async {
///         Ok(json!({ "roots": [{ "uri": "file:///tmp" }] }))
///     })
///     .connect(Server::new("demo", "1.0.0"))
///     .await
///     .unwrap();
/// assert_eq!(client.revision(), ProtocolVersion::V2026_07_28);
/// # }
/// ```
#[must_use = "a builder does nothing until you call `connect(server).await`"]
pub struct TestClientBuilder {
    revision: ProtocolVersion,
    capabilities: serde_json::Map<String, Value>,
    client_info: Value,
    handlers: HashMap<String, Handler>,
    observer: Option<Observer>,
}

impl TestClientBuilder {
    /// The revision to speak (default 2025-11-25). A handshake revision sends `initialize`;
    /// 2026-07-28 sends `_meta` with each request.
    pub fn revision(mut self, revision: ProtocolVersion) -> Self {
        self.revision = revision;
        self
    }

    /// Declares a client capability, e.g. `capability("elicitation", json!({}))`.
    /// Registering a handler with [`on_request`](Self::on_request) declares the matching
    /// capability already.
    pub fn capability(mut self, name: &str, value: Value) -> Self {
        self.capabilities.insert(name.to_owned(), value);
        self
    }

    /// The `clientInfo` to send (default `{"name": "mcp-runtime-test-client", ...}`).
    pub fn client_info(mut self, info: Value) -> Self {
        self.client_info = info;
        self
    }

    /// Answers the server's requests with this `method`: the handler gets their params and
    /// returns the result (or an error response). Declares the matching capability for
    /// `roots/list`, `sampling/createMessage` and `elicitation/create`.
    pub fn on_request<F, Fut>(mut self, method: &str, handler: F) -> Self
    where
        F: Fn(Value) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<Value, ResponseError>> + Send + 'static,
    {
        if let Some(capability) = capability_for(method) {
            self.capabilities
                .entry(capability)
                .or_insert_with(|| json!({}));
        }
        self.handlers
            .insert(method.to_owned(), client::handler(handler));
        self
    }

    /// Calls `observer` with every message the server sends, before the client handles it
    /// — e.g. to check each one against the protocol's schema.
    pub fn observe(mut self, observer: impl Fn(&Value) + Send + Sync + 'static) -> Self {
        self.observer = Some(Arc::new(observer));
        self
    }

    /// Starts the server on an in-memory pipe and introduces the client. Fails if the
    /// server does not start (e.g. a missing `State<T>`) or refuses the handshake.
    ///
    /// A server with no tools at all warns on stderr (through `tracing` if the test
    /// installed a subscriber), naming the usual causes: in an integration test of a
    /// binary crate, the binary's tools are not linked in. See
    /// [`Server::allow_no_tools`](crate::Server::allow_no_tools).
    pub async fn connect(self, server: Server) -> Result<TestClient, ResponseError> {
        let introduction = Introduction {
            revision: self.revision,
            capabilities: Value::Object(self.capabilities),
            client_info: self.client_info,
        };
        let core = ClientCore::connect(
            |input, output| server.serve_io(input, output),
            introduction,
            self.handlers,
            self.observer,
        )
        .await?;
        Ok(TestClient { core })
    }
}

fn capability_for(method: &str) -> Option<String> {
    let capability = match method {
        "roots/list" => "roots",
        "sampling/createMessage" => "sampling",
        "elicitation/create" => "elicitation",
        _ => return None,
    };
    Some(capability.to_owned())
}

/// A `tools/call` sent and not answered yet (see [`TestClient::start_call`] and
/// [`TestClient::start_call_with_progress`]).
pub struct PendingCall<F> {
    id: Value,
    answer: F,
    progress: Option<mpsc::UnboundedReceiver<Progress>>,
}

impl<F: Future<Output = Result<ToolResult, ResponseError>>> PendingCall<F> {
    /// The request's JSON-RPC id, as [`TestClient::cancel`] needs it.
    pub fn id(&self) -> &Value {
        &self.id
    }

    /// Waits for the call's next progress report: `None` for a call started without a
    /// progress token. It waits as long as the call runs, so wrap it in
    /// `tokio::time::timeout` when the tool may finish without another report.
    pub async fn next_progress(&mut self) -> Option<Progress> {
        self.progress.as_mut()?.recv().await
    }

    /// Waits for the answer. (A cancelled call is never answered: wrap this in
    /// `tokio::time::timeout` to check that.)
    pub async fn result(self) -> Result<ToolResult, ResponseError> {
        self.answer.await
    }
}

impl TestClient {
    /// Connects to `server` speaking 2025-11-25 (see [`TestClientBuilder::connect`]).
    pub async fn connect(server: Server) -> Result<TestClient, ResponseError> {
        TestClient::builder().connect(server).await
    }

    /// A client to configure before it connects.
    pub fn builder() -> TestClientBuilder {
        TestClientBuilder {
            revision: ProtocolVersion::LATEST_HANDSHAKE,
            capabilities: serde_json::Map::new(),
            client_info: json!({
                "name": "mcp-runtime-test-client",
                "version": env!("CARGO_PKG_VERSION"),
            }),
            handlers: HashMap::new(),
            observer: None,
        }
    }

    /// The revision this client speaks.
    pub fn revision(&self) -> ProtocolVersion {
        self.core.revision()
    }

    /// The server's `initialize` result (`None` under 2026-07-28, which has no handshake).
    pub fn initialize_result(&self) -> Option<&Value> {
        self.core.initialize_result()
    }

    /// Every tool, following `nextCursor` through all pages.
    pub async fn list_tools(&self) -> Result<Vec<Tool>, ResponseError> {
        self.core.list_tools().await
    }

    /// Reads the MCP Apps view of the tool named `tool` (its `_meta.ui.resourceUri`), as a
    /// host does before rendering its result; `Ok(None)` when no listed tool of that name
    /// names a view.
    pub async fn read_view(&self, tool: &str) -> Result<Option<ReadResult>, ResponseError> {
        let tools = self.list_tools().await?;
        let Some(uri) = tools
            .iter()
            .find(|listed| listed.name == tool)
            .and_then(Tool::view_uri)
        else {
            return Ok(None);
        };
        self.read_resource(uri).await.map(Some)
    }

    /// The `tools/list` result as JSON, with the tools of every page in `tools`.
    pub async fn list_tools_json(&self) -> Result<Value, ResponseError> {
        self.core.list_tools_result().await
    }

    /// Calls a tool. A tool that fails is `Ok` with `is_error` set; `Err` is a protocol
    /// error (unknown tool, non-object arguments, ...). A task it is answered with (see
    /// [`TASKS_EXTENSION`]) is waited for, and its result returned.
    pub async fn call_tool(
        &self,
        name: &str,
        arguments: Value,
    ) -> Result<ToolResult, ResponseError> {
        self.start_call(name, arguments).result().await
    }

    /// Calls a tool with a progress token; returns its result and every progress
    /// notification it sent.
    pub async fn call_tool_with_progress(
        &self,
        name: &str,
        arguments: Value,
    ) -> Result<(ToolResult, Vec<Progress>), ResponseError> {
        let (_, mut reports, answer) = self.core.start_call_with_progress(name, arguments);
        let result = answer.await;
        let mut progress = Vec::new();
        while let Ok(report) = reports.try_recv() {
            progress.push(report);
        }
        Ok((result?, progress))
    }

    /// Sends a `tools/call` without waiting, so it can be [cancelled](TestClient::cancel).
    pub fn start_call(
        &self,
        name: &str,
        arguments: Value,
    ) -> PendingCall<impl Future<Output = Result<ToolResult, ResponseError>> + Send + 'static + use<>>
    {
        let (id, answer) = self.core.start_call(name, arguments, None);
        PendingCall {
            id,
            answer,
            progress: None,
        }
    }

    /// Sends a `tools/call` with a progress token without waiting: its reports arrive
    /// through [`PendingCall::next_progress`] while it runs, and it can be
    /// [cancelled](TestClient::cancel) meanwhile.
    ///
    /// ```
    /// use std::time::Duration;
    ///
    /// use mcp_runtime::testing::TestClient;
    /// use mcp_runtime::{Context, Server, mcp_tool};
    ///
    /// /// Counts to a hundred, slowly.
    /// #[mcp_tool]
    /// async fn count(ctx: Context) -> String {
    ///     for done in 1..=100 {
    ///         ctx.progress(f64::from(done), Some(100.0), None);
    ///         tokio::time::sleep(Duration::from_millis(50)).await;
    ///     }
    ///     "done".to_owned()
    /// }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() {
    /// let client = TestClient::connect(Server::new("demo", "1.0.0")).await.unwrap();
    /// let mut call = client.start_call_with_progress("count", serde_json::json!({}));
    /// let first = call.next_progress().await.expect("a progress report");
    /// assert!(first.progress >= 1.0);
    /// client.cancel(call.id(), Some("seen enough"));
    /// let answer = tokio::time::timeout(Duration::from_millis(300), call.result()).await;
    /// assert!(answer.is_err(), "a cancelled call is not answered");
    /// # }
    /// ```
    pub fn start_call_with_progress(
        &self,
        name: &str,
        arguments: Value,
    ) -> PendingCall<impl Future<Output = Result<ToolResult, ResponseError>> + Send + 'static + use<>>
    {
        let (id, reports, answer) = self.core.start_call_with_progress(name, arguments);
        PendingCall {
            id,
            answer,
            progress: Some(reports),
        }
    }

    /// Every resource (with a fixed URI), following `nextCursor` through all pages. A server
    /// with no resources answers `Err` with [`ResponseError::METHOD_NOT_FOUND`].
    pub async fn list_resources(&self) -> Result<Vec<Resource>, ResponseError> {
        self.core.list_resources().await
    }

    /// Every resource template, following `nextCursor` through all pages.
    pub async fn list_resource_templates(&self) -> Result<Vec<ResourceTemplate>, ResponseError> {
        self.core.list_resource_templates().await
    }

    /// Reads a resource — a fixed URI, or one a template expands to (`notes://42`). A
    /// resource that fails, or a URI nothing serves, is `Err` (`resources/read` has no
    /// `isError`); under 2026-07-28, `input_required` rounds are fulfilled as for
    /// [`call_tool`](Self::call_tool).
    ///
    /// ```
    /// use mcp_runtime::testing::TestClient;
    /// use mcp_runtime::Server;
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() {
    /// let client = TestClient::connect(Server::new("demo", "1.0.0").allow_no_tools())
    ///     .await
    ///     .unwrap();
    /// // This server has no resources at all.
    /// let error = client.read_resource("docs://readme").await.unwrap_err();
    /// assert_eq!(error.code, mcp_runtime::testing::ResponseError::METHOD_NOT_FOUND);
    /// # }
    /// ```
    pub async fn read_resource(&self, uri: &str) -> Result<ReadResult, ResponseError> {
        self.core.read_resource(uri).await
    }

    /// Subscribes to updates of the resource at `uri`; they arrive as
    /// `notifications/resources/updated` (see [`next_notification`](Self::next_notification)).
    /// Handshake revisions send `resources/subscribe`; 2026-07-28, which has none, opens a
    /// `subscriptions/listen` request for the URI and returns once the server acknowledged
    /// it (its notifications carry the subscription's id in `_meta`, besides `uri`).
    pub async fn subscribe_resource(&self, uri: &str) -> Result<(), ResponseError> {
        self.core.subscribe_resource(uri).await
    }

    /// Ends a subscription: `resources/unsubscribe`, or under 2026-07-28 cancels the
    /// `subscriptions/listen` request [`subscribe_resource`](Self::subscribe_resource) opened.
    pub async fn unsubscribe_resource(&self, uri: &str) -> Result<(), ResponseError> {
        self.core.unsubscribe_resource(uri).await
    }

    /// Every prompt, following `nextCursor` through all pages.
    pub async fn list_prompts(&self) -> Result<Vec<Prompt>, ResponseError> {
        self.core.list_prompts().await
    }

    /// Renders a prompt with these arguments (prompt arguments are strings): pairs such as
    /// `[("language", "rust")]`, a `HashMap<String, String>`, or [`NO_ARGUMENTS`]. A missing
    /// or unknown argument, or a prompt that fails, is `Err`.
    pub async fn get_prompt<K, V>(
        &self,
        name: &str,
        arguments: impl IntoIterator<Item = (K, V)>,
    ) -> Result<PromptMessages, ResponseError>
    where
        K: Into<String>,
        V: Into<String>,
    {
        self.core.get_prompt(name, string_map(arguments)).await
    }

    /// The completions of a prompt's `argument` for the text typed so far (`value`).
    pub async fn complete_prompt_argument(
        &self,
        prompt: &str,
        argument: &str,
        value: &str,
    ) -> Result<Completion, ResponseError> {
        let target = CompletionTarget::Prompt(prompt.to_owned());
        self.complete(&target, argument, value, NO_ARGUMENTS).await
    }

    /// The completions of a resource template's `variable` for the text typed so far:
    /// `complete_template_variable("notes://{id}", "id", "4")`.
    pub async fn complete_template_variable(
        &self,
        uri_template: &str,
        variable: &str,
        value: &str,
    ) -> Result<Completion, ResponseError> {
        let target = CompletionTarget::ResourceTemplate(uri_template.to_owned());
        self.complete(&target, variable, value, NO_ARGUMENTS).await
    }

    /// `completion/complete` with the arguments already filled in (`given`, sent as
    /// `context.arguments`, a field of 2025-06-18 and later; not sent when empty).
    pub async fn complete<K, V>(
        &self,
        target: &CompletionTarget,
        argument: &str,
        value: &str,
        given: impl IntoIterator<Item = (K, V)>,
    ) -> Result<Completion, ResponseError>
    where
        K: Into<String>,
        V: Into<String>,
    {
        self.core
            .complete(target, argument, value, string_map(given))
            .await
    }

    /// Sends `notifications/cancelled` for the request with this id.
    pub fn cancel(&self, request_id: &Value, reason: Option<&str>) {
        let mut params = json!({ "requestId": request_id });
        if let Some(reason) = reason {
            params["reason"] = reason.into();
        }
        self.core.notify("notifications/cancelled", params);
    }

    /// Sends any request and returns its result; under 2026-07-28 the `_meta` fields are
    /// added to `params` (where not given).
    pub async fn request(&self, method: &str, params: Value) -> Result<Value, ResponseError> {
        self.core.request(method, params).await
    }

    /// Sends any notification, as is.
    pub fn notify(&self, method: &str, params: Value) {
        self.core.notify(method, params);
    }

    /// Answers the server's requests with this `method` from now on (see
    /// [`TestClientBuilder::on_request`], which also declares the capability).
    pub fn on_request<F, Fut>(&self, method: &str, handler: F)
    where
        F: Fn(Value) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<Value, ResponseError>> + Send + 'static,
    {
        self.core.set_handler(method, client::handler(handler));
    }

    /// The next notification from the server (log messages, progress of calls not made
    /// with [`call_tool_with_progress`](Self::call_tool_with_progress), ...), waiting for
    /// it; `None` once the connection has closed.
    pub async fn next_notification(&self) -> Option<Notification> {
        self.core.next_notification().await
    }

    /// Every notification received so far, without waiting.
    pub fn notifications(&self) -> Vec<Notification> {
        std::iter::from_fn(|| self.core.try_next_notification()).collect()
    }

    /// Closes the connection: the server sees end of input, answers the calls in flight and
    /// stops. `Err` carries the server's start-up error, if it had one.
    pub async fn close(self) -> Result<(), String> {
        self.core.close().await
    }

    /// Checks the server's tool contract (see the module docs): the `tools/list` surface
    /// against the snapshot at `path` (a JSON array of the tools; for a server that also
    /// offers resources, resource templates or prompts, an object holding `tools` and each
    /// of those lists that is not empty: `resources`, `resourceTemplates`, `prompts`), every `outputSchema` against the JSON Schema
    /// meta-schema, and for each `(tool, arguments)` sample, that the call succeeds and its
    /// `structuredContent` matches the tool's `outputSchema`. Panics naming every problem,
    /// and the line of your test that called it (the panic itself is raised inside this
    /// crate, where an `async` function's caller cannot be tracked).
    ///
    /// ```standalone_crate
    /// use mcp_runtime::testing::TestClient;
    /// use mcp_runtime::{Json, Server, mcp_tool};
    /// use serde_json::json;
    ///
    /// /// Split a sentence into words.
    /// #[mcp_tool]
    /// async fn words(sentence: String) -> Json<Vec<String>> {
    ///     Json(sentence.split_whitespace().map(str::to_owned).collect())
    /// }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() {
    /// # let snapshot = std::env::temp_dir().join("mcp-runtime-doc-words.tools.json");
    /// let client = TestClient::connect(Server::new("words", "1.0.0")).await.unwrap();
    /// # let listing = client.list_tools_json().await.unwrap();
    /// # let pretty = serde_json::to_string_pretty(&listing["tools"]).unwrap() + "\n";
    /// # std::fs::write(&snapshot, pretty).unwrap();
    /// client
    ///     .assert_contract(&snapshot, &[("words", json!({ "sentence": "a b c" }))])
    ///     .await;
    /// # }
    /// ```
    #[track_caller]
    pub fn assert_contract(
        &self,
        path: impl AsRef<Path>,
        samples: &[(&str, Value)],
    ) -> impl Future<Output = ()> {
        // Taken now: `#[track_caller]` does not reach into the future.
        let caller = Location::caller();
        async move {
            match self.contract_problems(path.as_ref(), samples).await {
                Ok(()) => {}
                Err(problem) => panic!("{problem}\n(asserted at {caller})"),
            }
        }
    }

    async fn contract_problems(
        &self,
        path: &Path,
        samples: &[(&str, Value)],
    ) -> Result<(), String> {
        let mut listing = self
            .list_tools_json()
            .await
            .map_err(|error| format!("tools/list failed: {error}"))?;
        let surface = self.contract_surface(listing["tools"].take()).await?;
        compare_snapshot(path, &surface)?;
        let tools = self
            .list_tools()
            .await
            .map_err(|error| format!("tools/list failed: {error}"))?;
        let mut problems: Vec<String> = tools
            .iter()
            .filter_map(|tool| tool.check_output_schema().err())
            .collect();
        for (name, arguments) in samples {
            let Some(tool) = tools.iter().find(|tool| tool.name == *name) else {
                problems.push(format!("`{name}`: no such tool"));
                continue;
            };
            match self.call_tool(name, arguments.clone()).await {
                Err(error) => problems.push(format!("`{name}` {arguments}: {error}")),
                Ok(result) if result.is_error => problems.push(format!(
                    "`{name}` {arguments}: the tool failed: {}",
                    result.text()
                )),
                Ok(result) => {
                    if let Err(problem) = tool.check_output(&result) {
                        problems.push(format!("{arguments}: {problem}"));
                    }
                }
            }
        }
        if problems.is_empty() {
            Ok(())
        } else {
            Err(format!(
                "the tool contract is broken:\n  {}",
                problems.join("\n  ")
            ))
        }
    }
}

impl TestClient {
    /// What the contract snapshot holds: the tools alone (as before there were other
    /// primitives, so such snapshots stay as they are), or an object with the tools and
    /// every other list the server offers that is not empty.
    async fn contract_surface(&self, tools: Value) -> Result<Value, String> {
        let mut surface = serde_json::Map::new();
        for (method, member) in CONTRACT_LISTS {
            let listing = match self.core.list_all(method, member).await {
                Ok(mut listing) => listing[member].take(),
                // A server without resources (or prompts) does not know the method.
                Err(error) if error.code == ResponseError::METHOD_NOT_FOUND => continue,
                Err(error) => return Err(format!("{method} failed: {error}")),
            };
            if listing
                .as_array()
                .is_some_and(|entries| !entries.is_empty())
            {
                surface.insert(member.to_owned(), listing);
            }
        }
        if surface.is_empty() {
            return Ok(tools);
        }
        let mut object = serde_json::Map::new();
        object.insert("tools".to_owned(), tools);
        object.extend(surface);
        Ok(Value::Object(object))
    }
}

/// Prompt arguments (or completion context) as a JSON object of strings.
fn string_map<K, V>(pairs: impl IntoIterator<Item = (K, V)>) -> serde_json::Map<String, Value>
where
    K: Into<String>,
    V: Into<String>,
{
    pairs
        .into_iter()
        .map(|(key, value)| (key.into(), Value::String(value.into())))
        .collect()
}

impl Tool {
    /// Checks that the tool's `outputSchema`, if any, is a valid JSON Schema (2020-12).
    ///
    /// ```
    /// use mcp_runtime::testing::Tool;
    /// use serde_json::json;
    ///
    /// let tool: Tool = serde_json::from_value(json!({
    ///     "name": "broken",
    ///     "inputSchema": { "type": "object" },
    ///     "outputSchema": { "type": "object", "properties": { "n": { "type": "integr" } } },
    /// })).unwrap();
    /// assert!(tool.check_output_schema().unwrap_err().contains("`broken`"));
    /// ```
    pub fn check_output_schema(&self) -> Result<(), String> {
        let Some(schema) = &self.output_schema else {
            return Ok(());
        };
        jsonschema::meta::validate(schema).map_err(|error| {
            format!(
                "`{}`: outputSchema is not a valid JSON Schema: {error}",
                self.name
            )
        })?;
        if schema["type"] != "object" {
            return Err(format!(
                "`{}`: outputSchema must describe an object",
                self.name
            ));
        }
        Ok(())
    }

    /// Checks a call's result against the tool's `outputSchema`: a tool with one must send
    /// `structuredContent` that matches it (unless the call failed).
    ///
    /// ```
    /// use mcp_runtime::testing::{Tool, ToolResult};
    /// use serde_json::json;
    ///
    /// let tool: Tool = serde_json::from_value(json!({
    ///     "name": "count",
    ///     "inputSchema": { "type": "object" },
    ///     "outputSchema": { "type": "object", "properties": { "n": { "type": "integer" } } },
    /// })).unwrap();
    /// let result: ToolResult = serde_json::from_value(json!({
    ///     "content": [], "structuredContent": { "n": "three" },
    /// })).unwrap();
    /// assert!(tool.check_output(&result).is_err());
    /// ```
    pub fn check_output(&self, result: &ToolResult) -> Result<(), String> {
        let (Some(schema), false) = (&self.output_schema, result.is_error) else {
            return Ok(());
        };
        let Some(structured) = &result.structured_content else {
            return Err(format!(
                "`{}`: has an outputSchema but sent no structuredContent",
                self.name
            ));
        };
        let validator = jsonschema::validator_for(schema)
            .map_err(|error| format!("`{}`: outputSchema does not compile: {error}", self.name))?;
        let problems: Vec<String> = validator
            .iter_errors(structured)
            .map(|error| format!("at `{}`: {error}", error.instance_path()))
            .collect();
        if problems.is_empty() {
            Ok(())
        } else {
            Err(format!(
                "`{}`: structuredContent does not match the outputSchema: {}",
                self.name,
                problems.join("; ")
            ))
        }
    }
}
