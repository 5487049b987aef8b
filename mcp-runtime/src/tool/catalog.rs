//! The set of tools a server offers, prepared once at start-up.
//!
//! Tools are sorted by name so `tools/list` is stable across connections and pages. Each
//! tool's schemas, its listing JSON (one per revision shape) and its argument validator are
//! built the first time they are needed and then reused, so start-up stays fast however many
//! tools are linked in, and no request regenerates a schema.

use std::borrow::Cow;
use std::sync::{Arc, OnceLock};

use serde_json::value::RawValue;
use serde_json::{Map, Value};

use crate::apps::ToolUi;
use crate::error::Error;
use crate::icon::{Icon, IconDescriptor, icons_json};
use crate::json_schema::validate::Schema;
use crate::middleware::{ServerLayers, SharedLayer, ToolFacts};
use crate::protocol::cursor;
use crate::protocol::jsonrpc::RpcError;
use crate::protocol::version::ProtocolVersion;
use crate::task::TaskSupport;
use crate::tool::arguments::{ArgumentKind, ArgumentShape, ToolArguments};
use crate::tool::descriptor::{ToolDescriptor, ToolPolicy};
use crate::tool::dynamic::DynamicTool;
use crate::tool::extract::{CallContext, ParamDescriptor, States, ToolCall};
use crate::tool::header::{self, HeaderParam};
use crate::tool::hints::ToolHints;
use crate::tool::invoke::ToolFuture;
use crate::tool::rate::Limiter;
use crate::tool::{problems, schema};

/// The list a `tools/list` cursor belongs to.
const TOOLS: &str = "tool";

/// How a `Tool` object looks in a given revision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ListingShape {
    /// 2024-11-05: name, description, inputSchema.
    Basic,
    /// 2025-03-26: adds `annotations` (where the title goes, as `annotations.title`).
    Annotated,
    /// 2025-06-18: adds `title` and `outputSchema`.
    Full,
    /// 2026-07-28: adds `icons`.
    WithIcons,
    /// 2025-11-25: adds `icons`, and `execution.taskSupport` (which 2026-07-28 dropped: its
    /// tasks are an extension the server offers per call).
    WithExecution,
}

impl ListingShape {
    fn of(version: ProtocolVersion) -> ListingShape {
        if version.has_task_support_listing() {
            ListingShape::WithExecution
        } else if version.has_icons() {
            ListingShape::WithIcons
        } else if version.has_structured_output() {
            ListingShape::Full
        } else if version.has_tool_annotations() {
            ListingShape::Annotated
        } else {
            ListingShape::Basic
        }
    }

    fn index(self) -> usize {
        self as usize
    }
}

/// A tool's schemas.
struct ToolSchemas {
    input: Value,
    output: Option<Value>,
    wraps_output: bool,
}

/// Where a tool comes from.
#[derive(Clone)]
pub(crate) enum ToolSource {
    /// An `#[mcp_tool]` function linked into the binary.
    Static(&'static ToolDescriptor),
    /// A tool added at run time through a [`ToolSet`](crate::ToolSet).
    Dynamic(Arc<DynamicTool>),
}

/// One tool of the catalog.
pub(crate) struct CatalogTool {
    pub source: ToolSource,
    /// `max_concurrency`: slots for this tool's calls, if it limits them.
    pub slots: Option<Arc<tokio::sync::Semaphore>>,
    /// `rate`: this tool's rate limit, if it has one.
    pub rate_limiter: Option<Arc<Limiter>>,
    schemas: OnceLock<ToolSchemas>,
    /// The layers its calls go through (the server's, its tags', its own), made on its
    /// first call.
    layers: OnceLock<Arc<[SharedLayer]>>,
    validator: OnceLock<Result<Schema, String>>,
    /// The parameters mirrored into HTTP headers (`x-mcp-header`), read from `inputSchema`.
    headers: OnceLock<Result<Vec<HeaderParam>, String>>,
    /// Whether its calls' arguments are decoded straight into its parameters, decided on
    /// its first call.
    typed: OnceLock<Option<ArgumentShape>>,
    listings: [OnceLock<Box<RawValue>>; 5],
}

impl CatalogTool {
    pub fn new(source: ToolSource) -> Self {
        let policy = match &source {
            ToolSource::Static(descriptor) => descriptor.policy,
            ToolSource::Dynamic(tool) => tool.policy,
        };
        CatalogTool {
            rate_limiter: policy.rate.map(Limiter::new),
            slots: policy
                .max_concurrency
                .map(|limit| Arc::new(tokio::sync::Semaphore::new(limit as usize))),
            source,
            schemas: OnceLock::new(),
            layers: OnceLock::new(),
            validator: OnceLock::new(),
            headers: OnceLock::new(),
            typed: OnceLock::new(),
            listings: Default::default(),
        }
    }

