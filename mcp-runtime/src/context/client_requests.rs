//! Requests from a running tool to the client: elicitation, sampling, roots.
//!
//! The two protocol eras do this differently, and tools need not care which one they run in:
//!
//! - **Handshake era** (2024-11-05 … 2025-11-25): the server sends a JSON-RPC request on the
//!   connection while the tool waits; the client's response, matched by id, resumes it.
//!   [`PendingClientRequests`] keeps the waiting tools.
//! - **2026-07-28** (stateless): the server never sends requests. The call ends with an
//!   `input_required` result listing what it needs; the client calls the tool again with the
//!   answers (`inputResponses`) and the `requestState` the server gave it. The tool runs again
//!   from the start, and this time each of its requests is answered at once. [`InputRound`]
//!   holds one such attempt. Because the tool re-runs, its requests are matched by the order
//!   in which it makes them, and work done before a request is done again on every round.

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::Duration;

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde_json::{Map, Value, json};
use tokio::sync::oneshot;

use crate::protocol::jsonrpc::RpcError;
use crate::protocol::outbox::Outbox;

/// Why a request to the client produced no answer.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ClientRequestError {
    /// The client did not declare the capability the request needs (or the negotiated
    /// protocol revision has no such request). Nothing was sent.
    #[error(
        "the client does not support {request}: it did not declare the `{capability}` capability"
    )]
    Unsupported {
        /// What was asked, e.g. `elicitation`.
        request: &'static str,
        /// The client capability it needs.
        capability: &'static str,
    },
    /// The client did not answer in time (see [`Server::client_request_timeout`](crate::Server::client_request_timeout)).
    #[error("the client did not answer within {0:?}")]
    TimedOut(Duration),
    /// The client answered with a JSON-RPC error.
    #[error("the client refused the request: {message} (code {code})")]
    Refused {
        /// The error code the client sent.
        code: i64,
        /// The client's message.
        message: String,
    },
    /// The client's answer does not have the expected shape.
    #[error("the client's answer is not a valid {expected}: {problem}")]
    InvalidResponse {
        /// What was expected, e.g. `ElicitResult`.
        expected: &'static str,
        /// What is wrong with it.
        problem: String,
    },
    /// The connection closed before the client answered.
    #[error("the client disconnected before answering")]
    Disconnected,
    /// The request cannot be expressed, e.g. a type whose schema is not a flat object was
    /// given to [`Context::elicit`](crate::Context::elicit).
    #[error("{0}")]
    InvalidRequest(String),
}

/// Handshake era: server-to-client requests of one connection (or HTTP session), waiting
/// for their answers. Each request goes out on the outbox of the tool call that makes it
/// (over HTTP, that call's response stream); answers come back through the session.
pub(crate) struct PendingClientRequests {
    next_id: AtomicU64,
    /// In a fleet: what this copy of the session puts before each id it sends (`"P-7"`),
    /// so a client's answer names the request of exactly one copy.
    prefix: OnceLock<String>,
    waiting: Mutex<HashMap<u64, oneshot::Sender<Result<Value, RpcError>>>>,
    timeout: Duration,
}

impl PendingClientRequests {
    pub fn new(timeout: Duration) -> Self {
        PendingClientRequests {
            next_id: AtomicU64::new(1),
            prefix: OnceLock::new(),
            waiting: Mutex::new(HashMap::new()),
            timeout,
        }
    }

    /// Hands a client's response to the request waiting for it. Returns false for an id
    /// this server is not waiting on (unknown, answered, timed out or cancelled).
    pub fn resolve(&self, id: &Value, outcome: Result<Value, RpcError>) -> bool {
        let Some(id) = self.number_of(id) else {
            return false;
        };
        let waiting = self
            .waiting
            .lock()
            .expect("client request table poisoned")
            .remove(&id);
        match waiting {
            Some(sender) => {
                let _ = sender.send(outcome);
                true
            }
            None => false,
        }
    }

    /// Puts `prefix` before the ids of the requests sent from now on (see
    /// `Session::prefix_client_requests`): they become strings, `"{prefix}-{n}"`.
    #[cfg(feature = "http")]
    pub fn prefix_ids(&self, prefix: String) {
        let _ = self.prefix.set(prefix);
    }

