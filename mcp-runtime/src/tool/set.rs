//! [`ToolSet`]: the server's tools while it runs — disable and enable them by name or tag,
//! add tools that were not known at compile time ([`DynamicTool`]), remove them again —
//! and the change notifications that tell clients to list the tools again.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::future::Future;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use std::time::Duration;

use serde_json::{Map, Value};
use tokio::sync::watch;

use crate::catalog::{Catalog, CatalogTool, ToolSource};
use crate::context::Context;
use crate::error::Error;
use crate::extract::States;
use crate::invoke::ToolFuture;
use crate::rate_limit::Rate;
use crate::registry::{ToolHints, ToolPolicy, registered_tools};
use crate::result::IntoCallToolResult;

type Handler = Arc<dyn Fn(Map<String, Value>, Context) -> ToolFuture + Send + Sync>;

/// A tool defined at run time: a name, a JSON Schema for its arguments, and an async
/// handler. Use it for tools whose shape is only known when the server runs (a plugin, a
/// database's tables, a proxied service); for everything else `#[mcp_tool]` is shorter.
///
/// ```
/// use mcp_runtime::{DynamicTool, Server};
/// use serde_json::json;
///
/// let server = Server::new("shop", "1.0.0");
/// server
///     .tool_set()
///     .add(
///         DynamicTool::new(
///             "price",
///             json!({
///                 "type": "object",
///                 "properties": { "sku": { "type": "string", "pattern": "^[A-Z]{3}-[0-9]+$" } },
///                 "required": ["sku"],
///             }),
///             |arguments, _ctx| async move {
///                 // Arguments were validated against the schema before the handler runs.
///                 format!("{} costs 4.20", arguments["sku"].as_str().unwrap_or_default())
///             },
///         )
///         .description("Look up a price.")
///         .read_only(true),
///     )
///     .expect("a valid tool");
/// ```
#[derive(Clone)]
pub struct DynamicTool {
    pub(crate) name: String,
    pub(crate) title: Option<String>,
    pub(crate) description: Option<String>,
    pub(crate) input_schema: Value,
    pub(crate) output_schema: Option<Value>,
    pub(crate) hints: ToolHints,
    pub(crate) tags: Vec<String>,
    pub(crate) policy: ToolPolicy,
    handler: Handler,
}

impl fmt::Debug for DynamicTool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DynamicTool")
            .field("name", &self.name)
            .field("input_schema", &self.input_schema)
            .field("tags", &self.tags)
            .finish_non_exhaustive()
    }
}

impl DynamicTool {
    /// A tool called `name` whose arguments follow `input_schema` (a JSON Schema 2020-12
    /// object schema, passed to clients unchanged) and which `handler` runs. The handler
    /// gets the validated arguments and the request's [`Context`], and may return anything a
    /// `#[mcp_tool]` function may.
    pub fn new<F, Fut>(name: impl Into<String>, input_schema: Value, handler: F) -> Self
    where
        F: Fn(Map<String, Value>, Context) -> Fut + Send + Sync + 'static,
        Fut: Future + Send + 'static,
        Fut::Output: IntoCallToolResult,
    {
        let handler: Handler = Arc::new(move |arguments, context| {
            let running = handler(arguments, context);
            Box::pin(async move { running.await.into_call_tool_result() })
        });
        DynamicTool {
            name: name.into(),
            title: None,
            description: None,
            input_schema,
            output_schema: None,
            hints: ToolHints::default(),
            tags: Vec::new(),
            policy: ToolPolicy::default(),
            handler,
        }
    }

    /// A human-readable display name.
    pub fn title(mut self, title: impl Into<String>) -> Self {
        self.title = Some(title.into());
        self
    }

    /// What the tool does, for the model.
    pub fn description(mut self, description: impl Into<String>) -> Self {
        self.description = Some(description.into());
        self
    }

    /// The schema of the tool's `structuredContent` (an object schema).
    pub fn output_schema(mut self, schema: Value) -> Self {
        self.output_schema = Some(schema);
        self
    }

