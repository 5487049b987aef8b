//! The static descriptors `#[mcp_tool]` submits to `inventory`, and their collection.
//!
//! Every tool linked into the binary, from any crate, is one [`ToolDescriptor`] in a
//! link-time registry. The runtime reads the registry once, when a server starts.

use schemars::{Schema, SchemaGenerator};

use crate::location::SourceLocation;
use crate::tool::extract::{ParamDescriptor, ToolCall};
use crate::tool::hints::ToolHints;
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
    /// `ui = "ui://..."` and `visibility = [...]`: its MCP Apps view and who may call it.
    pub ui: crate::apps::ToolUi<'static>,
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
    /// `input_before_task`: under 2026-07-28 a call asks for its input in `input_required`
    /// rounds and becomes a task only once the tool first waits for something else.
    pub input_before_task: bool,
    /// `scopes = ["notes:write"]`: what the caller's principal must hold to call the tool
    /// (or to see it listed).
    pub scopes: &'static [&'static str],
}

/// Every tool linked into this binary, in unspecified order.
pub(crate) fn registered_tools() -> impl Iterator<Item = &'static ToolDescriptor> {
    inventory::iter::<ToolDescriptor>.into_iter()
}
