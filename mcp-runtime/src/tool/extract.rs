//! Tool parameters: arguments decoded from the call, and values the server supplies
//! (extractors) — [`Context`], [`State<T>`], or your own.

use std::any::{Any, TypeId, type_name};
use std::cell::LazyCell;
use std::collections::HashMap;
use std::fmt;
use std::ops::Deref;
use std::sync::Arc;

use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use crate::context::Context;
use crate::tool::arguments::{ArgumentKind, TypedArguments, kind_of_type};

/// A call's arguments: a JSON object its parameters take theirs from, or already decoded
/// straight into the parameters (`tool::arguments`) when the tool takes that path.
enum CallArguments {
    Map(Map<String, Value>),
    Typed(TypedCall),
}

/// A call's arguments decoded straight into its tool's parameters, taken by name.
struct TypedCall {
    arguments: TypedArguments,
    params: &'static [ParamDescriptor],
}

impl TypedCall {
    /// The value of parameter `name` (`None` if the client left it out).
    fn take<T: 'static>(&mut self, name: &str) -> Option<T> {
        let index = self.params.iter().position(|param| param.name == name)?;
        self.arguments.take(index)
    }
}

/// One parameter of a tool: an argument (a property of its `inputSchema`) or an extractor.
/// It lives here, not in `descriptor`, because typed decoding reads it and `descriptor` builds
/// on this file.
#[doc(hidden)]
pub struct ParamDescriptor {
    /// The property name (the Rust parameter name, raw-identifier prefix removed).
    pub name: &'static str,
    /// The parameter's doc comment.
    pub description: Option<&'static str>,
    /// Whether the property is listed in `required` (false for `Option<T>` and for a
    /// parameter with a default).
    pub required: bool,
    /// `#[mcp(default = ...)]`: the default as JSON, published as the property's `default`
    /// (called when the listing is built; `Null` if it does not serialize, then left out).
    pub default: Option<fn() -> serde_json::Value>,
    /// `#[mcp(header = "Region")]`: the header the value is mirrored into over HTTP,
    /// `Mcp-Param-Region`, published as the property's `x-mcp-header`.
    pub header: Option<&'static str>,
    /// The argument's JSON schema; `None` for an extractor, which stays out of the schema.
    pub schema: fn(&mut SchemaGenerator) -> Option<Schema>,
    /// The start-up check of an extractor (e.g. that its state is registered).
    pub check: fn(&States) -> Result<(), String>,
    /// The decoding of its member's text straight into its type (see `tool::arguments`).
    pub typed: TypedParam,
}

/// One parameter's share of typed decoding: its type's kind.
#[doc(hidden)]
#[derive(Clone, Copy)]
pub struct TypedParam {
    kind: fn() -> ArgumentKind,
}

impl TypedParam {
    /// The typed decoding of a parameter of type `T`.
    pub const fn of<T: Extract>() -> TypedParam {
        TypedParam {
            kind: T::argument_kind,
        }
    }

    /// How the parameter's type takes part in typed decoding.
    pub(crate) fn kind(&self) -> ArgumentKind {
        (self.kind)()
    }

    /// A `#[mcp_tools]` method's `&self`: supplied by the runtime.
    pub const RECEIVER: TypedParam = TypedParam {
        kind: || ArgumentKind::Supplied,
    };
}

impl fmt::Debug for TypedParam {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("TypedParam").field(&(self.kind)()).finish()
    }
}

/// Shared values registered with [`Server::state`](crate::Server::state), by type.
#[derive(Clone, Default)]
pub struct States(HashMap<TypeId, Arc<dyn Any + Send + Sync>>);

impl States {
    pub(crate) fn insert<T: Send + Sync + 'static>(&mut self, value: T) {
        self.0.insert(TypeId::of::<T>(), Arc::new(value));
    }

    /// The registered value of type `T`.
    pub fn get<T: Send + Sync + 'static>(&self) -> Option<Arc<T>> {
        self.0
            .get(&TypeId::of::<T>())
            .and_then(|value| Arc::clone(value).downcast::<T>().ok())
    }

    /// Whether a value of type `T` is registered.
    pub fn contains<T: Send + Sync + 'static>(&self) -> bool {
        self.0.contains_key(&TypeId::of::<T>())
    }
}