    /// `readOnlyHint`.
    pub fn read_only(mut self, read_only: bool) -> Self {
        self.hints.read_only = Some(read_only);
        self
    }

    /// `destructiveHint`.
    pub fn destructive(mut self, destructive: bool) -> Self {
        self.hints.destructive = Some(destructive);
        self
    }

    /// `idempotentHint`.
    pub fn idempotent(mut self, idempotent: bool) -> Self {
        self.hints.idempotent = Some(idempotent);
        self
    }

    /// `openWorldHint`.
    pub fn open_world(mut self, open_world: bool) -> Self {
        self.hints.open_world = Some(open_world);
        self
    }

    /// Adds a tag, for [`ToolSet::disable_tag`] and [`ToolSet::enable_tag`].
    pub fn tag(mut self, tag: impl Into<String>) -> Self {
        self.tags.push(tag.into());
        self
    }

    /// Stops a call of this tool after `limit` (as `#[mcp_tool(timeout = "...")]`).
    pub fn timeout(mut self, limit: Duration) -> Self {
        self.policy.timeout_ms = Some(u64::try_from(limit.as_millis()).unwrap_or(u64::MAX));
        self
    }

    /// At most `calls` calls of this tool run at once; the rest wait.
    pub fn max_concurrency(mut self, calls: u32) -> Self {
        self.policy.max_concurrency = Some(calls.max(1));
        self
    }

    /// Limits the calls of this tool to `rate` (as `#[mcp_tool(rate = "10/s")]`); calls
    /// over it are refused or wait, as [`Server::rate_limit_mode`](crate::Server::rate_limit_mode) says.
    pub fn rate(mut self, rate: Rate) -> Self {
        self.policy.rate = Some(rate);
        self
    }

    pub(crate) fn invoke(&self, arguments: Map<String, Value>, context: Context) -> ToolFuture {
        let handler = Arc::clone(&self.handler);
        // The handler runs inside the future, so a panic in it is caught like any tool's.
        Box::pin(async move { handler(arguments, context).await })
    }

    /// Checks what `#[mcp_tool]` checks at compile time.
    fn check(&self) -> Result<(), String> {
        let name_ok = (1..=64).contains(&self.name.len())
            && self
                .name
                .bytes()
                .all(|byte| byte.is_ascii_alphanumeric() || b"_.-".contains(&byte));
        if !name_ok {
            return Err(
                "a tool name must be 1 to 64 characters of A-Z, a-z, 0-9, `_`, `.` and `-`".into(),
            );
        }
        if self.input_schema.get("type").and_then(Value::as_str) != Some("object") {
            return Err(
                "the input schema must be an object schema (`\"type\": \"object\"`)".into(),
            );
        }
        jsonschema::draft202012::new(&self.input_schema)
            .map_err(|error| format!("the input schema is not a valid JSON Schema: {error}"))?;
        if let Some(output) = &self.output_schema {
            if output.get("type").and_then(Value::as_str) != Some("object") {
                return Err(
                    "the output schema must be an object schema (`\"type\": \"object\"`)".into(),
                );
            }
            jsonschema::draft202012::new(output).map_err(|error| {
                format!("the output schema is not a valid JSON Schema: {error}")
            })?;
        }
        Ok(())
    }
}

/// A handle on a server's tools while it runs: disable and enable tools by name or by tag,
/// add and remove [`DynamicTool`]s. Every connection sees a change at once, and clients are
/// told: `notifications/tools/list_changed` for handshake-era clients, and on
/// `subscriptions/listen` streams that asked for `toolsListChanged` under 2026-07-28.
///
/// Get it from [`Server::tool_set`](crate::Server::tool_set) before serving; it is cheap to
/// clone and can be used from any thread or task, including from inside a tool.
///
/// A tool is listed (and callable) unless its name is disabled or one of its tags is.
///
/// ```
/// use mcp_runtime::{mcp_tool, Server};
///
/// /// Drop every table.
/// #[mcp_tool(destructive, tags = ["admin"])]
/// async fn drop_all() -> &'static str {
///     "dropped"
/// }
///
/// let server = Server::new("db", "1.0.0");
/// let tools = server.tool_set();
/// tools.disable_tag("admin"); // until someone logs in as an administrator
/// assert!(!tools.is_enabled("drop_all"));
/// tools.enable_tag("admin");
/// assert!(tools.is_enabled("drop_all"));
/// ```
#[derive(Clone)]
pub struct ToolSet {
    inner: Arc<ToolSetInner>,
}

