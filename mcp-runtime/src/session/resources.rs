//! `resources/list`, `resources/templates/list`, `resources/read`, and the handshake era's
//! `resources/subscribe` and `resources/unsubscribe`.

use std::sync::Arc;

use serde_json::{Map, Value, json};

use super::body::Body;
use super::bounds::MAX_SUBSCRIPTIONS;
use super::params::required_string;
use super::reply::Answer;
use super::served::Served;
use super::{Era, Session};
use crate::protocol::jsonrpc::{RequestId, RpcError, code};
use crate::protocol::meta::RequestMeta;
use crate::protocol::outbox::Outbox;
use crate::protocol::version::ProtocolVersion;
use crate::registry::Entry as _;
use crate::resource::contents::ReadFailure;

/// The lists a `resources/list` and a `resources/templates/list` cursor belong to.
const RESOURCES: &str = "resource";
const TEMPLATES: &str = "template";

/// The spec's "resource not found" (2024-11-05 to 2025-11-25; 2026-07-28 uses -32602).
const RESOURCE_NOT_FOUND: i64 = -32002;

impl Session {
    pub(super) fn list_resources(
        &self,
        version: ProtocolVersion,
        params: &Map<String, Value>,
    ) -> Result<Value, RpcError> {
        let catalog = self.core.resources.catalog();
        self.list_page(version, params, "resources", RESOURCES, catalog.resources())
    }

    pub(super) fn list_resource_templates(
        &self,
        version: ProtocolVersion,
        params: &Map<String, Value>,
    ) -> Result<Value, RpcError> {
        let catalog = self.core.resources.catalog();
        self.list_page(
            version,
            params,
            "resourceTemplates",
            TEMPLATES,
            catalog.templates(),
        )
    }

    pub(super) fn read_resource(
        &self,
        era: Era,
        version: ProtocolVersion,
        id: &RequestId,
        params: Map<String, Value>,
        mut meta: Option<RequestMeta>,
        related: &Outbox,
    ) -> Answer {
        let uri = match required_string(
            &params,
            "uri",
            "`resources/read` needs the resource's `uri`.",
        ) {
            Ok(uri) => uri.to_owned(),
            Err(error) => return Answer::Ready(Err(error)),
        };
        let catalog = self.core.resources.catalog();
        let Some(found) = catalog.find(&uri) else {
            return Answer::Ready(Err(not_found(version, &uri)));
        };
        let resource = found.resource;
        if let Err(refused) = self.core.access.refusal(
            &format!("Resource `{uri}`"),
            resource.scopes(),
            self.principal.as_ref(),
        ) {
            return Answer::Ready(Err(refused));
        }
        let name = resource.name().to_owned();
        let prepared =
            match self.served_context(era, version, id, name, (&params, meta.as_mut()), related) {
                Ok(prepared) => prepared,
                Err(error) => return Answer::Ready(Err(error)),
            };
        let layered = self.served_request("resources/read", &uri, || {
            found
                .variables
                .iter()
                .map(|(name, value)| (name.clone(), Value::from(value.as_str())))
                .collect()
        });
        let running = resource.read(
            &uri,
            found.variables,
            prepared.context.clone(),
            Arc::clone(&self.core.states),
        );
        let request = prepared.request.clone();
        let served = Served {
            what: format!("reading resource `{uri}`"),
            mask_errors: self.core.mask_error_details,
        };
        let stateless = version.is_stateless();
        let mime_type = resource.mime_type().map(str::to_owned);
        let result = self.run_served(
            served,
            prepared,
            layered,
            running,
            move |served, outcome| {
                let contents =
                    outcome
                        .into_contents(&uri, mime_type.as_deref())
                        .map_err(|failure| match failure {
                            ReadFailure::Rejected(message) => RpcError::invalid_params(format!(
                                "Invalid params: resource `{uri}`: {message}"
                            )),
                            ReadFailure::Failed { message, public } => {
                                served.failure(&message, public)
                            }
                            ReadFailure::NotFound => not_found(version, &uri),
                        })?;
                let mut result = json!({ "contents": contents });
                if stateless {
                    // What a read returns may depend on who asks and changes at any time:
                    // no cache may keep it, or share it.
                    result["ttlMs"] = 0.into();
                    result["cacheScope"] = "private".into();
                }
                Ok(Body::Json(result))
            },
        );
        Answer::Pending {
            result,
            request: Some(request),
            server_info: None,
        }
    }

    /// `resources/subscribe` (handshake era): the URI's updates go to this session until it
    /// unsubscribes. Any URI a resource or template serves may be subscribed to.
    pub(super) fn subscribe(
        &mut self,
        version: ProtocolVersion,
        params: &Map<String, Value>,
        subscribe: bool,
    ) -> Result<Value, RpcError> {
        let uri = required_string(params, "uri", "`uri` must be the resource's URI.")?;
        if subscribe {
            let catalog = self.core.resources.catalog();
            let Some(found) = catalog.find(uri) else {
                return Err(not_found(version, uri));
            };
            // Updates of a resource tell what reading it would: the same scopes.
            self.core.access.refusal(
                &format!("Resource `{uri}`"),
                found.resource.scopes(),
                self.principal.as_ref(),
            )?;
            if self.subscriptions.len() >= MAX_SUBSCRIPTIONS && !self.subscriptions.contains(uri) {
                return Err(RpcError::invalid_params(format!(
                    "Invalid params: this session is subscribed to {MAX_SUBSCRIPTIONS} resources already, the most it may be; unsubscribe from one first."
                )));
            }
            self.subscriptions.insert(uri.to_owned());
        } else {
            self.subscriptions.remove(uri);
        }
        Ok(json!({}))
    }
}

/// No resource or template serves `uri`.
fn not_found(version: ProtocolVersion, uri: &str) -> RpcError {
    let code = if version.is_stateless() {
        code::INVALID_PARAMS
    } else {
        RESOURCE_NOT_FOUND
    };
    RpcError::new(code, format!("Resource not found: {uri}")).with_data(json!({ "uri": uri }))
}
