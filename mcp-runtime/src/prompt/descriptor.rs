//! The static descriptors `#[mcp_prompt]` submits to `inventory`.

use crate::completion::ArgumentCompletion;
use crate::icon::IconDescriptor;
use crate::location::SourceLocation;
use crate::prompt::message::PromptFuture;
use crate::tool::extract::ParamDescriptor;
use crate::tool::extract::ToolCall;

/// Everything the runtime needs to know about one `#[mcp_prompt]` function.
///
/// Built by the macro as a constant; users never write one by hand.
#[doc(hidden)]
pub struct PromptDescriptor {
    /// The prompt's name (the function's name, or `name = "..."`).
    pub name: &'static str,
    /// Display name (`title = "..."`).
    pub title: Option<&'static str>,
    /// The function's doc comment, or `description = "..."`.
    pub description: Option<&'static str>,
    /// `icon = "..."` or `icon(src = "...", ...)`, once per icon (sent from 2025-11-25 on).
    pub icons: &'static [IconDescriptor],
    /// The parameters: arguments (strings on the wire, parsed to their types) and
    /// extractors, in declaration order.
    pub params: &'static [ParamDescriptor],
    /// `#[mcp(complete = f)]` on arguments.
    pub completions: &'static [ArgumentCompletion],
    /// `scopes = ["prompts:admin"]`: what a caller must hold to get it (or see it listed).
    pub scopes: &'static [&'static str],
    /// Extracts the parameters and runs the user's function.
    pub invoke: fn(ToolCall) -> PromptFuture,
    /// Where the prompt is defined, for start-up errors such as duplicate names.
    pub location: SourceLocation,
}

inventory::collect!(PromptDescriptor);

/// Every prompt linked into this binary, in unspecified order.
pub(crate) fn registered_prompts() -> impl Iterator<Item = &'static PromptDescriptor> {
    inventory::iter::<PromptDescriptor>.into_iter()
}