    pub fn name(&self) -> &str {
        match &self.source {
            ToolSource::Static(descriptor) => descriptor.name,
            ToolSource::Dynamic(tool) => &tool.name,
        }
    }

    /// The tool's name, shared rather than copied where it is static.
    pub fn shared_name(&self) -> Cow<'static, str> {
        match &self.source {
            ToolSource::Static(descriptor) => Cow::Borrowed(descriptor.name),
            ToolSource::Dynamic(tool) => Cow::Owned(tool.name.clone()),
        }
    }

    fn title(&self) -> Option<&str> {
        match &self.source {
            ToolSource::Static(descriptor) => descriptor.title,
            ToolSource::Dynamic(tool) => tool.title.as_deref(),
        }
    }

    fn description(&self) -> Option<&str> {
        match &self.source {
            ToolSource::Static(descriptor) => descriptor.description,
            ToolSource::Dynamic(tool) => tool.description.as_deref(),
        }
    }

    /// The tool's MCP Apps view and visibility (`#[mcp_tool(ui = ...)]`).
    pub fn ui(&self) -> ToolUi<'_> {
        match &self.source {
            ToolSource::Static(descriptor) => descriptor.ui,
            ToolSource::Dynamic(tool) => tool.ui(),
        }
    }

    fn icons(&self) -> &'static [IconDescriptor] {
        match &self.source {
            ToolSource::Static(descriptor) => descriptor.icons,
            ToolSource::Dynamic(_) => &[],
        }
    }

    pub fn hints(&self) -> ToolHints {
        match &self.source {
            ToolSource::Static(descriptor) => descriptor.hints,
            ToolSource::Dynamic(tool) => tool.hints,
        }
    }

    /// The limits the tool states for itself.
    pub fn policy(&self) -> ToolPolicy {
        match &self.source {
            ToolSource::Static(descriptor) => descriptor.policy,
            ToolSource::Dynamic(tool) => tool.policy,
        }
    }

    /// The tool's tags (`tags = [...]`), by which a [`ToolSet`](crate::ToolSet) enables
    /// and disables groups of tools.
    pub fn has_tag(&self, tag: &str) -> bool {
        match &self.source {
            ToolSource::Static(descriptor) => descriptor.tags.contains(&tag),
            ToolSource::Dynamic(tool) => tool.tags.iter().any(|own| own == tag),
        }
    }

    /// The scopes a caller must hold (`scopes = [...]`).
    pub fn scopes(&self) -> impl Iterator<Item = &str> {
        match &self.source {
            ToolSource::Static(descriptor) => {
                crate::access::required(descriptor.policy.scopes, &[])
            }
            ToolSource::Dynamic(tool) => crate::access::required(&[], &tool.scopes),
        }
    }

    /// Whether its `inputSchema` mirrors parameters into headers, told without building it
    /// for a static tool.
    fn mirrors_headers(&self) -> bool {
        match &self.source {
            ToolSource::Static(descriptor) => {
                descriptor.params.iter().any(|param| param.header.is_some())
            }
            ToolSource::Dynamic(_) => !self.header_params().is_empty(),
        }
    }

    /// The parameters its calls mirror into `Mcp-Param-*` headers over HTTP, or why its
    /// annotations are invalid.
    pub fn checked_header_params(&self) -> Result<&[HeaderParam], &str> {
        self.headers
            .get_or_init(|| header::header_params(self.input_schema()))
            .as_deref()
            .map_err(String::as_str)
    }

    /// The parameters its calls mirror into headers (none if the annotations are invalid,
    /// which start-up and [`DynamicTool`] refuse).
    pub fn header_params(&self) -> &[HeaderParam] {
        self.checked_header_params().unwrap_or_default()
    }

    /// Whether calling it needs any scope.
    pub fn needs_scopes(&self) -> bool {
        self.scopes().next().is_some()
    }

    /// The tool's own layers (`layer = ...`), made anew.
    pub fn own_layers(&self) -> Vec<SharedLayer> {
        match &self.source {
            ToolSource::Static(descriptor) => descriptor.layers.iter().map(|make| make()).collect(),
            ToolSource::Dynamic(tool) => tool.layers.clone(),
        }
    }

    /// The layers its calls go through, made once per server.
    pub fn layers(&self, server: &ServerLayers) -> &Arc<[SharedLayer]> {
        self.layers
            .get_or_init(|| server.chain_for(|tag| self.has_tag(tag), self.own_layers()))
    }

    /// How this tool's calls have their arguments decoded straight into its parameters
    /// (`tool::arguments`), if they do: a static tool whose every parameter allows it, and no
    /// layer, since layers see the arguments as a map. Decided on its first call.
    pub fn argument_shape(&self, server: &ServerLayers) -> Option<&ArgumentShape> {
        self.typed
            .get_or_init(|| match &self.source {
                ToolSource::Static(descriptor) if self.layers(server).is_empty() => {
                    argument_shape(descriptor.params)
                }
                _ => None,
            })
            .as_ref()
    }

    /// Starts a call: its arguments were decoded for this tool, and validated when they
    /// are a map.
    #[inline]
    pub fn invoke<'a>(
        &self,
        arguments: ToolArguments,
        context: CallContext<'a>,
        states: &'a States,
    ) -> ToolFuture {
        match (&self.source, arguments) {
            (ToolSource::Static(descriptor), ToolArguments::Map(arguments)) => {
                (descriptor.invoke)(ToolCall::new(arguments, context, states))
            }
            (ToolSource::Static(descriptor), ToolArguments::Typed(arguments)) => (descriptor
                .invoke)(
                ToolCall::typed(arguments, descriptor.params, context, states),
            ),
            (ToolSource::Dynamic(tool), ToolArguments::Map(arguments)) => {
                tool.invoke(arguments, context.get().clone())
            }
            (ToolSource::Dynamic(_), ToolArguments::Typed(_)) => {
                unreachable!("a dynamic tool has no argument shape, so no typed decoding")
            }
        }
    }

    fn schemas(&self) -> &ToolSchemas {
        self.schemas.get_or_init(|| match &self.source {
            ToolSource::Static(descriptor) => {
                let (output, wraps_output) = match schema::output_schema(descriptor) {
                    Some((output, wraps)) => (Some(output), wraps),
                    None => (None, false),
                };
                ToolSchemas {
                    input: schema::input_schema(descriptor.params),
                    output,
                    wraps_output,
                }
            }
            ToolSource::Dynamic(tool) => ToolSchemas {
                input: tool.input_schema.clone(),
                output: tool.output_schema.clone(),
                wraps_output: false,
            },
        })
    }

    /// The tool's `inputSchema`.
    pub fn input_schema(&self) -> &Value {
        &self.schemas().input
    }

    /// The tool's `outputSchema`, if its return type has structured output.
    pub fn output_schema(&self) -> Option<&Value> {
        self.schemas().output.as_ref()
    }

    /// Whether structured output is wrapped as `{"result": …}`.
    pub fn wraps_output(&self) -> bool {
        self.schemas().wraps_output
    }

    /// Drops `null` given for an optional argument: serde reads it as `None` anyway, and
    /// clients generated from nullable schemas send it, so it means "absent" here while the
    /// advertised schema stays strict.
    pub fn drop_null_optionals(&self, arguments: &mut Map<String, Value>) {
        let ToolSource::Static(descriptor) = &self.source else {
            // A hand-written schema says for itself whether `null` is allowed.
            return;
        };
        for param in descriptor.params.iter().filter(|param| !param.required) {
            if arguments.get(param.name).is_some_and(Value::is_null) {
                arguments.remove(param.name);
            }
        }
    }

    /// Checks arguments against the `inputSchema` before the tool runs. The message names
    /// every offending argument, so a model can fix its call.
    pub fn validate_arguments(&self, arguments: &Value) -> Result<(), String> {
        let validator = self.validator.get_or_init(|| {
            Schema::compile(&schema::validation_schema(self.input_schema()))
                .map_err(|error| error.to_string())
        });
        let validator = match validator {
            Ok(validator) => validator,
            Err(error) => {
                tracing::error!(tool = self.name(), %error, "the tool's input schema does not compile; arguments are checked by decoding only");
                return Ok(());
            }
        };
        if validator.is_valid(arguments) {
            return Ok(());
        }
        let problems = problems::describe_all(&validator.errors(arguments));
        if problems.is_empty() {
            Ok(())
        } else {
            Err(problems)
        }
    }

    fn listing(&self, shape: ListingShape) -> &RawValue {
        self.listings[shape.index()].get_or_init(|| {
            let json = self.listing_json(shape);
            serde_json::value::to_raw_value(&json).expect("a JSON value always serializes")
        })
    }

    fn listing_json(&self, shape: ListingShape) -> Value {
        let mut listing = Map::new();
        listing.insert("name".into(), self.name().into());
        let full = matches!(
            shape,
            ListingShape::Full | ListingShape::WithIcons | ListingShape::WithExecution
        );
        if let (true, Some(title)) = (full, self.title()) {
            listing.insert("title".into(), title.into());
        }
        if let Some(description) = self.description() {
            listing.insert("description".into(), description.into());
        }
        listing.insert("inputSchema".into(), self.input_schema().clone());
        if let (true, Some(output)) = (full, self.output_schema()) {
            listing.insert("outputSchema".into(), output.clone());
        }
        if matches!(shape, ListingShape::WithIcons | ListingShape::WithExecution) {
            let icons: Vec<Icon> = self.icons().iter().map(Icon::from).collect();
            if let Some(icons) = icons_json(&icons) {
                listing.insert("icons".into(), icons);
            }
        }
        if shape != ListingShape::Basic {
            let mut annotations = Map::new();
            if let (ListingShape::Annotated, Some(title)) = (shape, self.title()) {
                annotations.insert("title".into(), title.into());
            }
            let hints = self.hints();
            for (key, hint) in [
                ("readOnlyHint", hints.read_only),
                ("destructiveHint", hints.destructive),
                ("idempotentHint", hints.idempotent),
                ("openWorldHint", hints.open_world),
            ] {
                if let Some(hint) = hint {
                    annotations.insert(key.into(), hint.into());
                }
            }
            if !annotations.is_empty() {
                listing.insert("annotations".into(), Value::Object(annotations));
            }
        }
        // Every revision: MCP Apps hosts read `_meta.ui` whatever revision they negotiate.
        if let Some(meta) = self.ui().meta() {
            listing.insert("_meta".into(), meta);
        }
        let task = self.policy().task;
        if shape == ListingShape::WithExecution && task != TaskSupport::Forbidden {
            listing.insert(
                "execution".into(),
                serde_json::json!({ "taskSupport": task.as_str() }),
            );
        }
        Value::Object(listing)
    }
}

