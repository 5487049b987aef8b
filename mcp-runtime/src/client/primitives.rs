//! Resources, resource templates, prompts and completions from the client's side: the
//! requests (every page of a list, a read or a prompt fulfilled through `input_required`
//! rounds under 2026-07-28, subscriptions in both eras) and the typed answers.

use std::future::Future;

use base64::Engine as _;
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value, json};
use tokio::sync::oneshot;

use super::ResponseError;
use super::core::{ClientCore, MAX_INPUT_ROUNDS, Requester, malformed};

/// A resource as `resources/list` describes it.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Resource {
    /// Its URI.
    pub uri: String,
    /// Its name.
    pub name: String,
    /// Its display name (2025-06-18 and later).
    #[serde(default)]
    pub title: Option<String>,
    /// Its description.
    #[serde(default)]
    pub description: Option<String>,
    /// The MIME type of its contents, if stated.
    #[serde(default)]
    pub mime_type: Option<String>,
    /// Its size in bytes, if stated.
    #[serde(default)]
    pub size: Option<u64>,
    /// The whole entry as sent (annotations, icons, ...).
    #[serde(skip)]
    pub raw: Value,
}

/// A resource template as `resources/templates/list` describes it.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ResourceTemplate {
    /// Its RFC 6570 URI template, e.g. `notes://{id}`.
    pub uri_template: String,
    /// Its name.
    pub name: String,
    /// Its display name (2025-06-18 and later).
    #[serde(default)]
    pub title: Option<String>,
    /// Its description.
    #[serde(default)]
    pub description: Option<String>,
    /// The MIME type of the resources it names, if stated.
    #[serde(default)]
    pub mime_type: Option<String>,
    /// The whole entry as sent (annotations, icons, ...).
    #[serde(skip)]
    pub raw: Value,
}

/// The result of `resources/read`: one or more contents.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[non_exhaustive]
pub struct ReadResult {
    /// The contents, as sent.
    #[serde(default)]
    pub contents: Vec<ResourceContent>,
}

impl ReadResult {
    /// The text of every text item, one per line (empty if the resource is binary).
    pub fn text(&self) -> String {
        self.contents
            .iter()
            .filter_map(ResourceContent::text)
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// The bytes of the first binary item, decoded; `None` if there is none (or it is not
    /// valid base64: see its [`blob`](ResourceContent::blob)).
    pub fn blob(&self) -> Option<Vec<u8>> {
        self.contents.iter().find_map(ResourceContent::bytes)
    }
}

/// One item of a `resources/read` result: text or a base64 blob.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ResourceContent {
    /// The URI these contents are of (for a template, the URI that was read).
    pub uri: String,
    /// Their MIME type, if stated.
    #[serde(default)]
    pub mime_type: Option<String>,
    /// The contents of a text resource.
    #[serde(default, rename = "text")]
    pub text_contents: Option<String>,
    /// The contents of a binary resource, base64-encoded as sent.
    #[serde(default)]
    pub blob: Option<String>,
    /// The whole item as sent (`_meta`, annotations, ...).
    #[serde(skip)]
    pub raw: Value,
}

impl ResourceContent {
    /// The text, if this is a text item.
    pub fn text(&self) -> Option<&str> {
        self.text_contents.as_deref()
    }

    /// The blob decoded; `None` for a text item or a blob that is not valid base64.
    pub fn bytes(&self) -> Option<Vec<u8>> {
        base64::engine::general_purpose::STANDARD
            .decode(self.blob.as_deref()?)
            .ok()
    }
}

/// A prompt as `prompts/list` describes it.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[non_exhaustive]
pub struct Prompt {
    /// Its name.
    pub name: String,
    /// Its display name (2025-06-18 and later).
    #[serde(default)]
    pub title: Option<String>,
    /// Its description.
    #[serde(default)]
    pub description: Option<String>,
    /// Its arguments, in order.
    #[serde(default)]
    pub arguments: Vec<PromptArgument>,
    /// The whole entry as sent (icons, ...).
    #[serde(skip)]
    pub raw: Value,
}

impl Prompt {
    /// The argument of this name.
    pub fn argument(&self, name: &str) -> Option<&PromptArgument> {
        self.arguments.iter().find(|argument| argument.name == name)
    }
}

/// One argument of a [`Prompt`].
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[non_exhaustive]
pub struct PromptArgument {
    /// Its name.
    pub name: String,
    /// Its display name, if the server gives one.
    #[serde(default)]
    pub title: Option<String>,
    /// Its description.
    #[serde(default)]
    pub description: Option<String>,
    /// Whether `prompts/get` needs it.
    #[serde(default)]
    pub required: bool,
}