    /// The JSON-RPC id of request `n`.
    fn id_of(&self, n: u64) -> Value {
        match self.prefix.get() {
            Some(prefix) => Value::String(format!("{prefix}-{n}")),
            None => Value::from(n),
        }
    }

    /// The number of a request from its JSON-RPC id, if it is one of this copy's.
    fn number_of(&self, id: &Value) -> Option<u64> {
        match self.prefix.get() {
            Some(prefix) => id
                .as_str()?
                .strip_prefix(prefix.as_str())?
                .strip_prefix('-')?
                .parse()
                .ok(),
            None => id.as_u64(),
        }
    }

    /// Whether a request with this id waits for its answer.
    #[cfg(feature = "http")]
    pub fn is_waiting(&self, id: &Value) -> bool {
        self.number_of(id).is_some_and(|id| {
            self.waiting
                .lock()
                .expect("client request table poisoned")
                .contains_key(&id)
        })
    }

    /// Ends every wait with [`ClientRequestError::Disconnected`].
    pub fn disconnect(&self) {
        self.waiting
            .lock()
            .expect("client request table poisoned")
            .clear();
    }

    /// Sends `method` to the client on `outbox` and waits for its answer.
    pub async fn request(
        &self,
        outbox: &Outbox,
        method: &str,
        params: Value,
    ) -> Result<Value, ClientRequestError> {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let (sender, answer) = oneshot::channel();
        self.waiting
            .lock()
            .expect("client request table poisoned")
            .insert(id, sender);
        // If the tool stops waiting (cancelled, timed out), the client is told so and a
        // late answer is ignored.
        let mut abandoned = Abandoned {
            requests: self,
            outbox,
            id: Some(id),
        };
        let wire_id = self.id_of(id);
        outbox
            .send(&json!({ "jsonrpc": "2.0", "id": wire_id, "method": method, "params": params }));
        let outcome = tokio::time::timeout(self.timeout, answer).await;
        let result = match outcome {
            Ok(Ok(Ok(result))) => Ok(result),
            Ok(Ok(Err(error))) => Err(ClientRequestError::Refused {
                code: error.code,
                message: error.message,
            }),
            Ok(Err(_)) => Err(ClientRequestError::Disconnected),
            Err(_) => {
                tracing::warn!(method, %wire_id, "the client did not answer a request in time");
                return Err(ClientRequestError::TimedOut(self.timeout));
            }
        };
        abandoned.id = None;
        result
    }
}

/// Withdraws a request nobody waits for any more: `notifications/cancelled` to the client.
struct Abandoned<'a> {
    requests: &'a PendingClientRequests,
    outbox: &'a Outbox,
    id: Option<u64>,
}

impl Drop for Abandoned<'_> {
    fn drop(&mut self) {
        let Some(id) = self.id else { return };
        let was_waiting = self
            .requests
            .waiting
            .lock()
            .map(|mut waiting| waiting.remove(&id).is_some())
            .unwrap_or(false);
        if was_waiting {
            self.outbox.send(&json!({
                "jsonrpc": "2.0",
                "method": "notifications/cancelled",
                "params": { "requestId": self.requests.id_of(id), "reason": "The tool call that asked no longer needs the answer." },
            }));
        }
    }
}

/// 2026-07-28: one attempt of a tool call that may ask the client for input.
pub(crate) struct InputRound {
    tool: Cow<'static, str>,
    /// The client's answers so far, by key (from `requestState` and `inputResponses`).
    answers: Map<String, Value>,
    /// How many requests the tool has made in this attempt.
    asked: AtomicUsize,
    /// Requests made in this attempt that have no answer yet, by key.
    unanswered: Mutex<Map<String, Value>>,
    /// Set once the call became a task (`input_before_task`): its later requests go to
    /// the task.
    became_task: AtomicBool,
}