struct ToolSetInner {
    state: Mutex<ToolSetState>,
    /// What requests see: rebuilt as a whole on every change.
    current: RwLock<Arc<Catalog>>,
    /// Bumped on every change of the listed tools; connections watch it.
    changes: watch::Sender<u64>,
    /// Whether clients are told the list may change (`listChanged: true`): once someone
    /// holds a handle that can change it.
    announced: AtomicBool,
}

#[derive(Default)]
struct ToolSetState {
    /// The `#[mcp_tool]`s linked in, once the server has started.
    statics: Option<Vec<Arc<CatalogTool>>>,
    dynamic: BTreeMap<String, Arc<CatalogTool>>,
    disabled_names: BTreeSet<String>,
    disabled_tags: BTreeSet<String>,
}

impl fmt::Debug for ToolSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let state = self.inner.state.lock().expect("tool set poisoned");
        f.debug_struct("ToolSet")
            .field("dynamic", &state.dynamic.keys().collect::<Vec<_>>())
            .field("disabled_names", &state.disabled_names)
            .field("disabled_tags", &state.disabled_tags)
            .finish_non_exhaustive()
    }
}

impl ToolSet {
    pub(crate) fn new() -> Self {
        ToolSet {
            inner: Arc::new(ToolSetInner {
                state: Mutex::new(ToolSetState::default()),
                current: RwLock::new(Arc::new(Catalog::default())),
                changes: watch::channel(0).0,
                announced: AtomicBool::new(false),
            }),
        }
    }

    /// Marks the set as changeable: clients are told `listChanged: true`.
    pub(crate) fn announce_changes(&self) {
        self.inner.announced.store(true, Ordering::Relaxed);
    }

    /// Whether clients are told the tool list may change.
    pub(crate) fn announces_changes(&self) -> bool {
        self.inner.announced.load(Ordering::Relaxed)
    }

    /// Loads the `#[mcp_tool]`s linked in (once) and checks them; the server's start.
    pub(crate) fn prepare(&self, states: &States) -> Result<(), Error> {
        let mut state = self.inner.state.lock().expect("tool set poisoned");
        if state.statics.is_none() {
            let statics = Catalog::static_tools(registered_tools())?;
            Catalog::check_extractors(&statics, states)?;
            if let Some(clash) = statics
                .iter()
                .find(|tool| state.dynamic.contains_key(tool.name()))
            {
                return Err(Error::InvalidTool {
                    name: clash.name().to_owned(),
                    problem: "an #[mcp_tool] of the same name is linked into the binary".into(),
                });
            }
            state.statics = Some(statics);
        }
        self.refresh(&state);
        Ok(())
    }

    /// The tools requests see now.
    pub(crate) fn catalog(&self) -> Arc<Catalog> {
        Arc::clone(&self.inner.current.read().expect("tool set poisoned"))
    }

    /// Changes of the listed tools, for a connection to pass on to its client.
    pub(crate) fn subscribe(&self) -> watch::Receiver<u64> {
        self.inner.changes.subscribe()
    }

    /// Lists and allows the tool called `name` again (unless one of its tags is disabled).
    /// Returns false if no tool has that name.
    pub fn enable(&self, name: &str) -> bool {
        self.change(|state| {
            state.disabled_names.remove(name);
            state.knows(name)
        })
    }

    /// Stops listing the tool called `name`; calls to it get "unknown tool" until it is
    /// enabled again. Calls already running finish. Returns false if no tool has that name.
    pub fn disable(&self, name: &str) -> bool {
        self.change(|state| {
            state.disabled_names.insert(name.to_owned());
            state.knows(name)
        })
    }

