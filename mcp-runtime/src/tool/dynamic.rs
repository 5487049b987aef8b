//! [`DynamicTool`]: a tool defined at run time, with a JSON Schema and a handler instead
//! of a Rust signature; added to a running server through [`ToolSet`](crate::ToolSet).

use std::fmt;
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use serde_json::{Map, Value};

use crate::apps::{ToolUi, Visibility, view_uri_problem};
use crate::context::Context;
use crate::json_schema::validate::Schema;
use crate::middleware::{Layer, SharedLayer};
use crate::task::TaskSupport;
use crate::tool::descriptor::ToolPolicy;
use crate::tool::hints::ToolHints;
use crate::tool::invoke::ToolFuture;
use crate::tool::rate::Rate;
use crate::tool::result::IntoCallToolResult;

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
    /// What a caller must hold to call it (`scopes = [...]` of `#[mcp_tool]`).
    pub(crate) scopes: Vec<String>,
    /// Its own layers, innermost last.
    pub(crate) layers: Vec<SharedLayer>,
    /// Its MCP Apps view (`ui = "ui://..."` of `#[mcp_tool]`).
    pub(crate) view: Option<String>,
    pub(crate) visibility: Visibility,
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
            scopes: Vec::new(),
            layers: Vec::new(),
            view: None,
            visibility: Visibility::ModelAndApp,
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

    /// Adds a tag, for [`ToolSet::disable_tag`](crate::ToolSet::disable_tag) and
    /// [`ToolSet::enable_tag`](crate::ToolSet::enable_tag).
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

    /// Whether calls of this tool may, must or may not run as tasks (as
    /// `#[mcp_tool(task = "optional")]`); [`TaskSupport::Forbidden`] unless set.
    pub fn task_support(mut self, support: TaskSupport) -> Self {
        self.policy.task = support;
        self
    }

    /// Asks for input before the call becomes a task (as
    /// `#[mcp_tool(input_before_task)]`): see [`TaskSupport`] for when a call becomes one.
    pub fn input_before_task(mut self) -> Self {
        self.policy.input_before_task = true;
        self
    }

    /// Requires the caller's principal to hold `scope` (as `#[mcp_tool(scopes = [...])]`);
    /// each call adds one. See [`Server::scopes_of`](crate::Server::scopes_of).
    pub fn scope(mut self, scope: impl Into<String>) -> Self {
        self.scopes.push(scope.into());
        self
    }

    /// Wraps this tool's calls in `layer`, inside the server's layers (as
    /// `#[mcp_tool(layer = ...)]`); see [`middleware`](crate::middleware).
    pub fn layer(mut self, layer: impl Layer) -> Self {
        self.layers.push(Arc::new(layer));
        self
    }

    /// Names the tool's MCP Apps view, a `ui://` resource returning an
    /// [`apps::View`](crate::apps::View) (as `#[mcp_tool(ui = "ui://...")]`): hosts that
    /// render MCP Apps show the tool's results in it. A tool in the server when it starts
    /// must name a resource it serves, or the server does not start; [`ToolSet::add`]
    /// refuses a URI without the `ui://` scheme.
    ///
    /// [`ToolSet::add`]: crate::ToolSet::add
    pub fn view(mut self, uri: impl Into<String>) -> Self {
        self.view = Some(uri.into());
        self
    }

    /// Who may call the tool, the model, its view or both (as
    /// `#[mcp_tool(visibility = [...])]`); [`Visibility::ModelAndApp`] unless set.
    pub fn visibility(mut self, visibility: Visibility) -> Self {
        self.visibility = visibility;
        self
    }

    /// Its `_meta.ui`, as the listing writes it.
    pub(crate) fn ui(&self) -> ToolUi<'_> {
        ToolUi {
            resource_uri: self.view.as_deref(),
            visibility: self.visibility,
        }
    }

    pub(crate) fn invoke(&self, arguments: Map<String, Value>, context: Context) -> ToolFuture {
        let handler = Arc::clone(&self.handler);
        // The handler runs inside the future, so a panic in it is caught like any tool's.
        Box::pin(async move { handler(arguments, context).await })
    }

    /// Checks what `#[mcp_tool]` checks at compile time.
    pub(crate) fn check(&self) -> Result<(), String> {
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
        Schema::compile(&self.input_schema)
            .map_err(|error| format!("the input schema is not a valid JSON Schema: {error}"))?;
        crate::tool::header::header_params(&self.input_schema)?;
        if let Some(problem) = self.view.as_deref().and_then(view_uri_problem) {
            return Err(problem);
        }
        if let Some(output) = &self.output_schema {
            if output.get("type").and_then(Value::as_str) != Some("object") {
                return Err(
                    "the output schema must be an object schema (`\"type\": \"object\"`)".into(),
                );
            }
            Schema::compile(output).map_err(|error| {
                format!("the output schema is not a valid JSON Schema: {error}")
            })?;
        }
        Ok(())
    }
}
