//! `completion/complete`: candidates for a prompt's argument or a resource template's
//! variable, from the function its `#[mcp(complete = f)]` names.

use std::collections::BTreeMap;

use serde_json::{Map, Value, json};

use super::body::Body;
use super::reply::Answer;
use super::served::Served;
use super::{Era, Session};
use crate::completion::{ArgumentCompletion, Completing, completion_json};
use crate::protocol::jsonrpc::{RequestId, RpcError};
use crate::protocol::meta::RequestMeta;
use crate::protocol::outbox::Outbox;
use crate::protocol::version::ProtocolVersion;
use crate::registry::Entry as _;

impl Session {
    pub(super) fn complete(
        &self,
        era: Era,
        version: ProtocolVersion,
        id: &RequestId,
        params: Map<String, Value>,
        mut meta: Option<RequestMeta>,
        related: &Outbox,
    ) -> Answer {
        let request = match CompletionRequest::read(&params) {
            Ok(request) => request,
            Err(error) => return Answer::Ready(Err(error)),
        };
        let prompts = self.core.prompts.catalog();
        let resources = self.core.resources.catalog();
        let (completions, argument_names, target) = match &request.reference {
            Reference::Prompt(name) => {
                let Some(prompt) = prompts.get(name) else {
                    return Answer::Ready(Err(RpcError::invalid_params(format!(
                        "Unknown prompt: {name}"
                    ))));
                };
                // Completing a prompt's arguments needs what getting it needs.
                if let Err(refused) = self.core.access.refusal(
                    &format!("Prompt `{name}`"),
                    prompt.scopes(),
                    self.principal.as_ref(),
                ) {
                    return Answer::Ready(Err(refused));
                }
                let names: Vec<&str> = prompt.arguments.iter().map(|a| a.name.as_str()).collect();
                (prompt.completions(), names, format!("prompt `{name}`"))
            }
            Reference::Resource(uri) => {
                let Some(template) = resources.template(uri) else {
                    return Answer::Ready(Err(RpcError::invalid_params(format!(
                        "Unknown resource template: {uri}"
                    ))));
                };
                if let Err(refused) = self.core.access.refusal(
                    &format!("Resource template `{uri}`"),
                    template.scopes(),
                    self.principal.as_ref(),
                ) {
                    return Answer::Ready(Err(refused));
                }
                let names: Vec<&str> = template
                    .template
                    .as_ref()
                    .map(|template| template.variables().collect())
                    .unwrap_or_default();
                (
                    template.completions(),
                    names,
                    format!("resource template `{uri}`"),
                )
            }
        };
        if !argument_names.contains(&request.argument.as_str()) {
            return Answer::Ready(Err(RpcError::invalid_params(format!(
                "Invalid params: {target} has no argument `{}`.",
                request.argument
            ))));
        }
        let Some(completion) = completions
            .iter()
            .find(|completion| completion.argument == request.argument)
        else {
            // An argument without a completion function: nothing to suggest.
            return Answer::Ready(Ok(Body::Json(
                json!({ "completion": completion_json(Vec::new()) }),
            )));
        };
        let prepared = match self.served_context(
            era,
            version,
            id,
            request.argument.clone(),
            (&params, meta.as_mut()),
            related,
        ) {
            Ok(prepared) => prepared,
            Err(error) => return Answer::Ready(Err(error)),
        };
        let named = match &request.reference {
            Reference::Prompt(name) => name.as_str(),
            Reference::Resource(uri) => uri.as_str(),
        };
        let layered = self.served_request("completion/complete", named, || {
            let mut arguments = Map::new();
            arguments.insert("argument".into(), request.argument.clone().into());
            arguments.insert("value".into(), request.value.clone().into());
            arguments
        });
        let states = std::sync::Arc::clone(&self.core.states);
        let running = run_completion(completion, request, prepared.context.clone(), states);
        let handle = prepared.request.clone();
        let served = Served {
            what: format!("completing {target}"),
            mask_errors: self.core.mask_error_details,
        };
        let result = self.run_served(served, prepared, layered, running, |_, values| {
            Ok(Body::Json(json!({ "completion": completion_json(values) })))
        });
        Answer::Pending {
            result,
            request: Some(handle),
            server_info: None,
        }
    }
}

fn run_completion(
    completion: &ArgumentCompletion,
    request: CompletionRequest,
    context: crate::context::Context,
    states: std::sync::Arc<crate::tool::extract::States>,
) -> crate::completion::CompletionFuture {
    let CompletionRequest {
        argument,
        value,
        arguments,
        ..
    } = request;
    (completion.complete)(Completing::new(argument, value, arguments, context, states))
}

/// What is being completed.
enum Reference {
    /// `ref/prompt`: an argument of the prompt of this name.
    Prompt(String),
    /// `ref/resource`: a variable of the template of this URI template.
    Resource(String),
}

/// A `completion/complete` request's params, read and checked.
struct CompletionRequest {
    reference: Reference,
    argument: String,
    value: String,
    /// `context.arguments` (2025-06-18 on): what the client already filled in.
    arguments: BTreeMap<String, String>,
}

impl CompletionRequest {
    fn read(params: &Map<String, Value>) -> Result<CompletionRequest, RpcError> {
        let invalid =
            |message: &str| RpcError::invalid_params(format!("Invalid params: {message}"));
        let reference = params
            .get("ref")
            .and_then(Value::as_object)
            .ok_or_else(|| {
                invalid("`completion/complete` needs `ref`, the prompt or resource template.")
            })?;
        let text = |key: &str| {
            reference
                .get(key)
                .and_then(Value::as_str)
                .map(str::to_owned)
        };
        let reference = match reference.get("type").and_then(Value::as_str) {
            Some("ref/prompt") => Reference::Prompt(
                text("name").ok_or_else(|| invalid("`ref.name` must be the prompt's name."))?,
            ),
            Some("ref/resource") => Reference::Resource(
                text("uri")
                    .ok_or_else(|| invalid("`ref.uri` must be the resource template's URI."))?,
            ),
            _ => {
                return Err(invalid(
                    "`ref.type` must be \"ref/prompt\" or \"ref/resource\".",
                ));
            }
        };
        let argument = params
            .get("argument")
            .and_then(Value::as_object)
            .ok_or_else(|| invalid("`argument` must be an object with `name` and `value`."))?;
        let field = |key: &str| {
            argument
                .get(key)
                .and_then(Value::as_str)
                .map(str::to_owned)
                .ok_or_else(|| invalid(&format!("`argument.{key}` must be a string.")))
        };
        let (name, value) = (field("name")?, field("value")?);
        let arguments = params
            .get("context")
            .and_then(|context| context.get("arguments"))
            .and_then(Value::as_object)
            .map(|given| {
                given
                    .iter()
                    .filter_map(|(key, value)| Some((key.clone(), value.as_str()?.to_owned())))
                    .collect()
            })
            .unwrap_or_default();
        Ok(CompletionRequest {
            reference,
            argument: name,
            value,
            arguments,
        })
    }
}