impl ToolFacts for CatalogTool {
    fn hints(&self) -> ToolHints {
        CatalogTool::hints(self)
    }

    fn has_tag(&self, tag: &str) -> bool {
        CatalogTool::has_tag(self, tag)
    }

    fn required_scopes(&self) -> Vec<&str> {
        self.scopes().collect()
    }
}

/// A page of `tools/list`: its tools serialize as the `tools` array, spliced from each
/// tool's prepared listing JSON without parsing it again.
pub(crate) struct ListPage {
    catalog: Arc<Catalog>,
    tools: std::ops::Range<usize>,
    shape: ListingShape,
    /// The scopes of the caller, when tools it may not call are left out.
    permitted: Option<Vec<String>>,
    pub next_cursor: Option<String>,
}

impl serde::Serialize for ListPage {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let page = &self.catalog.tools[self.tools.clone()];
        let listed = page.iter().filter(|tool| match &self.permitted {
            Some(granted) => tool
                .scopes()
                .all(|scope| granted.iter().any(|held| held == scope)),
            None => true,
        });
        serializer.collect_seq(listed.map(|tool| tool.listing(self.shape)))
    }
}

/// The tools a server offers at one moment, sorted by name. A [`ToolSet`](crate::ToolSet)
/// replaces it as a whole when tools are enabled, disabled, added or removed; requests
/// already holding the old one finish with it.
#[derive(Default)]
pub(crate) struct Catalog {
    tools: Vec<Arc<CatalogTool>>,
    /// Whether any tool requires scopes.
    scoped: bool,
    /// Whether any tool mirrors a parameter into a header.
    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    mirrored: bool,
    /// Whether any tool names an MCP Apps view.
    views: bool,
}

