//! The stateless revision (2026-07-28): `server/discover`, `subscriptions/listen`, the cache
//! hints of list results, and what every result carries (`resultType`, the server's
//! identity in `_meta`).

use std::collections::HashSet;
use std::sync::Arc;

use serde_json::{Map, Value, json};

use super::body::Body;
use super::core::supported_versions;
use super::reply::Answer;
use super::{Era, Session};
use crate::changes::{Change, next_change};
use crate::protocol::jsonrpc::{RequestId, RpcError};
use crate::protocol::meta::{self, RequestMeta};
use crate::protocol::outbox::Outbox;
use crate::protocol::version::ProtocolVersion;
use crate::task::listen::TaskWatches;

impl Session {
    /// Adds what every 2026-07-28 result carries: `resultType` and the server's identity.
    pub(super) fn stateless_result(&self, answer: Answer) -> Answer {
        let server_info = Arc::clone(self.core.stateless_server_info());
        match answer {
            Answer::Ready(result) => {
                Answer::Ready(result.map(|result| result.decorated(&server_info)))
            }
            Answer::Pending {
                result, request, ..
            } => Answer::Pending {
                result,
                request,
                server_info: Some(server_info),
            },
        }
    }

    pub(super) fn discover(&self) -> Result<Value, RpcError> {
        let mut result = Map::new();
        result.insert("supportedVersions".into(), supported_versions());
        result.insert(
            "capabilities".into(),
            self.capabilities(ProtocolVersion::V2026_07_28),
        );
        if let Some(instructions) = &self.core.instructions {
            result.insert("instructions".into(), instructions.clone().into());
        }
        self.insert_cache_hints(&mut result);
        Ok(Value::Object(result))
    }

    /// `ttlMs` and `cacheScope`, required on 2026-07-28 list and discover results. The tool
    /// set does not depend on who asks, so any cache may share it.
    pub(super) fn insert_cache_hints(&self, result: &mut Map<String, Value>) {
        result.insert("ttlMs".into(), self.core.list_ttl_ms.into());
        result.insert("cacheScope".into(), "public".into());
    }

    /// `subscriptions/listen` (2026-07-28): acknowledges the filter (what of it the server
    /// offers: tool, resource and prompt list changes, updates of the listed resources,
    /// status notifications of the listed tasks the caller owns), then keeps the request
    /// open; changes go out on its outbox tagged with its id, and the request is answered
    /// when the connection closes (or the server shuts down). Cancelling the request stops
    /// it like any other. `taskIds` needs the tasks extension and names at most the
    /// per-client limit of unfinished tasks (see `listened_task_ids`: more is refused with
    /// -32602, not cut short).
    pub(super) fn listen(
        &mut self,
        era: Era,
        id: &RequestId,
        params: &Map<String, Value>,
        meta: Option<&RequestMeta>,
        related: &Outbox,
    ) -> Answer {
        let Some(filter) = params.get("notifications").and_then(Value::as_object) else {
            return Answer::Ready(Err(RpcError::invalid_params(
                "Invalid params: `subscriptions/listen` needs `notifications`, the filter of what to receive.",
            )));
        };
        let task_ids = match self.listened_task_ids(filter, meta) {
            Ok(ids) => ids,
            Err(error) => return Answer::Ready(Err(error)),
        };
        let mut honoured = Map::new();
        // Subscribing now, before the acknowledgement, so no change after it is missed.
        let mut tool_changes = None;
        if filter.get("toolsListChanged") == Some(&Value::Bool(true)) {
            honoured.insert("toolsListChanged".into(), true.into());
            tool_changes = Some(self.core.tools.subscribe());
        }
        let announced = self.core.notifier.announces_list_changes();
        let wants = |key: &str| filter.get(key) == Some(&Value::Bool(true));
        let resource_lists = announced && self.offers_resources() && wants("resourcesListChanged");
        let prompt_lists = announced && self.offers_prompts() && wants("promptsListChanged");
        if resource_lists {
            honoured.insert("resourcesListChanged".into(), true.into());
        }
        if prompt_lists {
            honoured.insert("promptsListChanged".into(), true.into());
        }
        let watched: HashSet<String> = match filter.get("resourceSubscriptions") {
            Some(Value::Array(uris)) if self.offers_resources() => uris
                .iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect(),
            _ => HashSet::new(),
        };
        if !watched.is_empty() {
            let mut uris: Vec<&String> = watched.iter().collect();
            uris.sort();
            honoured.insert("resourceSubscriptions".into(), json!(uris));
        }
        let mut other_changes = (resource_lists || prompt_lists || !watched.is_empty())
            .then(|| self.core.notifier.subscribe());
        let closing = self.closing.clone();
        let subscription = id.clone();
        let related = related.clone();
        let tasks = Arc::clone(&self.core.tasks);
        let owner = self.task_owner(era);
        Answer::Pending {
            result: Box::pin(async move {
                let ended =
                    || Body::Json(json!({ "_meta": { meta::SUBSCRIPTION_ID: subscription } }));
                // Each agreed task's state now goes out right after the acknowledgement, so a
                // change between the task's creation and this request is not missed.
                let mut task_changes = TaskWatches::none();
                if !task_ids.is_empty() {
                    let agreed = tokio::select! {
                        () = closing.cancelled() => return ended(),
                        agreed = TaskWatches::agree(&tasks, &owner, &task_ids) => agreed,
                    };
                    let (agreed, watches) = match agreed {
                        Ok(agreed) => agreed,
                        Err(error) => return Body::Failure(error),
                    };
                    if !agreed.is_empty() {
                        honoured.insert("taskIds".into(), json!(agreed));
                    }
                    task_changes = watches;
                }
                related.send(&json!({
                    "jsonrpc": "2.0",
                    "method": "notifications/subscriptions/acknowledged",
                    "params": {
                        "notifications": honoured,
                        "_meta": { meta::SUBSCRIPTION_ID: subscription },
                    },
                }));
                let tagged = |method: &str, mut params: Map<String, Value>| {
                    params.insert(
                        "_meta".into(),
                        json!({ meta::SUBSCRIPTION_ID: subscription }),
                    );
                    json!({ "jsonrpc": "2.0", "method": method, "params": params })
                };
                loop {
                    let tool_change = async {
                        match &mut tool_changes {
                            Some(changes) => changes.changed().await.is_ok(),
                            None => std::future::pending().await,
                        }
                    };
                    let other_change = async {
                        match &mut other_changes {
                            Some(changes) => next_change(changes).await,
                            None => std::future::pending().await,
                        }
                    };
                    tokio::select! {
                        () = closing.cancelled() => break,
                        task = task_changes.next() => {
                            related.send(&tagged("notifications/tasks", task));
                        }
                        true = tool_change => {
                            related.send(&tagged("notifications/tools/list_changed", Map::new()));
                        }
                        Some(change) = other_change => {
                            let notification = match change {
                                Change::ResourceUpdated(uri) if watched.contains(&*uri) => {
                                    let mut params = Map::new();
                                    params.insert("uri".into(), (*uri).into());
                                    Some(tagged("notifications/resources/updated", params))
                                }
                                Change::ResourceListChanged if resource_lists => Some(tagged(
                                    "notifications/resources/list_changed",
                                    Map::new(),
                                )),
                                Change::PromptListChanged if prompt_lists => Some(tagged(
                                    "notifications/prompts/list_changed",
                                    Map::new(),
                                )),
                                _ => None,
                            };
                            if let Some(notification) = notification {
                                related.send(&notification);
                            }
                        }
                    }
                }
                ended()
            }),
            request: None,
            server_info: None,
        }
    }
}