/// The result of `prompts/get`: the rendered messages.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[non_exhaustive]
pub struct PromptMessages {
    /// The description of this rendering (or the prompt's), if any.
    #[serde(default)]
    pub description: Option<String>,
    /// The messages, in order.
    #[serde(default)]
    pub messages: Vec<RenderedMessage>,
}

impl PromptMessages {
    /// The text of every text message, one per line.
    pub fn text(&self) -> String {
        self.messages
            .iter()
            .filter_map(RenderedMessage::text)
            .collect::<Vec<_>>()
            .join("\n")
    }
}

/// One message of a rendered prompt: a role and one content block.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[non_exhaustive]
pub struct RenderedMessage {
    /// `user` or `assistant`.
    pub role: String,
    /// The content block, as sent (`{"type": "text", "text": ...}`, an image, ...).
    pub content: Value,
}

impl RenderedMessage {
    /// The text, if the content is a text block.
    pub fn text(&self) -> Option<&str> {
        if self.content["type"] == "text" {
            self.content["text"].as_str()
        } else {
            None
        }
    }
}

/// The answer to `completion/complete`.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Completion {
    /// The candidates (at most 100).
    #[serde(default)]
    pub values: Vec<String>,
    /// How many candidates there are in all, if the server says.
    #[serde(default)]
    pub total: Option<u64>,
    /// Whether there are more candidates than `values` holds.
    #[serde(default)]
    pub has_more: bool,
}

/// What `completion/complete` completes an argument of.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CompletionTarget {
    /// An argument of the prompt of this name (`ref/prompt`).
    Prompt(String),
    /// A variable of the resource template of this URI template (`ref/resource`).
    ResourceTemplate(String),
}

impl CompletionTarget {
    fn to_json(&self) -> Value {
        match self {
            CompletionTarget::Prompt(name) => json!({ "type": "ref/prompt", "name": name }),
            CompletionTarget::ResourceTemplate(uri) => {
                json!({ "type": "ref/resource", "uri": uri })
            }
        }
    }
}

/// Deserializes `value` as `T`; a malformed answer is an error.
pub(super) fn typed<T: DeserializeOwned>(value: Value) -> Result<T, ResponseError> {
    serde_json::from_value(value).map_err(|error| malformed(&error))
}

/// Typed entries of a list, each keeping its JSON.
pub(super) fn entries<T: DeserializeOwned>(
    list: &Value,
    keep: impl Fn(&mut T, Value),
) -> Result<Vec<T>, ResponseError> {
    let Some(list) = list.as_array() else {
        return Ok(Vec::new());
    };
    list.iter()
        .map(|entry| {
            let mut typed: T = typed(entry.clone())?;
            keep(&mut typed, entry.clone());
            Ok(typed)
        })
        .collect()
}

impl ClientCore {
    /// Every entry of a paginated list, following `nextCursor`: the first page's result
    /// with the entries of every page in `member` (and no `nextCursor`).
    pub async fn list_all(&self, method: &str, member: &str) -> Result<Value, ResponseError> {
        let mut first = self.request(method, json!({})).await?;
        let mut all = take_list(&mut first, member);
        let mut cursor = first
            .as_object_mut()
            .and_then(|result| result.remove("nextCursor"));
        while let Some(next) = cursor.filter(|cursor| !cursor.is_null()) {
            let mut page = self.request(method, json!({ "cursor": next })).await?;
            all.extend(take_list(&mut page, member));
            cursor = page.get("nextCursor").cloned();
        }
        first[member] = Value::Array(all);
        Ok(first)
    }

    /// Every resource, typed.
    pub async fn list_resources(&self) -> Result<Vec<Resource>, ResponseError> {
        let result = self.list_all("resources/list", "resources").await?;
        entries(&result["resources"], |entry: &mut Resource, raw| {
            entry.raw = raw;
        })
    }

    /// Every resource template, typed.
    pub async fn list_resource_templates(&self) -> Result<Vec<ResourceTemplate>, ResponseError> {
        let result = self
            .list_all("resources/templates/list", "resourceTemplates")
            .await?;
        entries(
            &result["resourceTemplates"],
            |entry: &mut ResourceTemplate, raw| entry.raw = raw,
        )
    }

