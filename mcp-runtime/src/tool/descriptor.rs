//! The static descriptors `#[mcp_tool]` submits to `inventory`, and their collection.
//!
//! Every tool linked into the binary, from any crate, is one [`ToolDescriptor`] in a
//! link-time registry. The runtime reads the registry once, when a server starts.

use schemars::{Schema, SchemaGenerator};

use crate::location::SourceLocation;
use crate::tool::extract::{States, ToolCall};
use crate::tool::invoke::ToolFuture;

/// Everything the runtime needs to know about one `#[mcp_tool]` function.
///
/// Built by the macro as a constant; users never write one by hand.
#[doc(hidden)]
pub struct ToolDescriptor {
    /// The tool's name as clients see it (already checked by the macro).
    pub name: &'static str,
    /// Human-readable display name (`title = "..."`).
    pub title: Option<&'static str>,
    /// The function's doc comment, or `description = "..."`.
    pub description: Option<&'static str>,
    /// Behaviour hints stated in the attribute; unstated ones stay `None`.
    pub hints: ToolHints,
    /// `tags = ["admin", "files"]`, checked by the macro (non-empty, `A-Z a-z 0-9 _ . -`, no
    /// duplicates); empty when the attribute states none.
    pub tags: &'static [&'static str],
    /// `icon = "..."` or `icon(src = "...", ...)`, once per icon (sent from 2025-11-25 on).
    pub icons: &'static [crate::icon::IconDescriptor],
    /// The tool's arguments, in declaration order.
    pub params: &'static [ParamDescriptor],
    /// The schema of the structured output, if the return type has one.
    pub output_schema: fn(&mut SchemaGenerator) -> Option<Schema>,
    /// Per-tool limits stated in the attribute.
    pub policy: ToolPolicy,
    /// `layer = ...`, once per layer in the order written: each makes the tool's own
    /// layer, once per server (see [`middleware`](crate::middleware)).
    pub layers: &'static [fn() -> crate::middleware::SharedLayer],
    /// Extracts the parameters and runs the user's function.
    pub invoke: fn(ToolCall) -> ToolFuture,
    /// Where the tool is defined, for start-up errors such as duplicate names.
    pub location: SourceLocation,
}

inventory::collect!(ToolDescriptor);

/// One parameter of a tool: an argument (a property of its `inputSchema`) or an extractor.
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
    /// The argument's JSON schema; `None` for an extractor, which stays out of the schema.
    pub schema: fn(&mut SchemaGenerator) -> Option<Schema>,
    /// The start-up check of an extractor (e.g. that its state is registered).
    pub check: fn(&States) -> Result<(), String>,
    /// The decoding of its member's text straight into its type (see `tool::arguments`).
    pub typed: crate::tool::extract::TypedParam,
}

/// Behaviour hints (`annotations` in `tools/list`). `None` means "not stated": the
/// spec's defaults then apply on the client, and nothing is emitted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ToolHints {
    /// `readOnlyHint`: the tool does not modify its environment.
    pub read_only: Option<bool>,
    /// `destructiveHint`: the tool may destroy or overwrite data.
    pub destructive: Option<bool>,
    /// `idempotentHint`: repeating a call with the same arguments has no further effect.
    pub idempotent: Option<bool>,
    /// `openWorldHint`: the tool interacts with external entities.
    pub open_world: Option<bool>,
}

/// Limits a tool states in its attribute; `None` leaves the server's setting in force.
#[doc(hidden)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ToolPolicy {
    /// `timeout = "30s"`: the call is stopped after this many milliseconds.
    pub timeout_ms: Option<u64>,
    /// `max_concurrency = 4`: calls of this tool beyond this many wait their turn.
    pub max_concurrency: Option<u32>,
    /// `rate = "10/s"`: calls of this tool beyond this rate are refused or wait (as the
    /// server's [`RateLimitMode`](crate::RateLimitMode) says).
    pub rate: Option<crate::tool::rate::Rate>,
    /// `task = "optional"` or `"required"`: whether calls may (or must) run as tasks.
    pub task: crate::task::TaskSupport,
    /// `scopes = ["notes:write"]`: what the caller's principal must hold to call the tool
    /// (or to see it listed).
    pub scopes: &'static [&'static str],
}

/// Every tool linked into this binary, in unspecified order.
pub(crate) fn registered_tools() -> impl Iterator<Item = &'static ToolDescriptor> {
    inventory::iter::<ToolDescriptor>.into_iter()
}