impl Catalog {
    /// A catalog of these tools, which must have distinct names.
    pub fn new(mut tools: Vec<Arc<CatalogTool>>) -> Self {
        tools.sort_by(|a, b| a.name().cmp(b.name()));
        let scoped = tools.iter().any(|tool| tool.needs_scopes());
        let mirrored = tools.iter().any(|tool| tool.mirrors_headers());
        let views = tools.iter().any(|tool| tool.ui().resource_uri.is_some());
        Catalog {
            tools,
            scoped,
            mirrored,
            views,
        }
    }

    /// Catalog entries for every `#[mcp_tool]` linked in, refusing duplicate names
    /// (naming both definitions).
    pub fn static_tools(
        descriptors: impl IntoIterator<Item = &'static ToolDescriptor>,
    ) -> Result<Vec<Arc<CatalogTool>>, Error> {
        let mut descriptors: Vec<_> = descriptors.into_iter().collect();
        descriptors.sort_by_key(|tool| (tool.name, tool.location.file, tool.location.line));
        if let Some(pair) = descriptors
            .windows(2)
            .find(|pair| pair[0].name == pair[1].name)
        {
            return Err(Error::DuplicateTool {
                name: pair[0].name.to_owned(),
                first: pair[0].location,
                second: pair[1].location,
            });
        }
        Ok(descriptors
            .into_iter()
            .map(|descriptor| Arc::new(CatalogTool::new(ToolSource::Static(descriptor))))
            .collect())
    }

