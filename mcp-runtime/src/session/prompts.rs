//! `prompts/list` and `prompts/get`.

use std::sync::Arc;

use serde_json::{Map, Value, json};

use super::body::Body;
use super::params::required_string;
use super::reply::Answer;
use super::served::Served;
use super::{Era, Session};
use crate::prompt::message::PromptOutcome;
use crate::protocol::jsonrpc::{RequestId, RpcError};
use crate::protocol::meta::RequestMeta;
use crate::protocol::outbox::Outbox;
use crate::protocol::version::ProtocolVersion;
use crate::registry::Entry as _;

/// The list a `prompts/list` cursor belongs to.
const PROMPTS: &str = "prompt";

impl Session {
    pub(super) fn list_prompts(
        &self,
        version: ProtocolVersion,
        params: &Map<String, Value>,
    ) -> Result<Value, RpcError> {
        let catalog = self.core.prompts.catalog();
        self.list_page(version, params, "prompts", PROMPTS, catalog.prompts())
    }

    pub(super) fn get_prompt(
        &self,
        era: Era,
        version: ProtocolVersion,
        id: &RequestId,
        params: Map<String, Value>,
        mut meta: Option<RequestMeta>,
        related: &Outbox,
    ) -> Answer {
        let name =
            match required_string(&params, "name", "`prompts/get` needs the prompt's `name`.") {
                Ok(name) => name,
                Err(error) => return Answer::Ready(Err(error)),
            };
        let catalog = self.core.prompts.catalog();
        let Some(prompt) = catalog.get(name) else {
            return Answer::Ready(Err(RpcError::invalid_params(format!(
                "Unknown prompt: {name}"
            ))));
        };
        if let Err(refused) = self.core.access.refusal(
            &format!("Prompt `{name}`"),
            prompt.scopes(),
            self.principal.as_ref(),
        ) {
            return Answer::Ready(Err(refused));
        }
        let arguments = match prompt_arguments(prompt, &params) {
            Ok(arguments) => arguments,
            Err(error) => return Answer::Ready(Err(error)),
        };
        let prompt_name = prompt.name().to_owned();
        let prepared = match self.served_context(
            era,
            version,
            id,
            prompt_name.clone(),
            (&params, meta.as_mut()),
            related,
        ) {
            Ok(prepared) => prepared,
            Err(error) => return Answer::Ready(Err(error)),
        };
        let layered = self.served_request("prompts/get", &prompt_name, || arguments.clone());
        let running = prompt.render(
            arguments,
            prepared.context.clone(),
            Arc::clone(&self.core.states),
        );
        let request = prepared.request.clone();
        let served = Served {
            what: format!("prompt `{prompt_name}`"),
            mask_errors: self.core.mask_error_details,
        };
        let described = prompt.description().map(str::to_owned);
        let result = self.run_served(
            served,
            prepared,
            layered,
            running,
            move |served, outcome| match outcome {
                PromptOutcome::Rendered {
                    description,
                    messages,
                } => {
                    let messages: Vec<Value> = messages
                        .into_iter()
                        .map(|message| message.into_json(version))
                        .collect();
                    let mut result = json!({ "messages": messages });
                    if let Some(description) = description.or(described.clone()) {
                        result["description"] = description.into();
                    }
                    Ok(Body::Json(result))
                }
                PromptOutcome::Failed { message, public } => Err(served.failure(&message, public)),
                PromptOutcome::Rejected(message) => Err(RpcError::invalid_params(format!(
                    "Invalid params: prompt `{prompt_name}`: {message}"
                ))),
            },
        );
        Answer::Pending {
            result,
            request: Some(request),
            server_info: None,
        }
    }
}

/// The prompt's arguments from `params.arguments`: each a string, every required one given,
/// none the prompt does not have. An empty string for an optional argument counts as not
/// given (forms in clients send one for a field left blank).
fn prompt_arguments(
    prompt: &crate::prompt::catalog::CatalogPrompt,
    params: &Map<String, Value>,
) -> Result<Map<String, Value>, RpcError> {
    let name = prompt.name();
    let given = match params.get("arguments") {
        None | Some(Value::Null) => Map::new(),
        Some(Value::Object(arguments)) => arguments.clone(),
        Some(_) => {
            return Err(RpcError::invalid_params(
                "Invalid params: `arguments` must be an object of strings.",
            ));
        }
    };
    let mut arguments = Map::new();
    for (key, value) in given {
        let Some(argument) = prompt
            .arguments
            .iter()
            .find(|argument| argument.name == key)
        else {
            let known: Vec<String> = prompt
                .arguments
                .iter()
                .map(|argument| format!("`{}`", argument.name))
                .collect();
            let known = if known.is_empty() {
                "it takes none".to_owned()
            } else {
                format!("its arguments are {}", known.join(", "))
            };
            return Err(RpcError::invalid_params(format!(
                "Invalid params: prompt `{name}` has no argument `{key}` ({known})."
            )));
        };
        match value {
            Value::String(text) if text.is_empty() && !argument.required => {}
            Value::String(text) => {
                arguments.insert(key, Value::String(text));
            }
            Value::Null if !argument.required => {}
            other => {
                return Err(RpcError::invalid_params(format!(
                    "Invalid params: argument `{key}` of prompt `{name}` must be a string (prompt \
                     arguments are text), not {other}."
                )));
            }
        }
    }
    if let Some(missing) = prompt
        .arguments
        .iter()
        .find(|argument| argument.required && !arguments.contains_key(&argument.name))
    {
        return Err(RpcError::invalid_params(format!(
            "Invalid params: prompt `{name}` needs argument `{}`.",
            missing.name
        )));
    }
    Ok(arguments)
}