    /// Every prompt, typed.
    pub async fn list_prompts(&self) -> Result<Vec<Prompt>, ResponseError> {
        let result = self.list_all("prompts/list", "prompts").await?;
        entries(&result["prompts"], |entry: &mut Prompt, raw| {
            entry.raw = raw
        })
    }

    /// `resources/read`.
    pub async fn read_resource(&self, uri: &str) -> Result<ReadResult, ResponseError> {
        let (_, answer) = self
            .requester
            .start_fulfilled("resources/read", json!({ "uri": uri }));
        let result = answer.await?;
        let mut contents: ReadResult = typed(result.clone())?;
        for (item, raw) in contents.contents.iter_mut().zip(
            result["contents"]
                .as_array()
                .map(Vec::as_slice)
                .unwrap_or_default(),
        ) {
            item.raw = raw.clone();
        }
        Ok(contents)
    }

    /// `prompts/get` with these (string) arguments.
    pub async fn get_prompt(
        &self,
        name: &str,
        arguments: Map<String, Value>,
    ) -> Result<PromptMessages, ResponseError> {
        let mut params = json!({ "name": name });
        if !arguments.is_empty() {
            params["arguments"] = Value::Object(arguments);
        }
        let (_, answer) = self.requester.start_fulfilled("prompts/get", params);
        typed(answer.await?)
    }

    /// `completion/complete` for `argument` of `target`, the client having typed `value`;
    /// `given` (the arguments already filled in) goes in `context.arguments` unless empty.
    pub async fn complete(
        &self,
        target: &CompletionTarget,
        argument: &str,
        value: &str,
        given: Map<String, Value>,
    ) -> Result<Completion, ResponseError> {
        let mut params = json!({
            "ref": target.to_json(),
            "argument": { "name": argument, "value": value },
        });
        if !given.is_empty() {
            params["context"] = json!({ "arguments": given });
        }
        let (_, answer) = self
            .requester
            .start_fulfilled("completion/complete", params);
        let mut result = answer.await?;
        typed(result["completion"].take())
    }

    /// Subscribes to updates of `uri`: `resources/subscribe` in the handshake era; under
    /// 2026-07-28, a `subscriptions/listen` request for it, held open until
    /// [`unsubscribe_resource`](Self::unsubscribe_resource) (returns once the server
    /// acknowledged it). Either way the updates arrive as `notifications/resources/updated`.
    pub async fn subscribe_resource(&self, uri: &str) -> Result<(), ResponseError> {
        if !self.revision().is_stateless() {
            self.request("resources/subscribe", json!({ "uri": uri }))
                .await?;
            return Ok(());
        }
        if self.lock_routes().listens.contains_key(uri) {
            return Ok(());
        }
        let id = self.requester.fresh_id();
        let (acknowledged, acknowledgement) = oneshot::channel();
        self.lock_routes()
            .acknowledgements
            .insert(id.to_string(), acknowledged);
        let params = json!({ "notifications": { "resourceSubscriptions": [uri] } });
        let answer = self
            .requester
            .send_request(id.clone(), "subscriptions/listen", params);
        let outcome = tokio::select! {
            acknowledged = acknowledgement => acknowledged.ok(),
            // A listen request is answered only when it ends: here, when it is refused.
            answer = answer => Some(answer.map_or_else(|error| json!({ "error": error.to_string() }), |result| json!({ "answered": result }))),
        };
        self.lock_routes().acknowledgements.remove(&id.to_string());
        let honoured = outcome.as_ref().is_some_and(|ack| {
            ack["notifications"]["resourceSubscriptions"]
                .as_array()
                .is_some_and(|uris| uris.iter().any(|listed| listed == uri))
        });
        if !honoured {
            self.end_listen(&id);
            let mut error = ResponseError::new(
                ResponseError::INVALID_PARAMS,
                format!("the server did not acknowledge a subscription to `{uri}`"),
            );
            error.data = outcome;
            return Err(error);
        }
        self.lock_routes().listens.insert(uri.to_owned(), id);
        Ok(())
    }

    /// Ends a subscription to `uri`: `resources/unsubscribe` in the handshake era; under
    /// 2026-07-28, cancels its `subscriptions/listen` request (nothing to do if there is
    /// none).
    pub async fn unsubscribe_resource(&self, uri: &str) -> Result<(), ResponseError> {
        if !self.revision().is_stateless() {
            self.request("resources/unsubscribe", json!({ "uri": uri }))
                .await?;
            return Ok(());
        }
        let listen = self.lock_routes().listens.remove(uri);
        if let Some(id) = listen {
            self.end_listen(&id);
        }
        Ok(())
    }