    /// Runs every parameter's start-up check (e.g. that a `State<T>` is registered).
    pub fn check_extractors(tools: &[Arc<CatalogTool>], states: &States) -> Result<(), Error> {
        for tool in tools {
            let ToolSource::Static(descriptor) = &tool.source else {
                continue;
            };
            for param in descriptor.params {
                if let Err(problem) = (param.check)(states) {
                    return Err(Error::Extractor {
                        tool: descriptor.name.to_owned(),
                        parameter: param.name.to_owned(),
                        location: descriptor.location,
                        problem,
                    });
                }
            }
        }
        Ok(())
    }

    /// Refuses a tool whose `x-mcp-header` annotations clients would refuse (a parameter
    /// that is not a string, an integer or a boolean): the macro checks the rest.
    pub fn check_headers(tools: &[Arc<CatalogTool>]) -> Result<(), Error> {
        for tool in tools {
            let ToolSource::Static(descriptor) = &tool.source else {
                continue;
            };
            if !tool.mirrors_headers() {
                continue;
            }
            if let Err(problem) = tool.checked_header_params() {
                return Err(Error::InvalidHeader {
                    tool: descriptor.name.to_owned(),
                    location: descriptor.location,
                    problem: problem.to_owned(),
                });
            }
        }
        Ok(())
    }

