//! The static descriptors `#[mcp_resource]` submits to `inventory`.

use crate::completion::ArgumentCompletion;
use crate::icon::IconDescriptor;
use crate::location::SourceLocation;
use crate::resource::contents::ResourceFuture;
use crate::tool::extract::ParamDescriptor;
use crate::tool::extract::ToolCall;

/// Everything the runtime needs to know about one `#[mcp_resource]` function: a resource
/// when its `uri` is fixed, a resource template when the `uri` has `{variables}`.
///
/// Built by the macro as a constant; users never write one by hand.
#[doc(hidden)]
pub struct ResourceDescriptor {
    /// The resource's URI, or the template's (RFC 6570 `{var}` and `{+var}`).
    pub uri: &'static str,
    /// Programmatic name (the function's name, or `name = "..."`).
    pub name: &'static str,
    /// Display name (`title = "..."`).
    pub title: Option<&'static str>,
    /// The function's doc comment, or `description = "..."`.
    pub description: Option<&'static str>,
    /// `mime_type = "..."`: the type of every read's contents unless they say otherwise.
    pub mime_type: Option<&'static str>,
    /// `size = N`: the size in bytes, if known before reading (fixed resources only).
    pub size: Option<u64>,
    /// `audience`, `priority`, `last_modified`.
    pub annotations: ResourceAnnotations,
    /// `icon = "..."` or `icon(src = "...", ...)`, once per icon (sent from 2025-11-25 on).
    pub icons: &'static [IconDescriptor],
    /// The parameters: template variables (by name) and extractors, in declaration order.
    pub params: &'static [ParamDescriptor],
    /// `#[mcp(complete = f)]` on template variables.
    pub completions: &'static [ArgumentCompletion],
    /// `scopes = ["docs:read"]`: what a caller must hold to read it (or see it listed).
    pub scopes: &'static [&'static str],
    /// Extracts the parameters and runs the user's function.
    pub invoke: fn(ToolCall) -> ResourceFuture,
    /// Where the resource is defined, for start-up errors such as duplicate URIs.
    pub location: SourceLocation,
}

inventory::collect!(ResourceDescriptor);

/// A resource's annotations as its attribute states them.
#[doc(hidden)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ResourceAnnotations {
    /// `audience = ["user", "assistant"]`: checked by the macro.
    pub audience: &'static [crate::content::Role],
    /// `priority = 0.8`: from 0 (least important) to 1 (most).
    pub priority: Option<f64>,
    /// `last_modified = "2025-01-12T15:00:58Z"` (ISO 8601).
    pub last_modified: Option<&'static str>,
}

/// Every resource linked into this binary, in unspecified order.
pub(crate) fn registered_resources() -> impl Iterator<Item = &'static ResourceDescriptor> {
    inventory::iter::<ResourceDescriptor>.into_iter()
}
