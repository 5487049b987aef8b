//! Items the `#[mcp_tool]` expansion names. Not public API: no stability guarantees.
//!
//! Generated code refers only to `::mcp_runtime::__private::*`, `::core` and `::std`, so it
//! compiles whatever the user's crate shadows or renames.

pub use inventory;
pub use schemars;
pub use serde;

pub use crate::location::SourceLocation;
pub use crate::tool::descriptor::{ParamDescriptor, ToolDescriptor, ToolHints, ToolPolicy};
pub use crate::tool::extract::{DefaultArgument, Extract, States, ToolCall};
pub use crate::tool::invoke::{ToolFuture, call_async, call_blocking};
pub use crate::tool::rate::Rate;
pub use crate::tool::result::IntoCallToolResult;

use schemars::{Schema, SchemaGenerator};

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