    /// Refuses a tool whose `ui = "ui://..."` names no resource: the host would have nothing
    /// to render.
    pub fn check_views<'a>(
        tools: impl IntoIterator<Item = &'a Arc<CatalogTool>>,
        exists: impl Fn(&str) -> bool,
    ) -> Result<(), Error> {
        for tool in tools {
            let Some(uri) = tool.ui().resource_uri.filter(|uri| !exists(uri)) else {
                continue;
            };
            return Err(match &tool.source {
                ToolSource::Static(descriptor) => Error::MissingView {
                    tool: descriptor.name.to_owned(),
                    location: descriptor.location,
                    uri: uri.to_owned(),
                },
                ToolSource::Dynamic(dynamic) => Error::InvalidTool {
                    name: dynamic.name.clone(),
                    problem: format!(
                        "its view `{uri}` is not a resource of the server; add one returning an \
                         `apps::View` (#[mcp_resource] or `DynamicResource`) before it starts"
                    ),
                },
            });
        }
        Ok(())
    }

    /// Whether some tool names an MCP Apps view: the server then declares the extension.
    pub fn names_views(&self) -> bool {
        self.views
    }

    /// Whether both hold exactly the same tools.
    pub fn same_tools(&self, other: &Catalog) -> bool {
        self.tools.len() == other.tools.len()
            && self
                .tools
                .iter()
                .zip(&other.tools)
                .all(|(mine, theirs)| Arc::ptr_eq(mine, theirs))
    }

    /// The tool named `name`.
    #[inline]
    pub fn get(&self, name: &str) -> Option<&Arc<CatalogTool>> {
        self.tools
            .binary_search_by(|tool| tool.name().cmp(name))
            .ok()
            .map(|index| &self.tools[index])
    }

    /// Whether any tool requires scopes (`scopes = [...]`).
    pub fn has_scoped_tools(&self) -> bool {
        self.scoped
    }

    /// Whether any tool mirrors a parameter into a header (`x-mcp-header`).
    #[cfg(feature = "http")]
    pub fn has_mirrored_headers(&self) -> bool {
        self.mirrored
    }

    /// Every tool, sorted by name.
    #[cfg(feature = "http")]
    pub fn tools(&self) -> &[Arc<CatalogTool>] {
        &self.tools
    }

    /// Number of tools.
    pub fn len(&self) -> usize {
        self.tools.len()
    }

    /// One page of the listing, shaped for `version`. The cursor names the first tool of
    /// the page, so pages stay consistent even if the set of tools changes in between.
    /// With `permitted`, the tools needing other scopes are left out (a page may then hold
    /// fewer tools than the page size).
    pub fn page(
        catalog: Arc<Catalog>,
        version: ProtocolVersion,
        cursor: Option<&str>,
        page_size: usize,
        permitted: Option<Vec<String>>,
    ) -> Result<ListPage, RpcError> {
        let start = match cursor {
            None => 0,
            Some(cursor) => {
                let first =
                    cursor::decode(TOOLS, cursor).ok_or_else(|| cursor::invalid_cursor(cursor))?;
                catalog
                    .tools
                    .partition_point(|tool| tool.name() < first.as_str())
            }
        };
        let end = start
            .saturating_add(page_size.max(1))
            .min(catalog.tools.len());
        Ok(ListPage {
            next_cursor: catalog
                .tools
                .get(end)
                .map(|next| cursor::encode(TOOLS, next.name())),
            tools: start..end,
            shape: ListingShape::of(version),
            permitted,
            catalog,
        })
    }
}

/// The shape typed decoding gives these parameters' arguments, if every one is typed or
/// supplied.
fn argument_shape(params: &'static [ParamDescriptor]) -> Option<ArgumentShape> {
    let mut kinds = Vec::with_capacity(params.len());
    for param in params {
        kinds.push(match param.typed.kind() {
            ArgumentKind::Typed(kind) => Some(kind),
            ArgumentKind::Supplied => None,
            ArgumentKind::Other => return None,
        });
    }
    ArgumentShape::new(
        params
            .iter()
            .zip(kinds)
            .map(|(param, kind)| (param.name, kind, param.required)),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tool_with_schema(input_schema: Value) -> CatalogTool {
        let tool = DynamicTool::new("t", input_schema, |_arguments, _context| async { "" });
        CatalogTool::new(ToolSource::Dynamic(Arc::new(tool)))
    }

    #[test]
    fn a_value_outside_documented_choices_names_the_choices() {
        let tool = tool_with_schema(serde_json::json!({
            "type": "object",
            "properties": {
                "status": {"oneOf": [
                    {"type": "string", "const": "open", "description": "Still to do."},
                    {"type": "string", "const": "done", "description": "Finished."},
                ]},
                "plain": {"type": "string", "enum": ["open", "done"]},
            },
        }));
        let problems = tool
            .validate_arguments(&serde_json::json!({"status": "closed", "plain": "closed"}))
            .unwrap_err();
        assert_eq!(
            problems,
            "`plain`: \"closed\" is not one of \"open\" or \"done\"; \
             `status`: \"closed\" is not one of \"open\" or \"done\""
        );
        assert_eq!(
            tool.input_schema()["properties"]["status"]["oneOf"][1]["const"],
            "done"
        );
        assert!(
            tool.validate_arguments(&serde_json::json!({"status": "done"}))
                .is_ok()
        );
    }
}
