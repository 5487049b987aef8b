//! Per-tool scopes at the HTTP door: a request without the scopes of what it names is
//! refused with the step-up `403` before its session sees it, and the protected-resource
//! metadata lists every scope required.

use axum::response::Response;

use super::auth::{AnyPrincipal, AuthRejection, ProtectedResource};
use super::guard::Guard;
use crate::access::refusal_message;
use crate::protocol::jsonrpc::Members;
use crate::registry::Entry as _;
use crate::session::ServerCore;

/// A `tools/call`, `resources/read` or `prompts/get` of something whose scopes the
/// principal does not hold: `403` with the step-up challenge of the 2025-11-25
/// authorization spec, naming the scopes it needs, answering the request's id.
pub(super) fn scope_refusal(
    core: &ServerCore,
    guard: &Guard,
    message: Option<&Members<'_>>,
    principal: Option<&AnyPrincipal>,
) -> Option<Response> {
    let message = message?;
    let param = |key: &str| message.params().and_then(|params| params.string(key));
    // Nothing is allocated for a request that needs no scope (an empty `Vec` holds none).
    let (kind, target, required): (&str, &str, Vec<String>) = match message.method()? {
        "tools/call" => {
            let name = param("name")?;
            let catalog = core.tools.catalog();
            if !catalog.has_scoped_tools() {
                // The common server: no tool names a scope, so no lookup per call.
                return None;
            }
            let tool = catalog.get(name)?;
            ("Tool", name, tool.scopes().map(str::to_owned).collect())
        }
        "resources/read" => {
            let uri = param("uri")?;
            let catalog = core.resources.catalog();
            let found = catalog.find(uri)?;
            let scopes = found.resource.scopes().map(str::to_owned).collect();
            ("Resource", uri, scopes)
        }
        "prompts/get" => {
            let name = param("name")?;
            let catalog = core.prompts.catalog();
            let prompt = catalog.get(name)?;
            ("Prompt", name, prompt.scopes().map(str::to_owned).collect())
        }
        _ => return None,
    };
    if required.is_empty() {
        return None;
    }
    let missing = core
        .access
        .missing(required.iter().map(String::as_str), principal);
    if missing.is_empty() {
        return None;
    }
    let what = format!("{kind} `{target}`");
    let description = refusal_message(&what, &missing, principal.is_some());
    let metadata = guard.resource.as_ref().map(ProtectedResource::url);
    Some(
        AuthRejection::insufficient_scope(description)
            .needing_scopes(&missing)
            .into_refusal(message.id(), metadata.as_deref()),
    )
}

/// Every scope a tool, a resource or a prompt requires now, sorted, each once: the
/// `scopes_supported` of the protected-resource metadata.
pub(super) fn required_scopes(core: &ServerCore) -> Vec<String> {
    let tools = core.tools.catalog();
    let resources = core.resources.catalog();
    let prompts = core.prompts.catalog();
    let mut scopes: Vec<String> = tools
        .tools()
        .iter()
        .flat_map(|tool| tool.scopes())
        .chain(
            resources
                .resources()
                .iter()
                .flat_map(|entry| entry.scopes()),
        )
        .chain(
            resources
                .templates()
                .iter()
                .flat_map(|entry| entry.scopes()),
        )
        .chain(prompts.prompts().iter().flat_map(|entry| entry.scopes()))
        .map(str::to_owned)
        .collect();
    scopes.sort();
    scopes.dedup();
    scopes
}