impl fmt::Debug for States {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("States")
            .field("registered", &self.0.len())
            .finish()
    }
}

/// The request's context as a call holds it: made before the call (a layer, a task or
/// forwarded `tracing` needed it first), or made when a parameter first asks for it. A call
/// of a tool that takes only arguments never asks, and a context costs an allocation and
/// its reference counts.
pub(crate) enum CallContext<'a> {
    Made(Context),
    OnRequest {
        /// The tool's name, which a refusal names without making a context for it.
        tool: &'a str,
        context: LazyCell<Context, &'a mut dyn FnMut() -> Context>,
    },
}

impl<'a> CallContext<'a> {
    /// A context made by `make` when a parameter first asks for it.
    pub fn on_request(tool: &'a str, make: &'a mut dyn FnMut() -> Context) -> Self {
        CallContext::OnRequest {
            tool,
            context: LazyCell::new(make),
        }
    }

    pub fn get(&self) -> &Context {
        match self {
            CallContext::Made(context) => context,
            CallContext::OnRequest { context, .. } => context,
        }
    }
}

/// One call of a tool, as its parameters see it: the arguments not yet taken, the
/// request's [`Context`], and the server's shared state.
pub struct ToolCall<'a> {
    arguments: CallArguments,
    context: CallContext<'a>,
    states: &'a States,
    /// Whether the arguments are text to parse (a resource's variables, a prompt's
    /// arguments) rather than a tool's JSON arguments.
    text_arguments: bool,
}

impl<'a> ToolCall<'a> {
    pub(crate) fn new(
        arguments: Map<String, Value>,
        context: CallContext<'a>,
        states: &'a States,
    ) -> Self {
        ToolCall {
            arguments: CallArguments::Map(arguments),
            context,
            states,
            text_arguments: false,
        }
    }

    /// A call whose arguments were decoded straight into the tool's parameters.
    pub(crate) fn typed(
        arguments: TypedArguments,
        params: &'static [ParamDescriptor],
        context: CallContext<'a>,
        states: &'a States,
    ) -> Self {
        ToolCall {
            arguments: CallArguments::Typed(TypedCall { arguments, params }),
            context,
            states,
            text_arguments: false,
        }
    }

    /// A call whose arguments are text, each parsed to its parameter's type: a resource
    /// template's variables, or a prompt's arguments.
    pub(crate) fn with_text_arguments(
        arguments: Map<String, Value>,
        context: Context,
        states: &'a States,
    ) -> Self {
        ToolCall {
            text_arguments: true,
            ..ToolCall::new(arguments, CallContext::Made(context), states)
        }
    }

    /// Takes the argument called `name` out of the call (`None` if the client left it out).
    pub fn take_argument(&mut self, name: &str) -> Option<Value> {
        match &mut self.arguments {
            CallArguments::Map(arguments) => arguments.remove(name),
            CallArguments::Typed(_) => None,
        }
    }

    /// The request's context, made when first asked for.
    pub fn context(&self) -> &Context {
        self.context.get()
    }

    /// The server's shared state.
    pub fn states(&self) -> &States {
        self.states
    }

    /// The request's context if it was made before the call: always when `tracing` is
    /// forwarded, so the blocking thread can forward its events.
    pub(crate) fn context_made_before(&self) -> Option<&Context> {
        match &self.context {
            CallContext::Made(context) => Some(context),
            CallContext::OnRequest { .. } => None,
        }
    }

    /// The name of the tool called.
    fn tool_name(&self) -> &str {
        match &self.context {
            CallContext::Made(context) => context.tool_name(),
            CallContext::OnRequest { tool, .. } => tool,
        }
    }

