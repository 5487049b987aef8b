//! Items the `#[mcp_tool]` and `#[mcp_tools]` expansions name. Not public API: no stability
//! guarantees.
//!
//! Generated code refers only to `::mcp_runtime::__private::*`, `::core` and `::std`, so it
//! compiles whatever the user's crate shadows or renames.

pub use inventory;
pub use schemars;
pub use serde;

pub use crate::apps::{ToolUi, Visibility};
pub use crate::location::SourceLocation;
pub use crate::middleware::SharedLayer;
pub use crate::server::linking::{Dependency, DependencyCheck};
pub use crate::skill::descriptor::{SkillDescriptor, SkillFile};
pub use crate::task::TaskSupport;
pub use crate::tool::arguments::{ArgumentKind, TypedKind};
pub use crate::tool::descriptor::{ToolDescriptor, ToolPolicy};
pub use crate::tool::extract::{
    DefaultArgument, Extract, ParamDescriptor, States, ToolCall, TypedParam,
};
pub use crate::tool::hints::ToolHints;
pub use crate::tool::invoke::{ToolFuture, call_async, call_blocking};
pub use crate::tool::rate::Rate;
pub use crate::tool::result::IntoCallToolResult;

use schemars::{Schema, SchemaGenerator};

use crate::tool::extract::State;
use crate::tool::result::CallToolResult;

/// A tool's own layer (`#[mcp_tool(layer = ...)]`), shared; the bound names what a layer
/// must be where the expression is written.
pub fn shared_layer<L: crate::middleware::Layer>(layer: L) -> SharedLayer {
    std::sync::Arc::new(layer)
}

/// The schema of one parameter's type; `None` for an extractor.
pub fn param_schema<T: Extract>(generator: &mut SchemaGenerator) -> Option<Schema> {
    T::argument_schema(generator)
}

/// The start-up check of one parameter's type.
pub fn param_check<T: Extract>(states: &States) -> Result<(), String> {
    T::check(states)
}

/// The output schema of a tool's return type, if it has one (e.g. `Json<T>`).
pub fn output_schema<R: IntoCallToolResult>(generator: &mut SchemaGenerator) -> Option<Schema> {
    R::output_schema(generator)
}

/// A parameter's default as JSON, for its `inputSchema` property; `Null` (left out of the
/// schema) if it does not serialize, e.g. a map with non-string keys.
pub fn default_json<T: DefaultArgument>(value: T) -> serde_json::Value {
    serde_json::to_value(value).unwrap_or(serde_json::Value::Null)
}

/// The value a `#[mcp_tools]` method's `&self` is lent from: the one registered with
/// `Server::state`, which every call of the type's tools shares, at the same time.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be shared by the calls of its tool methods",
    label = "`&self` of a tool method",
    note = "the server keeps one `{Self}`, registered with `Server::state`, and lends it to every call at once, so it must be `Send + Sync + 'static`: keep what changes behind a `Mutex`, an `RwLock` or an atomic"
)]
pub trait SharedState: Send + Sync + 'static {}

#[diagnostic::do_not_recommend]
impl<T: Send + Sync + 'static> SharedState for T {}

/// A method's `&self` in its tool's schema: nothing, the server supplies it.
pub fn self_schema<T: SharedState>(_generator: &mut SchemaGenerator) -> Option<Schema> {
    None
}

/// The start-up check of a method's `&self`: the one `State<T>` has, worded for `&self`,
/// which is what the method's author wrote, rather than for a `State<T>` they never wrote.
pub fn self_check<T: SharedState>(states: &States) -> Result<(), String> {
    <State<T> as Extract>::check(states).map_err(|_| {
        format!(
            "it is a method of `{ty}`, and no `{ty}` was registered to lend its `&self`: add `.state(value)` to the `Server` builder",
            ty = std::any::type_name::<T>()
        )
    })
}

/// A method's `&self` for one call: the registered value, as a `State<T>`.
pub fn extract_self<T: SharedState>(call: &mut ToolCall) -> Result<State<T>, CallToolResult> {
    call.extract::<State<T>>("self")
}

pub use crate::completion::{ArgumentCompletion, CompletionFuture, complete_with};
pub use crate::content::Role;
pub use crate::icon::IconDescriptor;
pub use crate::prompt::descriptor::PromptDescriptor;
pub use crate::prompt::message::{PromptFuture, prompt_async, prompt_blocking};
pub use crate::resource::contents::{ResourceFuture, read_async, read_blocking};
pub use crate::resource::descriptor::{ResourceAnnotations, ResourceDescriptor};

/// Compile-time check that a parameter of a resource that is not a variable of its URI is
/// an extractor (`Context`, `State<T>`, ...): the client has no other way to give it.
pub const fn require_extractor<T: Extract>() {
    assert!(
        !T::IS_ARGUMENT,
        "a parameter of an #[mcp_resource] must be a variable of its uri template or an extractor such as `Context` or `State<T>`"
    );
}