    /// Cancels the listen request `id`, no longer waiting for its answer.
    fn end_listen(&self, id: &Value) {
        self.lock_routes().pending.remove(&id.to_string());
        self.notify(
            "notifications/cancelled",
            json!({ "requestId": id, "reason": "unsubscribed" }),
        );
    }
}

impl Requester {
    /// Sends a request whose answer may be `input_required` (2026-07-28): each such answer
    /// is fulfilled with this client's handlers and the request sent again, with
    /// `inputResponses` and `requestState`, until it completes. Returns the first round's
    /// id and the final result.
    pub(super) fn start_fulfilled(
        &self,
        method: &str,
        params: Value,
    ) -> (
        Value,
        impl Future<Output = Result<Value, ResponseError>> + Send + 'static + use<>,
    ) {
        let requester = self.clone();
        let method = method.to_owned();
        let (id, answer) = requester.start(&method, params.clone());
        (id, async move {
            let mut result = answer.await?;
            let mut rounds = 0;
            while result.get("resultType").and_then(Value::as_str) == Some("input_required") {
                rounds += 1;
                if rounds > MAX_INPUT_ROUNDS {
                    return Err(ResponseError::new(
                        ResponseError::CONNECTION_CLOSED,
                        format!("the server still asked for input after {MAX_INPUT_ROUNDS} rounds"),
                    ));
                }
                let mut retry = params.clone();
                retry["inputResponses"] = requester.fulfil(&result).await?;
                if let Some(state) = result.get("requestState") {
                    retry["requestState"] = state.clone();
                }
                result = requester.start(&method, retry).1.await?;
            }
            Ok(result)
        })
    }
}