    /// Parameter `name`'s argument as typed decoding left it, if it did. A value the server
    /// supplies (a `Context`, a `State<T>`) is never decoded, so it is not looked for.
    fn take_typed<T: Extract>(&mut self, name: &str) -> Option<T> {
        if !T::IS_ARGUMENT {
            return None;
        }
        match &mut self.arguments {
            CallArguments::Typed(typed) => typed.take::<T>(name),
            CallArguments::Map(_) => None,
        }
    }

    /// Produces parameter `name` of type `T`: the macro calls this once per parameter.
    #[doc(hidden)]
    pub fn extract<T: Extract>(&mut self, name: &'static str) -> Result<T, crate::CallToolResult> {
        if let Some(value) = self.take_typed::<T>(name) {
            return Ok(value);
        }
        let extracted = if self.text_arguments {
            T::extract_from_text(self, name)
        } else {
            T::extract(self, name)
        };
        extracted.map_err(|rejection| crate::CallToolResult::error(rejection.0))
    }

    /// Produces parameter `name`, or `default()` when the client left it out or sent
    /// `null`: the macro calls this for a parameter with `#[mcp(default = ...)]`.
    #[doc(hidden)]
    pub fn extract_or_else<T: Extract>(
        &mut self,
        name: &'static str,
        default: impl FnOnce() -> T,
    ) -> Result<T, crate::CallToolResult> {
        if let Some(value) = self.take_typed::<T>(name) {
            return Ok(value);
        }
        let argument = match &self.arguments {
            CallArguments::Map(arguments) => arguments.get(name),
            CallArguments::Typed(_) => None,
        };
        match argument {
            None | Some(Value::Null) => Ok(default()),
            Some(_) => self.extract(name),
        }
    }
}

/// Why a parameter could not be produced. The call is answered with an `isError` result
/// carrying this message, and the tool does not run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rejection(pub String);

impl Rejection {
    /// A rejection with this message for the client.
    pub fn new(message: impl Into<String>) -> Self {
        Rejection(message.into())
    }
}

impl fmt::Display for Rejection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// A type a tool may take as a parameter.
///
/// Any `serde::Deserialize + schemars::JsonSchema` type is an **argument**: it appears in
/// the tool's `inputSchema` and is decoded from the call's arguments. Other types are
/// **extractors**: the server supplies them and they never appear in the schema —
/// [`Context`], [`State<T>`], or your own, by implementing this trait:
///
/// ```
/// use mcp_runtime::{Extract, Rejection, ToolCall};
///
/// /// The caller's name, taken from the client's self-description.
/// struct ClientName(String);
///
/// impl Extract for ClientName {
///     fn extract(call: &mut ToolCall, _parameter: &'static str) -> Result<Self, Rejection> {
///         let info = call.context().client_info().ok_or_else(|| Rejection::new("the client did not introduce itself"))?;
///         Ok(ClientName(info["name"].as_str().unwrap_or("unknown").to_owned()))
///     }
/// }
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a tool parameter",
    label = "not an argument type and not an extractor",
    note = "an argument must implement `serde::Deserialize` and `schemars::JsonSchema`: add `#[derive(serde::Deserialize, schemars::JsonSchema)]` to `{Self}` (both crates at the versions mcp-runtime uses: serde 1, schemars 1)",
    note = "a value supplied by the server instead (like `Context` or `State<T>`) implements `mcp_runtime::Extract`"
)]
pub trait Extract: Sized + Send + 'static {
    /// Whether the type is an argument the client gives (the blanket implementation for
    /// `Deserialize + JsonSchema` types) rather than a value the server supplies. Resources
    /// refuse, at compile time, a parameter that is an argument but no variable of the URI.
    #[doc(hidden)]
    const IS_ARGUMENT: bool = false;

    /// The value for parameter `parameter` of this call.
    fn extract(call: &mut ToolCall, parameter: &'static str) -> Result<Self, Rejection>;

    /// The value for parameter `parameter` where arguments arrive as text: a resource
    /// template's variables and a prompt's arguments. An extractor is extracted as ever;
    /// an argument is parsed from its text (see the blanket implementation).
    #[doc(hidden)]
    fn extract_from_text(call: &mut ToolCall, parameter: &'static str) -> Result<Self, Rejection> {
        Self::extract(call, parameter)
    }

    /// The argument's schema, or `None` for an extractor (the default), which keeps the
    /// parameter out of `inputSchema`.
    fn argument_schema(_generator: &mut SchemaGenerator) -> Option<Schema> {
        None
    }

    /// Checked once when the server starts, with the registered state: an error names
    /// what is missing, and the server refuses to start rather than fail every call.
    fn check(_states: &States) -> Result<(), String> {
        Ok(())
    }

    /// How this type takes part in decoding arguments straight into parameters (see
    /// `tool::arguments`): an extractor of the user's may read the arguments itself, so its
    /// tool keeps the general path.
    #[doc(hidden)]
    fn argument_kind() -> ArgumentKind {
        ArgumentKind::Other
    }
}