    /// Enables every tool tagged `tag` (those not disabled by name or by another tag).
    /// Returns how many tools carry the tag.
    pub fn enable_tag(&self, tag: &str) -> usize {
        self.change(|state| {
            state.disabled_tags.remove(tag);
            state.count_tagged(tag)
        })
    }

    /// Disables every tool tagged `tag`. Returns how many tools carry the tag.
    pub fn disable_tag(&self, tag: &str) -> usize {
        self.change(|state| {
            state.disabled_tags.insert(tag.to_owned());
            state.count_tagged(tag)
        })
    }

    /// Adds a tool; it is listed at once (unless its name or a tag of it is disabled).
    /// Fails if the tool is malformed or its name is taken.
    pub fn add(&self, tool: DynamicTool) -> Result<(), Error> {
        let invalid = |problem: String| Error::InvalidTool {
            name: tool.name.clone(),
            problem,
        };
        tool.check().map_err(invalid)?;
        let mut failure = None;
        self.change(|state| {
            if state.knows(&tool.name) {
                failure = Some(invalid("a tool of that name already exists".into()));
                return;
            }
            let name = tool.name.clone();
            let entry = Arc::new(CatalogTool::new(ToolSource::Dynamic(Arc::new(
                tool.clone(),
            ))));
            state.dynamic.insert(name, entry);
        });
        failure.map_or(Ok(()), Err)
    }

    /// Removes a tool added with [`add`](ToolSet::add). Returns false if there is no such
    /// tool (`#[mcp_tool]`s cannot be removed; [`disable`](ToolSet::disable) them).
    pub fn remove(&self, name: &str) -> bool {
        self.change(|state| state.dynamic.remove(name).is_some())
    }

    /// Whether the tool called `name` exists and is enabled.
    pub fn is_enabled(&self, name: &str) -> bool {
        let state = self.inner.state.lock().expect("tool set poisoned");
        state.with_all(|tools| {
            tools
                .iter()
                .any(|tool| tool.name() == name && state.enabled(tool))
        })
    }

    /// Applies a change, then rebuilds what requests see and tells connections if the
    /// listed tools changed.
    fn change<T>(&self, apply: impl FnOnce(&mut ToolSetState) -> T) -> T {
        let mut state = self.inner.state.lock().expect("tool set poisoned");
        let outcome = apply(&mut state);
        self.refresh(&state);
        outcome
    }

    fn refresh(&self, state: &ToolSetState) {
        let Some(statics) = &state.statics else {
            // Not serving yet: the catalog is built when the server starts.
            return;
        };
        let listed: Vec<Arc<CatalogTool>> = statics
            .iter()
            .chain(state.dynamic.values())
            .filter(|tool| state.enabled(tool))
            .cloned()
            .collect();
        let catalog = Catalog::new(listed);
        let mut current = self.inner.current.write().expect("tool set poisoned");
        if current.same_tools(&catalog) {
            return;
        }
        *current = Arc::new(catalog);
        drop(current);
        self.inner
            .changes
            .send_modify(|generation| *generation += 1);
    }
}

impl ToolSetState {
    fn enabled(&self, tool: &CatalogTool) -> bool {
        !self.disabled_names.contains(tool.name())
            && !self.disabled_tags.iter().any(|tag| tool.has_tag(tag))
    }

    /// Runs `look` over every tool, enabled or not (statics read from the registry if the
    /// server has not started yet).
    fn with_all<T>(&self, look: impl FnOnce(&[Arc<CatalogTool>]) -> T) -> T {
        let mut tools: Vec<Arc<CatalogTool>> = match &self.statics {
            Some(statics) => statics.clone(),
            None => registered_tools()
                .map(|descriptor| Arc::new(CatalogTool::new(ToolSource::Static(descriptor))))
                .collect(),
        };
        tools.extend(self.dynamic.values().cloned());
        look(&tools)
    }

    fn knows(&self, name: &str) -> bool {
        self.dynamic.contains_key(name) || registered_tools().any(|tool| tool.name == name)
    }

    fn count_tagged(&self, tag: &str) -> usize {
        self.with_all(|tools| tools.iter().filter(|tool| tool.has_tag(tag)).count())
    }
}
