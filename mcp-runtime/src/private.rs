//! Items the `#[mcp_tool]` expansion names. Not public API: no stability guarantees.
//!
//! Generated code refers only to `::mcp_runtime::__private::*`, `::core` and `::std`, so it
//! compiles whatever the user's crate shadows or renames.

pub use inventory;
pub use schemars;
pub use serde;

pub use crate::invoke::{Invocation, ToolFuture, call_async, call_blocking};
pub use crate::registry::{ParamDescriptor, SourceLocation, ToolDescriptor, ToolHints};
pub use crate::result::IntoCallToolResult;

use schemars::{JsonSchema, Schema, SchemaGenerator};

/// The schema of one parameter's type.
pub fn param_schema<T: JsonSchema>(generator: &mut SchemaGenerator) -> Schema {
    generator.subschema_for::<T>()
}

/// The output schema of a tool's return type, if it has one (e.g. `Json<T>`).
pub fn output_schema<R: IntoCallToolResult>(generator: &mut SchemaGenerator) -> Option<Schema> {
    R::output_schema(generator)
}