#[diagnostic::do_not_recommend]
impl<T> Extract for T
where
    T: DeserializeOwned + JsonSchema + Send + 'static,
{
    const IS_ARGUMENT: bool = true;

    fn extract(call: &mut ToolCall, parameter: &'static str) -> Result<Self, Rejection> {
        // A missing argument decodes from `null`, which `Option` reads as `None`; the
        // schema check has already refused a missing required argument. What the schema
        // cannot say (a date's calendar, an `i64` below -2^63 that JSON rounded to a float)
        // fails here, worded as the schema check words its refusals.
        let value = call.take_argument(parameter).unwrap_or(Value::Null);
        serde_path_to_error::deserialize(value).map_err(|error| {
            let path = error.path().to_string();
            let path = if path == "." {
                parameter.to_owned()
            } else {
                format!("{parameter}.{path}")
            };
            Rejection(format!(
                "Invalid arguments for tool `{}`: `{path}`: {}",
                call.tool_name(),
                error.into_inner()
            ))
        })
    }

    /// Text arrives as a JSON string. A parameter that takes a string (`String`, an enum of
    /// names, a date) reads it as it is; any other (`u64`, `bool`, `Vec<String>`) reads the
    /// text as the JSON it spells (`42`, `true`, `["a","b"]`). If neither reads, the message
    /// is the first's, which says what was expected.
    fn extract_from_text(call: &mut ToolCall, parameter: &'static str) -> Result<Self, Rejection> {
        let value = call.take_argument(parameter).unwrap_or(Value::Null);
        let as_string = match T::deserialize(&value) {
            Ok(parsed) => return Ok(parsed),
            Err(error) => error,
        };
        if let Value::String(text) = &value
            && let Ok(parsed) = serde_json::from_str::<T>(text)
        {
            return Ok(parsed);
        }
        let shown = match &value {
            Value::String(text) => format!("{text:?}"),
            other => other.to_string(),
        };
        Err(Rejection(format!(
            "Invalid value for `{parameter}`: {shown} cannot be read ({as_string})."
        )))
    }

    fn argument_schema(generator: &mut SchemaGenerator) -> Option<Schema> {
        Some(generator.subschema_for::<T>())
    }

    fn argument_kind() -> ArgumentKind {
        kind_of_type::<T>().map_or(ArgumentKind::Other, ArgumentKind::Typed)
    }
}

/// An argument type that can have a default (`#[mcp(default = ...)]`): the default is
/// published in `inputSchema`, so the type must also serialize.
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "parameter type `{Self}` cannot have a default",
    label = "`#[mcp(default)]` on a parameter of this type",
    note = "a default is published in the tool's input schema, so the parameter must be an argument (`serde::Deserialize + schemars::JsonSchema`) that also implements `serde::Serialize`: add `serde::Serialize` to `{Self}`'s derives",
    note = "values the server supplies (`Context`, `State<T>`, your own `Extract` types) cannot have a default: remove `#[mcp(default ...)]`"
)]
pub trait DefaultArgument: Extract + Serialize {}

#[diagnostic::do_not_recommend]
impl<T> DefaultArgument for T where T: DeserializeOwned + Serialize + JsonSchema + Send + 'static {}