impl InputRound {
    /// Reads a retried call's `requestState` and `inputResponses`. Both are client input:
    /// the state is checked to belong to this tool and only ever holds the client's own
    /// earlier answers, which are checked like the new ones.
    pub fn from_params(
        tool: Cow<'static, str>,
        params: &Map<String, Value>,
    ) -> Result<Self, RpcError> {
        let mut answers = match params.get("requestState") {
            None | Some(Value::Null) => Map::new(),
            Some(Value::String(state)) => decode_state(&tool, state).ok_or_else(|| {
                RpcError::invalid_params(format!(
                    "Invalid params: `requestState` was not issued by this server for tool `{tool}`."
                ))
            })?,
            Some(_) => {
                return Err(RpcError::invalid_params(
                    "Invalid params: `requestState` must be a string.",
                ));
            }
        };
        match params.get("inputResponses") {
            None | Some(Value::Null) => {}
            Some(Value::Object(responses)) => {
                for (key, response) in responses {
                    if !response.is_object() {
                        return Err(RpcError::invalid_params(format!(
                            "Invalid params: `inputResponses.{key}` must be an object."
                        )));
                    }
                    answers.insert(key.clone(), response.clone());
                }
            }
            Some(_) => {
                return Err(RpcError::invalid_params(
                    "Invalid params: `inputResponses` must be an object.",
                ));
            }
        }
        Ok(InputRound {
            tool,
            answers,
            asked: AtomicUsize::new(0),
            unanswered: Mutex::new(Map::new()),
            became_task: AtomicBool::new(false),
        })
    }

    /// The answer to the tool's next request (under `key`, or the next `input-N`) if the
    /// client already gave it; otherwise the request is recorded for the `input_required`
    /// result and `None` is returned.
    pub fn ask(&self, key: Option<&str>, method: &str, params: Value) -> Option<Value> {
        let key = match key {
            Some(key) => key.to_owned(),
            None => format!("input-{}", self.asked.fetch_add(1, Ordering::Relaxed)),
        };
        if let Some(answer) = self.answers.get(&key) {
            return Some(answer.clone());
        }
        self.unanswered
            .lock()
            .expect("input round poisoned")
            .insert(key, json!({ "method": method, "params": params }));
        None
    }

    /// The call became a task: no more rounds.
    pub fn become_task(&self) {
        self.became_task.store(true, Ordering::Release);
    }

    pub fn became_task(&self) -> bool {
        self.became_task.load(Ordering::Acquire)
    }

    /// Whether the tool is waiting for input the client has not given yet.
    pub fn needs_input(&self) -> bool {
        !self
            .unanswered
            .lock()
            .expect("input round poisoned")
            .is_empty()
    }

    /// The `input_required` result: what to ask, and the answers so far to send back.
    pub fn input_required_result(&self) -> Value {
        let requests = std::mem::take(&mut *self.unanswered.lock().expect("input round poisoned"));
        json!({
            "resultType": "input_required",
            "inputRequests": requests,
            "requestState": encode_state(&self.tool, &self.answers),
        })
    }
}

/// `requestState` is the tool's name and the answers so far, as base64url JSON. It needs no
/// secrecy or signature: it carries nothing but what the client itself answered.
fn encode_state(tool: &str, answers: &Map<String, Value>) -> String {
    let state = json!({ "tool": tool, "answers": answers });
    URL_SAFE_NO_PAD.encode(state.to_string())
}

fn decode_state(tool: &str, state: &str) -> Option<Map<String, Value>> {
    let bytes = URL_SAFE_NO_PAD.decode(state).ok()?;
    let mut state: Map<String, Value> = serde_json::from_slice(&bytes).ok()?;
    if state.get("tool").and_then(Value::as_str) != Some(tool) {
        return None;
    }
    match state.remove("answers")? {
        Value::Object(answers) if answers.values().all(Value::is_object) => Some(answers),
        _ => None,
    }
}

/// The user's answer to [`Context::elicit`](crate::Context::elicit).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Elicitation<T> {
    /// The user submitted the form; here is what they entered.
    Accepted(T),
    /// The user explicitly declined to answer.
    Declined,
    /// The user dismissed the request without choosing.
    Cancelled,
}

impl<T> Elicitation<T> {
    /// The submitted value, if the user accepted.
    pub fn accepted(self) -> Option<T> {
        match self {
            Elicitation::Accepted(value) => Some(value),
            Elicitation::Declined | Elicitation::Cancelled => None,
        }
    }
}