fn take_list(result: &mut Value, member: &str) -> Vec<Value> {
    match result.get_mut(member).map(Value::take) {
        Some(Value::Array(entries)) => entries,
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::super::core::tests::pair;
    use super::super::handler;
    use super::*;
    use crate::protocol::meta;
    use crate::protocol::version::ProtocolVersion;

    #[tokio::test]
    async fn lists_every_page() {
        let (client, mut server) = pair(ProtocolVersion::V2025_11_25, HashMap::new());
        let listing = tokio::spawn(async move { client.list_prompts().await });
        let first = server.receive().await;
        assert_eq!(first["method"], "prompts/list");
        server
            .send(json!({"jsonrpc": "2.0", "id": first["id"], "result": {
                "prompts": [{"name": "a", "arguments": [{"name": "x", "required": true}]}],
                "nextCursor": "p2"}}))
            .await;
        let second = server.receive().await;
        assert_eq!(second["params"]["cursor"], "p2");
        server
            .send(json!({"jsonrpc": "2.0", "id": second["id"], "result": {
                "prompts": [{"name": "b", "title": "B", "icons": []}]}}))
            .await;
        let prompts = listing.await.unwrap().unwrap();
        assert_eq!(prompts.len(), 2);
        assert!(prompts[0].argument("x").unwrap().required);
        assert_eq!(prompts[1].title.as_deref(), Some("B"));
        assert_eq!(prompts[1].raw["icons"], json!([]));
    }

    #[tokio::test]
    async fn fulfils_input_required_for_a_prompt() {
        let roots = handler(|_| async { Ok(json!({ "roots": [] })) });
        let (client, mut server) = pair(
            ProtocolVersion::V2026_07_28,
            HashMap::from([("roots/list".to_owned(), roots)]),
        );
        let arguments = json!({"language": "rust"}).as_object().unwrap().clone();
        let rendering = tokio::spawn(async move { client.get_prompt("review", arguments).await });
        let first = server.receive().await;
        assert_eq!(first["params"]["arguments"], json!({"language": "rust"}));
        assert_eq!(
            first["params"]["_meta"][meta::PROTOCOL_VERSION],
            "2026-07-28"
        );
        server
            .send(json!({"jsonrpc": "2.0", "id": first["id"], "result": {
                "resultType": "input_required", "requestState": "s1",
                "inputRequests": {"r": {"method": "roots/list", "params": {}}}}}))
            .await;
        let second = server.receive().await;
        assert_eq!(second["method"], "prompts/get");
        assert_eq!(second["params"]["requestState"], "s1");
        assert_eq!(
            second["params"]["inputResponses"],
            json!({"r": {"roots": []}})
        );
        server
            .send(json!({"jsonrpc": "2.0", "id": second["id"], "result": {
                "resultType": "complete",
                "messages": [{"role": "user", "content": {"type": "text", "text": "hi"}}]}}))
            .await;
        assert_eq!(rendering.await.unwrap().unwrap().text(), "hi");
    }

    #[tokio::test]
    async fn subscribes_through_a_listen_request_when_stateless() {
        let (client, mut server) = pair(ProtocolVersion::V2026_07_28, HashMap::new());
        let client = std::sync::Arc::new(client);
        let subscriber = client.clone();
        let subscribing =
            tokio::spawn(async move { subscriber.subscribe_resource("notes://1").await });
        let listen = server.receive().await;
        assert_eq!(listen["method"], "subscriptions/listen");
        assert_eq!(
            listen["params"]["notifications"],
            json!({"resourceSubscriptions": ["notes://1"]})
        );
        server
            .send(
                json!({"jsonrpc": "2.0", "method": "notifications/subscriptions/acknowledged",
                "params": {"notifications": {"resourceSubscriptions": ["notes://1"]},
                    "_meta": {(meta::SUBSCRIPTION_ID): listen["id"]}}}),
            )
            .await;
        subscribing.await.unwrap().unwrap();
        // The acknowledgement went to the subscriber, not to the queue.
        assert_eq!(client.try_next_notification(), None);
        // Subscribing again reuses the listen request.
        client.subscribe_resource("notes://1").await.unwrap();

        client.unsubscribe_resource("notes://1").await.unwrap();
        let cancelled = server.receive().await;
        assert_eq!(cancelled["method"], "notifications/cancelled");
        assert_eq!(cancelled["params"]["requestId"], listen["id"]);

        // A listen that does not honour the URI is refused, and cancelled.
        let subscriber = client.clone();
        let refused = tokio::spawn(async move { subscriber.subscribe_resource("nope://").await });
        let listen = server.receive().await;
        server
            .send(
                json!({"jsonrpc": "2.0", "method": "notifications/subscriptions/acknowledged",
                "params": {"notifications": {}, "_meta": {(meta::SUBSCRIPTION_ID): listen["id"]}}}),
            )
            .await;
        let error = refused.await.unwrap().unwrap_err();
        assert!(error.message.contains("nope://"), "{error}");
        assert_eq!(server.receive().await["method"], "notifications/cancelled");
    }

    #[tokio::test]
    async fn completes_with_context_arguments() {
        let (client, mut server) = pair(ProtocolVersion::V2025_06_18, HashMap::new());
        let target = CompletionTarget::ResourceTemplate("notes://{id}".to_owned());
        let given = json!({"owner": "me"}).as_object().unwrap().clone();
        let completing =
            tokio::spawn(async move { client.complete(&target, "id", "4", given).await });
        let request = server.receive().await;
        assert_eq!(
            request["params"],
            json!({"ref": {"type": "ref/resource", "uri": "notes://{id}"},
                "argument": {"name": "id", "value": "4"},
                "context": {"arguments": {"owner": "me"}}})
        );
        server
            .send(json!({"jsonrpc": "2.0", "id": request["id"], "result": {
                "completion": {"values": ["4", "42"], "total": 2, "hasMore": false}}}))
            .await;
        let completion = completing.await.unwrap().unwrap();
        assert_eq!(completion.values, ["4", "42"]);
    }

    #[test]
    fn reads_contents_and_messages() {
        let contents: ReadResult = typed(json!({ "contents": [
            { "uri": "a://1", "mimeType": "text/plain", "text": "hello" },
            { "uri": "a://2", "blob": "AAEC" },
        ]}))
        .unwrap();
        assert_eq!(contents.text(), "hello");
        assert_eq!(contents.blob(), Some(vec![0, 1, 2]));
        assert_eq!(contents.contents[1].text(), None);

        let messages: PromptMessages = typed(json!({ "messages": [
            { "role": "user", "content": { "type": "text", "text": "hi" } },
            { "role": "assistant", "content": { "type": "image", "data": "", "mimeType": "image/png" } },
        ]}))
        .unwrap();
        assert_eq!(messages.text(), "hi");
        assert_eq!(messages.messages[1].role, "assistant");

        let completion: Completion =
            typed(json!({ "values": ["a"], "total": 3, "hasMore": true })).unwrap();
        assert_eq!(
            (completion.values, completion.total, completion.has_more),
            (vec!["a".to_owned()], Some(3), true)
        );
    }
}