impl Extract for Context {
    fn extract(call: &mut ToolCall, _parameter: &'static str) -> Result<Self, Rejection> {
        Ok(call.context().clone())
    }

    fn argument_kind() -> ArgumentKind {
        ArgumentKind::Supplied
    }
}

/// Shared application state registered once with [`Server::state`](crate::Server::state)
/// and handed to every tool that names it — no cloning in your code, nothing in the schema.
///
/// ```
/// use std::sync::atomic::{AtomicU64, Ordering};
/// use mcp_runtime::{mcp_tool, State};
///
/// #[derive(Default)]
/// struct Visits {
///     count: AtomicU64,
/// }
///
/// /// Count a visit.
/// #[mcp_tool]
/// async fn visit(visits: State<Visits>) -> u64 {
///     visits.count.fetch_add(1, Ordering::Relaxed) + 1
/// }
///
/// # async fn test() {
/// // In a test, call the tool directly:
/// assert_eq!(visit(State::new(Visits::default())).await, 1);
/// # }
///
/// # async fn serve() -> Result<(), mcp_runtime::Error> {
/// mcp_runtime::Server::new("visits", "1.0.0").state(Visits::default()).serve_stdio().await
/// # }
/// ```
///
/// A tool asking for a `State<T>` whose `T` was never registered stops the server at
/// start-up with an error naming the tool and the type.
///
/// `State<T>` dereferences to `T` (its field is private, so `state.0` reaches a newtype's
/// own field). To call a tool directly in a test, build one with [`State::new`].
pub struct State<T: ?Sized>(Arc<T>);

impl<T> State<T> {
    /// Wraps a value, e.g. to call a tool function directly in a test.
    pub fn new(value: T) -> Self {
        State(Arc::new(value))
    }
}

impl<T: ?Sized> State<T> {
    /// Wraps a value that is already shared.
    pub fn from_arc(value: Arc<T>) -> Self {
        State(value)
    }

    /// The shared value.
    pub fn arc(&self) -> &Arc<T> {
        &self.0
    }
}

impl<T: ?Sized> Deref for State<T> {
    type Target = T;

    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T: ?Sized> Clone for State<T> {
    fn clone(&self) -> Self {
        State(Arc::clone(&self.0))
    }
}

impl<T: ?Sized + fmt::Debug> fmt::Debug for State<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl<T: Send + Sync + 'static> Extract for State<T> {
    fn extract(call: &mut ToolCall, _parameter: &'static str) -> Result<Self, Rejection> {
        call.states().get::<T>().map(State).ok_or_else(|| {
            Rejection(format!(
                "State<{}> is not registered on this server",
                type_name::<T>()
            ))
        })
    }

    fn check(states: &States) -> Result<(), String> {
        if states.contains::<T>() {
            Ok(())
        } else {
            Err(format!(
                "it takes `State<{ty}>`, but no `{ty}` was registered: add `.state(value)` to the `Server` builder",
                ty = type_name::<T>()
            ))
        }
    }

    fn argument_kind() -> ArgumentKind {
        ArgumentKind::Supplied
    }
}

/// The authenticated principal of an HTTP request, as the HTTP transport's authentication
/// hook (`HttpServer::authenticate`, feature `http`) returned it, or over stdio and in
/// process the server's [`local_principal`](crate::Server::local_principal). A call without
/// one (no hook, no local principal, or one of another type) is answered with an `isError`
/// result and the tool does not run.
pub struct Principal<T>(pub Arc<T>);

impl<T> Deref for Principal<T> {
    type Target = T;

    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T: Send + Sync + 'static> Extract for Principal<T> {
    fn extract(call: &mut ToolCall, _parameter: &'static str) -> Result<Self, Rejection> {
        call.context()
            .principal::<T>()
            .map(Principal)
            .ok_or_else(|| Rejection::new("this call is not authenticated"))
    }

    fn argument_kind() -> ArgumentKind {
        ArgumentKind::Supplied
    }
}