/// Reads an `ElicitResult`, decoding the submitted content as `T`.
pub(crate) fn read_elicitation<T: serde::de::DeserializeOwned>(
    answer: Value,
) -> Result<Elicitation<T>, ClientRequestError> {
    let invalid = |problem: String| ClientRequestError::InvalidResponse {
        expected: "ElicitResult",
        problem,
    };
    match answer.get("action").and_then(Value::as_str) {
        Some("accept") => {
            let content = answer.get("content").cloned().unwrap_or_else(|| json!({}));
            serde_json::from_value(content)
                .map(Elicitation::Accepted)
                .map_err(|error| invalid(format!("the submitted content does not fit: {error}")))
        }
        Some("decline") => Ok(Elicitation::Declined),
        Some("cancel") => Ok(Elicitation::Cancelled),
        _ => Err(invalid(
            "`action` must be \"accept\", \"decline\" or \"cancel\"".to_owned(),
        )),
    }
}

/// A request for the client's LLM to generate a message (`sampling/createMessage`).
///
/// ```
/// use mcp_runtime::SamplingRequest;
///
/// let request = SamplingRequest::new(200)
///     .system_prompt("You are a terse reviewer.")
///     .user("Summarise this diff: ...")
///     .temperature(0.2);
/// # let _ = request;
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct SamplingRequest {
    params: Map<String, Value>,
}

impl SamplingRequest {
    /// A request for at most `max_tokens` tokens, with no messages yet.
    pub fn new(max_tokens: u32) -> Self {
        let mut params = Map::new();
        params.insert("messages".into(), Value::Array(Vec::new()));
        params.insert("maxTokens".into(), max_tokens.into());
        SamplingRequest { params }
    }

    fn message(mut self, role: &str, text: impl Into<String>) -> Self {
        if let Some(Value::Array(messages)) = self.params.get_mut("messages") {
            messages
                .push(json!({ "role": role, "content": { "type": "text", "text": text.into() } }));
        }
        self
    }

    /// Appends a message from the user.
    pub fn user(self, text: impl Into<String>) -> Self {
        self.message("user", text)
    }

    /// Appends a message from the assistant (for few-shot or multi-turn prompts).
    pub fn assistant(self, text: impl Into<String>) -> Self {
        self.message("assistant", text)
    }

    /// The system prompt the server would like (the client may change or drop it).
    pub fn system_prompt(mut self, prompt: impl Into<String>) -> Self {
        self.params
            .insert("systemPrompt".into(), prompt.into().into());
        self
    }

    /// Sampling temperature.
    pub fn temperature(mut self, temperature: f64) -> Self {
        self.params.insert("temperature".into(), temperature.into());
        self
    }

    /// Sequences that end generation.
    pub fn stop_sequences<S: Into<String>>(mut self, stops: impl IntoIterator<Item = S>) -> Self {
        let stops: Vec<Value> = stops
            .into_iter()
            .map(|stop| Value::String(stop.into()))
            .collect();
        self.params.insert("stopSequences".into(), stops.into());
        self
    }

    /// A model the server would prefer (a hint; the client chooses).
    pub fn model_hint(mut self, name: impl Into<String>) -> Self {
        let preferences = self
            .params
            .entry("modelPreferences")
            .or_insert_with(|| json!({ "hints": [] }));
        if let Some(Value::Array(hints)) = preferences.get_mut("hints") {
            hints.push(json!({ "name": name.into() }));
        }
        self
    }

    pub(crate) fn into_params(self) -> Value {
        Value::Object(self.params)
    }
}

/// What the client's LLM generated.
#[derive(Clone, Debug, PartialEq)]
pub struct SamplingResponse {
    /// Who wrote the message (normally the assistant).
    pub role: String,
    /// The content block(s), as the client sent them.
    pub content: Value,
    /// The model that generated it.
    pub model: String,
    /// Why generation stopped (`endTurn`, `stopSequence`, `maxTokens`, …), if said.
    pub stop_reason: Option<String>,
}

impl SamplingResponse {
    /// The generated text, if the content is one text block.
    pub fn text(&self) -> Option<&str> {
        match self.content.get("type").and_then(Value::as_str) {
            Some("text") => self.content.get("text").and_then(Value::as_str),
            _ => None,
        }
    }

    pub(crate) fn read(answer: Value) -> Result<Self, ClientRequestError> {
        let invalid = |problem: &str| ClientRequestError::InvalidResponse {
            expected: "CreateMessageResult",
            problem: problem.to_owned(),
        };
        let field = |name: &str| answer.get(name).and_then(Value::as_str).map(str::to_owned);
        Ok(SamplingResponse {
            role: field("role").ok_or_else(|| invalid("`role` is missing"))?,
            model: field("model").ok_or_else(|| invalid("`model` is missing"))?,
            stop_reason: field("stopReason"),
            content: answer
                .get("content")
                .cloned()
                .ok_or_else(|| invalid("`content` is missing"))?,
        })
    }
}

/// A directory or file the client lets the server work in (`roots/list`).
#[derive(Clone, Debug, PartialEq, Eq, serde::Deserialize)]
pub struct Root {
    /// A `file://` URI.
    pub uri: String,
    /// A display name.
    #[serde(default)]
    pub name: Option<String>,
}

pub(crate) fn read_roots(answer: Value) -> Result<Vec<Root>, ClientRequestError> {
    let roots = answer.get("roots").cloned().unwrap_or(Value::Null);
    serde_json::from_value(roots).map_err(|error| ClientRequestError::InvalidResponse {
        expected: "ListRootsResult",
        problem: error.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(feature = "http")]
    use std::sync::Arc;

    #[test]
    fn request_state_round_trips_and_is_bound_to_its_tool() {
        let mut answers = Map::new();
        answers.insert("input-0".into(), json!({"action": "decline"}));
        let state = encode_state("book", &answers);
        assert_eq!(decode_state("book", &state), Some(answers));
        assert_eq!(decode_state("other", &state), None);
        assert_eq!(decode_state("book", "garbage!"), None);
        let not_objects = URL_SAFE_NO_PAD.encode(r#"{"tool":"book","answers":{"input-0":1}}"#);
        assert_eq!(decode_state("book", &not_objects), None);
    }

    #[test]
    fn a_round_answers_known_requests_and_records_the_rest() {
        let mut params = Map::new();
        params.insert(
            "inputResponses".into(),
            json!({"input-0": {"action": "accept", "content": {"name": "Ada"}}}),
        );
        let round = InputRound::from_params("greet".into(), &params).unwrap();
        assert_eq!(
            round.ask(None, "elicitation/create", json!({})),
            Some(json!({"action": "accept", "content": {"name": "Ada"}}))
        );
        assert!(!round.needs_input());
        assert_eq!(round.ask(None, "roots/list", json!({})), None);
        assert!(round.needs_input());
        let result = round.input_required_result();
        assert_eq!(result["inputRequests"]["input-1"]["method"], "roots/list");
        let state = result["requestState"].as_str().unwrap();
        assert_eq!(decode_state("greet", state).unwrap().len(), 1);
    }

    #[cfg(feature = "http")]
    #[tokio::test]
    async fn a_prefixed_copy_answers_only_its_own_ids() {
        let requests = Arc::new(PendingClientRequests::new(Duration::from_secs(5)));
        requests.prefix_ids("c0py".into());
        let (outbox, mut lines) = Outbox::channel();
        let asking = Arc::clone(&requests);
        let asked =
            tokio::spawn(async move { asking.request(&outbox, "roots/list", json!({})).await });
        let sent: Value = serde_json::from_slice(&lines.recv().await.unwrap()).unwrap();
        assert_eq!(sent["id"], "c0py-1");
        // Another copy's id, or the bare number, is not this copy's request.
        for other in [json!(1), json!("other-1"), json!("c0py-x"), json!("c0py1")] {
            assert!(!requests.is_waiting(&other), "{other}");
            assert!(!requests.resolve(&other, Ok(json!({}))), "{other}");
        }
        assert!(requests.is_waiting(&json!("c0py-1")));
        assert!(requests.resolve(&json!("c0py-1"), Ok(json!({"roots": []}))));
        assert_eq!(asked.await.unwrap().unwrap(), json!({"roots": []}));
    }

    #[test]
    fn rejects_answers_that_are_not_objects() {
        let mut params = Map::new();
        params.insert("inputResponses".into(), json!({"input-0": 3}));
        assert!(InputRound::from_params("greet".into(), &params).is_err());
        params.clear();
        params.insert("requestState".into(), json!(5));
        assert!(InputRound::from_params("greet".into(), &params).is_err());
    }
}
