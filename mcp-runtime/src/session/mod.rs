//! The protocol state of one connection, and how each message is answered.
//!
//! A connection speaks one of two eras per request. A request whose `params._meta` names a
//! protocol version is served statelessly under that (2026-07-28) revision, whatever came
//! before. Any other request is served under the revision negotiated by `initialize`. Both
//! can happen on one connection, as the 2026-07-28 spec allows for dual-era servers.

use std::borrow::Cow;
use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::pin::Pin;
use std::sync::Arc;

use futures_util::FutureExt as _;
use serde_json::{Map, Value, json};

use tokio_util::sync::CancellationToken;

use crate::catalog::{Catalog, ListPage};
use crate::client_log_layer;
use crate::client_requests::{InputRound, PendingClientRequests};
use crate::context::{
    ClientLink, Context, LogFilter, LogLevel, RequestHandle, RequestInfo, SessionLogLevel,
};
use crate::extract::States;
use crate::invoke::ToolFuture;
use crate::jsonrpc::{
    Decoded, Incoming, Message, Params, RequestId, Response, RpcError, StringMember, UnknownId,
    code,
};
use crate::outbox::Outbox;
use crate::result::{CallToolResult, ToolError};
use crate::shape::ShapedResult;
use crate::tool_set::ToolSet;
use crate::version::ProtocolVersion;

/// `_meta` keys of the stateless revision.
mod meta_key {
    pub const PROTOCOL_VERSION: &str = "io.modelcontextprotocol/protocolVersion";
    pub const CLIENT_CAPABILITIES: &str = "io.modelcontextprotocol/clientCapabilities";
    pub const SERVER_INFO: &str = "io.modelcontextprotocol/serverInfo";
    pub const CLIENT_INFO: &str = "io.modelcontextprotocol/clientInfo";
    pub const LOG_LEVEL: &str = "io.modelcontextprotocol/logLevel";
    pub const PROGRESS_TOKEN: &str = "progressToken";
    pub const SUBSCRIPTION_ID: &str = "io.modelcontextprotocol/subscriptionId";
}

/// What the server says about itself.
#[derive(Clone, Debug)]
pub(crate) struct ServerInfo {
    pub name: String,
    pub version: String,
    pub title: Option<String>,
}

/// Everything shared by all connections of one server.
pub(crate) struct ServerCore {
    pub info: ServerInfo,
    pub instructions: Option<String>,
    /// The tools offered (changeable at run time).
    pub tools: ToolSet,
    pub page_size: usize,
    pub list_ttl_ms: u64,
    /// Calls allowed to run at once across the server; the rest wait their turn.
    pub call_slots: Arc<tokio::sync::Semaphore>,
    /// How long a call may run before it is stopped with an `isError` result.
    pub call_timeout: Option<std::time::Duration>,
    /// The server-wide rate limit, and what happens to calls over any rate limit.
    pub rate_limits: crate::rate_limit::RateLimits,
    /// Whether `tracing` events inside tools are forwarded to clients as log messages.
    pub forward_tracing: bool,
    /// Whether the messages of errors not marked public are hidden from clients.
    pub mask_error_details: bool,
    /// How long a tool waits for the client to answer one of its requests.
    pub client_request_timeout: std::time::Duration,
    /// Values registered with `Server::state`.
    pub states: Arc<States>,
}

/// A response that is not ready yet: a running tool call, wrapped in its JSON-RPC envelope
/// when it finishes.
pub(crate) struct PendingResponse {
    id: RequestId,
    result: Pin<Box<dyn Future<Output = Body> + Send + 'static>>,
}

impl Future for PendingResponse {
    type Output = Response;

    fn poll(
        mut self: Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Response> {
        let pending = &mut *self;
        pending
            .result
            .as_mut()
            .poll(cx)
            .map(|result| result.response(&pending.id))
    }
}

/// The answer to one request.
pub(crate) enum Reply {
    /// The full JSON-RPC response, ready to send.
    Ready(Response),
    /// A tool call whose response comes later. `id` identifies it for cancellation, and
    /// `request` fires its context's cancellation token.
    Pending {
        id: RequestId,
        response: PendingResponse,
        request: Option<RequestHandle>,
    },
}

/// What one message asks the connection to do.
pub(crate) enum Outcome {
    /// Nothing to send (a notification, or a response to the server).
    Nothing,
    /// Answer a request.
    Reply(Reply),
    /// Answer a batch with an array of these (2025-03-26).
    Batch(Vec<Reply>),
    /// Stop the request with this id, and send nothing for it.
    Cancel(RequestId),
}

/// The revision a request is served under.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Era {
    /// Negotiated by `initialize`.
    Handshake(ProtocolVersion),
    /// Named in the request's `_meta` (stateless).
    Stateless(ProtocolVersion),
    /// Neither: the client has not initialized and named no version.
    Unknown,
}

/// The body of a request's answer before it is wrapped in a JSON-RPC envelope.
enum Answer {
    Now(Result<Body, RpcError>),
    Later {
        result: Pin<Box<dyn Future<Output = Body> + Send + 'static>>,
        request: Option<RequestHandle>,
    },
}

impl From<Result<Value, RpcError>> for Answer {
    fn from(result: Result<Value, RpcError>) -> Self {
        Answer::Now(result.map(Body::Json))
    }
}

/// A result, in the form it is serialized from.
enum Body {
    Json(Value),
    /// A tool's result, serialized without building a `Value`.
    ToolResult(ShapedResult),
    /// A `tools/list` page: the other members, and the tools from their prepared JSON.
    Page {
        members: Map<String, Value>,
        page: ListPage,
    },
}

impl Body {
    /// The success response carrying this result: the same bytes as serializing it, a
    /// tool's result written by its own faster path.
    fn response(&self, id: &RequestId) -> Response {
        Response::success(id, |out| match self {
            Body::ToolResult(result) => result.write_json(out),
            body => serde_json::to_writer(out, body).expect("a result always serializes"),
        })
    }
}

impl serde::Serialize for Body {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        match self {
            Body::Json(result) => result.serialize(serializer),
            Body::ToolResult(result) => result.serialize(serializer),
            Body::Page { members, page } => {
                // Members in the order a `serde_json::Map` writes them, `tools` among them.
                let mut map = serializer.serialize_map(Some(members.len() + 1))?;
                let mut tools = Some(page);
                for (key, value) in members {
                    if key.as_str() > "tools"
                        && let Some(page) = tools.take()
                    {
                        map.serialize_entry("tools", page)?;
                    }
                    map.serialize_entry(key, value)?;
                }
                if let Some(page) = tools {
                    map.serialize_entry("tools", page)?;
                }
                map.end()
            }
        }
    }
}

/// Protocol state of one connection (stdio) or session (HTTP).
///
/// Every message comes with the [`Outbox`] its related messages go to: progress and log
/// messages of a tool call, the requests its tool makes to the client, the
/// acknowledgement and notifications of a listen stream. Over stdio that is the
/// connection's output; over HTTP, the response stream of the POST that carried it.
pub(crate) struct Session {
    core: Arc<ServerCore>,
    negotiated: Option<ProtocolVersion>,
    /// What the handshake-era client said about itself in `initialize` (shared with every
    /// request's context, not copied).
    client_info: Option<Arc<Value>>,
    client_capabilities: Arc<Value>,
    log_level: SessionLogLevel,
    /// Requests this connection's tools sent to the client, waiting for answers.
    client_requests: Arc<PendingClientRequests>,
    /// Fires when the connection's input ends (or the server shuts down): listen streams
    /// then end with a result.
    closing: CancellationToken,
    /// Who sends the message being handled, as HTTP authentication verified it.
    principal: Option<Arc<dyn std::any::Any + Send + Sync>>,
}

impl Session {
    pub fn new(core: Arc<ServerCore>, closing: CancellationToken) -> Self {
        let client_requests = Arc::new(PendingClientRequests::new(core.client_request_timeout));
        Session {
            client_requests,
            closing,
            principal: None,
            core,
            negotiated: None,
            client_info: None,
            client_capabilities: Arc::new(json!({})),
            log_level: SessionLogLevel::default(),
        }
    }

    /// The revision `initialize` negotiated, once it has succeeded.
    #[cfg(feature = "http")]
    pub fn negotiated(&self) -> Option<ProtocolVersion> {
        self.negotiated
    }

    /// The notification that tells a handshake-era client the tool list changed, if this
    /// session negotiated a revision and the server announces changes. (2026-07-28 listen
    /// streams watch for changes themselves.)
    pub fn tools_changed(&self) -> Option<Value> {
        (self.negotiated.is_some() && self.core.tools.announces_changes())
            .then(|| json!({ "jsonrpc": "2.0", "method": "notifications/tools/list_changed" }))
    }

    /// Ends the waits of tools for client answers that can no longer come.
    pub fn disconnect_client_requests(&self) {
        self.client_requests.disconnect();
    }

    /// Sets who sends the messages handled next (HTTP authentication); their tools see it.
    #[cfg(feature = "http")]
    pub fn set_principal(&mut self, principal: Option<Arc<dyn std::any::Any + Send + Sync>>) {
        self.principal = principal;
    }

    /// How to write an error response whose request id could not be read.
    pub fn unknown_id(&self) -> UnknownId {
        match self.negotiated {
            Some(version) if !version.may_omit_unknown_id() => UnknownId::Null,
            _ => UnknownId::Omit,
        }
    }

    /// An error response to a message whose id is unknown.
    pub fn error_without_id(&self, error: RpcError) -> Response {
        Response::failure(None, &error, self.unknown_id())
    }

    /// Handles one line of input: a message or, where the revision allows, a batch.
    /// Messages related to the requests in it go to `related`.
    pub fn handle_line(&mut self, line: &str, related: &Outbox) -> Outcome {
        match serde_json::from_str(line) {
            Ok(decoded) => self.handle_decoded(decoded, related),
            Err(error) => Outcome::Reply(Reply::Ready(self.parse_error(&error))),
        }
    }

    /// The answer to input that is not JSON.
    pub fn parse_error(&self, error: &serde_json::Error) -> Response {
        // serde_json refuses nesting deeper than 128 levels (which also bounds the stack); say
        // so plainly rather than as a syntax error.
        let message = if error.to_string().starts_with("recursion limit exceeded") {
            "Parse error: the message is nested more than 128 levels deep.".to_owned()
        } else {
            format!("Parse error: {error}.")
        };
        self.error_without_id(RpcError::new(code::PARSE_ERROR, message))
    }

    /// Handles one decoded message or, where the revision allows, a batch.
    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    pub fn handle_json(&mut self, message: Value, related: &Outbox) -> Outcome {
        self.handle_decoded(Decoded::from_value(message), related)
    }

    fn handle_decoded(&mut self, decoded: Decoded<'_>, related: &Outbox) -> Outcome {
        match decoded {
            Decoded::Batch(messages) => self.handle_batch(messages, related),
            Decoded::Message(message) => self.handle_message(message, false, related),
        }
    }

    fn handle_batch(&mut self, messages: Vec<Message<'_>>, related: &Outbox) -> Outcome {
        let batches_allowed = self.negotiated.is_some_and(ProtocolVersion::allows_batches);
        if !batches_allowed || messages.is_empty() {
            let reason = if messages.is_empty() {
                "Invalid request: an empty batch.".to_owned()
            } else {
                match self.negotiated {
                    Some(version) => format!(
                        "Invalid request: JSON-RPC batches are not part of protocol revision {version}."
                    ),
                    None => "Invalid request: JSON-RPC batches are only accepted after `initialize` negotiated 2025-03-26.".to_owned(),
                }
            };
            let error = RpcError::new(code::INVALID_REQUEST, reason);
            return Outcome::Reply(Reply::Ready(self.error_without_id(error)));
        }
        let mut replies = Vec::new();
        for message in messages {
            match self.handle_message(message, true, related) {
                Outcome::Reply(reply) => replies.push(reply),
                Outcome::Batch(_) | Outcome::Nothing | Outcome::Cancel(_) => {}
            }
        }
        if replies.is_empty() {
            Outcome::Nothing
        } else {
            Outcome::Batch(replies)
        }
    }

    fn handle_message(
        &mut self,
        message: Message<'_>,
        in_batch: bool,
        related: &Outbox,
    ) -> Outcome {
        match Incoming::classify(message) {
            Incoming::Request { id, method, params } => {
                let answer = self.handle_request(&id, &method, params, in_batch, related);
                Outcome::Reply(envelope(id, answer, self.unknown_id()))
            }
            Incoming::Notification { method, params } => {
                self.handle_notification(&method, params.into_map())
            }
            Incoming::Response { id, outcome } => {
                if !self.client_requests.resolve(&id, outcome) {
                    tracing::debug!(%id, "ignoring a response to no request this server is waiting on");
                }
                Outcome::Nothing
            }
            Incoming::Invalid { id, error } => Outcome::Reply(Reply::Ready(Response::failure(
                id.as_ref(),
                &error,
                self.unknown_id(),
            ))),
        }
    }

    fn handle_notification(&mut self, method: &str, params: Map<String, Value>) -> Outcome {
        match method {
            // Cancelling a listen request closes its stream like any other request.
            "notifications/cancelled" => match params.get("requestId") {
                Some(id) => Outcome::Cancel(id.clone()),
                None => Outcome::Nothing,
            },
            "notifications/initialized" => Outcome::Nothing,
            other => {
                tracing::debug!(method = other, "ignoring a notification");
                Outcome::Nothing
            }
        }
    }

    fn handle_request(
        &mut self,
        id: &RequestId,
        method: &str,
        params: Params<'_>,
        in_batch: bool,
        related: &Outbox,
    ) -> Answer {
        if method == "initialize" {
            if in_batch {
                return Answer::Now(Err(RpcError::new(
                    code::INVALID_REQUEST,
                    "Invalid request: `initialize` must not be part of a batch.",
                )));
            }
            return self.initialize(&params.into_map()).into();
        }
        // `_meta` is among the other members.
        let era = match self.era(&params.others) {
            Ok(era) => era,
            Err(error) => return Answer::Now(Err(error)),
        };
        let answer = match (era, method) {
            (Era::Stateless(_), "server/discover") => self.discover().into(),
            (Era::Stateless(_), "subscriptions/listen") => {
                self.listen(id, &params.into_map(), related)
            }
            (Era::Handshake(_) | Era::Unknown, "ping") => Ok(json!({})).into(),
            (
                Era::Stateless(version),
                "ping" | "logging/setLevel" | "notifications/initialized",
            ) => Answer::Now(Err(RpcError::new(
                code::METHOD_NOT_FOUND,
                format!("Method not found: `{method}` is not part of protocol revision {version}."),
            ))),
            (Era::Handshake(version) | Era::Stateless(version), "tools/list") => {
                Answer::Now(self.list_tools(version, &params.into_map()))
            }
            (Era::Handshake(version) | Era::Stateless(version), "tools/call") => {
                self.call_tool(era, version, id, params, related)
            }
            (Era::Handshake(_), "logging/setLevel") => {
                self.set_log_level(&params.into_map()).into()
            }
            (Era::Unknown | Era::Handshake(_), "server/discover" | "tools/list" | "tools/call") => {
                Answer::Now(Err(RpcError::invalid_params(format!(
                    "Invalid params: `{method}` needs a protocol version: send `initialize` first, \
                     or name the version in params._meta[\"{}\"] (2026-07-28).",
                    meta_key::PROTOCOL_VERSION
                ))))
            }
            _ => Answer::Now(Err(RpcError::method_not_found(method))),
        };
        match era {
            Era::Stateless(_) => stateless_result(answer, &self.core),
            Era::Handshake(_) | Era::Unknown => answer,
        }
    }

    /// Which revision serves this request.
    fn era(&self, params: &Map<String, Value>) -> Result<Era, RpcError> {
        let meta = params.get("_meta").and_then(Value::as_object);
        let Some(requested) = meta.and_then(|meta| meta.get(meta_key::PROTOCOL_VERSION)) else {
            return Ok(self.negotiated.map_or(Era::Unknown, Era::Handshake));
        };
        let Some(requested) = requested.as_str() else {
            return Err(RpcError::invalid_params(format!(
                "Invalid params: _meta[\"{}\"] must be a string.",
                meta_key::PROTOCOL_VERSION
            )));
        };
        match ProtocolVersion::parse(requested) {
            Some(version) if version.is_stateless() => {
                let capabilities = meta.and_then(|meta| meta.get(meta_key::CLIENT_CAPABILITIES));
                if !capabilities.is_some_and(Value::is_object) {
                    return Err(RpcError::invalid_params(format!(
                        "Invalid params: _meta[\"{}\"] is required (an object; {{}} declares no capabilities).",
                        meta_key::CLIENT_CAPABILITIES
                    )));
                }
                Ok(Era::Stateless(version))
            }
            _ => Err(RpcError::new(
                code::UNSUPPORTED_PROTOCOL_VERSION,
                format!("Unsupported protocol version: {requested}."),
            )
            .with_data(json!({
                "supported": supported_versions(),
                "requested": requested,
            }))),
        }
    }

    fn initialize(&mut self, params: &Map<String, Value>) -> Result<Value, RpcError> {
        let Some(requested) = params.get("protocolVersion").and_then(Value::as_str) else {
            return Err(RpcError::invalid_params(
                "Invalid params: `initialize` needs a `protocolVersion` string.",
            ));
        };
        let version = ProtocolVersion::parse(requested)
            .filter(|version| !version.is_stateless())
            .unwrap_or(ProtocolVersion::LATEST_HANDSHAKE);
        self.negotiated = Some(version);
        self.client_info = params.get("clientInfo").cloned().map(Arc::new);
        self.client_capabilities = Arc::new(
            params
                .get("capabilities")
                .cloned()
                .unwrap_or_else(|| json!({})),
        );
        let mut result = Map::new();
        result.insert("protocolVersion".into(), version.as_str().into());
        result.insert("capabilities".into(), self.capabilities());
        result.insert("serverInfo".into(), self.server_info(version));
        if let Some(instructions) = &self.core.instructions {
            result.insert("instructions".into(), instructions.clone().into());
        }
        Ok(Value::Object(result))
    }

    fn capabilities(&self) -> Value {
        let list_changed = self.core.tools.announces_changes();
        json!({ "tools": { "listChanged": list_changed }, "logging": {} })
    }

    fn set_log_level(&self, params: &Map<String, Value>) -> Result<Value, RpcError> {
        match params
            .get("level")
            .and_then(Value::as_str)
            .and_then(LogLevel::parse)
        {
            Some(level) => {
                self.log_level.set(level);
                Ok(json!({}))
            }
            None => Err(RpcError::invalid_params(format!(
                "Invalid params: `level` must be one of debug, info, notice, warning, error, \
                 critical, alert, emergency (got {}).",
                params
                    .get("level")
                    .map_or_else(|| "nothing".to_owned(), Value::to_string)
            ))),
        }
    }

    /// Everything a tool's `Context` knows about this request.
    fn request_info(
        &self,
        era: Era,
        version: ProtocolVersion,
        id: &RequestId,
        tool: Cow<'static, str>,
        params: &Map<String, Value>,
        client: ClientLink,
    ) -> RequestInfo {
        let meta = params.get("_meta").and_then(Value::as_object);
        let from_meta = |key: &str| meta.and_then(|meta| meta.get(key)).cloned();
        let (client_info, client_capabilities, log_filter) = match era {
            Era::Stateless(_) => {
                let level = from_meta(meta_key::LOG_LEVEL);
                let level = level
                    .as_ref()
                    .and_then(Value::as_str)
                    .and_then(LogLevel::parse);
                (
                    from_meta(meta_key::CLIENT_INFO).map(Arc::new),
                    Arc::new(from_meta(meta_key::CLIENT_CAPABILITIES).unwrap_or_else(|| json!({}))),
                    level.map_or(LogFilter::Silent, LogFilter::Request),
                )
            }
            Era::Handshake(_) | Era::Unknown => (
                self.client_info.clone(),
                self.client_capabilities.clone(),
                LogFilter::Session(self.log_level.clone()),
            ),
        };
        let progress_token = from_meta(meta_key::PROGRESS_TOKEN)
            .filter(|token| token.is_string() || token.is_i64() || token.is_u64());
        RequestInfo {
            request_id: id.clone(),
            tool,
            protocol_version: version,
            client_info,
            client_capabilities,
            progress_token,
            log_filter,
            client,
            forward_tracing: self.core.forward_tracing,
            principal: self.principal.clone(),
        }
    }

    fn server_info(&self, version: ProtocolVersion) -> Value {
        server_info_json(&self.core, version)
    }

    fn discover(&self) -> Result<Value, RpcError> {
        let mut result = Map::new();
        result.insert("supportedVersions".into(), supported_versions());
        result.insert("capabilities".into(), self.capabilities());
        if let Some(instructions) = &self.core.instructions {
            result.insert("instructions".into(), instructions.clone().into());
        }
        self.insert_cache_hints(&mut result);
        Ok(Value::Object(result))
    }

    /// `ttlMs` and `cacheScope`, required on 2026-07-28 list and discover results. The tool
    /// set does not depend on who asks, so any cache may share it.
    fn insert_cache_hints(&self, result: &mut Map<String, Value>) {
        result.insert("ttlMs".into(), self.core.list_ttl_ms.into());
        result.insert("cacheScope".into(), "public".into());
    }

    /// `subscriptions/listen` (2026-07-28): acknowledges the filter (only tool list changes
    /// are offered), then keeps the request open; changes go out on its outbox tagged with
    /// its id, and the request is answered when the connection closes (or the server shuts
    /// down). Cancelling the request stops it like any other.
    fn listen(&mut self, id: &RequestId, params: &Map<String, Value>, related: &Outbox) -> Answer {
        let Some(filter) = params.get("notifications").and_then(Value::as_object) else {
            return Answer::Now(Err(RpcError::invalid_params(
                "Invalid params: `subscriptions/listen` needs `notifications`, the filter of what to receive.",
            )));
        };
        let mut honoured = Map::new();
        // Subscribing now, before the acknowledgement, so no change after it is missed.
        let mut tool_changes = None;
        if filter.get("toolsListChanged") == Some(&Value::Bool(true)) {
            honoured.insert("toolsListChanged".into(), true.into());
            tool_changes = Some(self.core.tools.subscribe());
        }
        let acknowledged = json!({
            "jsonrpc": "2.0",
            "method": "notifications/subscriptions/acknowledged",
            "params": {
                "notifications": honoured,
                "_meta": { meta_key::SUBSCRIPTION_ID: id },
            },
        });
        related.send(&acknowledged);
        let closing = self.closing.clone();
        let subscription = id.clone();
        let related = related.clone();
        Answer::Later {
            result: Box::pin(async move {
                let changed = json!({
                    "jsonrpc": "2.0",
                    "method": "notifications/tools/list_changed",
                    "params": { "_meta": { meta_key::SUBSCRIPTION_ID: subscription } },
                });
                loop {
                    let change = async {
                        match &mut tool_changes {
                            Some(changes) => changes.changed().await.is_ok(),
                            None => std::future::pending().await,
                        }
                    };
                    tokio::select! {
                        () = closing.cancelled() => break,
                        true = change => related.send(&changed),
                    }
                }
                Body::Json(json!({ "_meta": { meta_key::SUBSCRIPTION_ID: subscription } }))
            }),
            request: None,
        }
    }

    fn list_tools(
        &self,
        version: ProtocolVersion,
        params: &Map<String, Value>,
    ) -> Result<Body, RpcError> {
        let cursor = match params.get("cursor") {
            None | Some(Value::Null) => None,
            Some(Value::String(cursor)) => Some(cursor.as_str()),
            Some(_) => {
                return Err(RpcError::invalid_params(
                    "Invalid params: `cursor` must be a string.",
                ));
            }
        };
        let page = Catalog::page(
            self.core.tools.catalog(),
            version,
            cursor,
            self.core.page_size,
        )?;
        let mut members = Map::new();
        if let Some(next) = &page.next_cursor {
            members.insert("nextCursor".into(), next.clone().into());
        }
        if version.is_stateless() {
            self.insert_cache_hints(&mut members);
        }
        Ok(Body::Page { members, page })
    }

    fn call_tool(
        &self,
        era: Era,
        version: ProtocolVersion,
        id: &RequestId,
        params: Params<'_>,
        related: &Outbox,
    ) -> Answer {
        let Params {
            name,
            arguments,
            others: params,
        } = params;
        let name = match name {
            Some(StringMember::Text(name)) => name,
            Some(StringMember::Other(_)) => {
                return Answer::Now(Err(RpcError::invalid_params(
                    "Invalid params: `name` must be a string.",
                )));
            }
            None => {
                return Answer::Now(Err(RpcError::invalid_params(
                    "Invalid params: `tools/call` needs the tool's `name`.",
                )));
            }
        };
        let Some(tool) = self.core.tools.catalog().get(&name).cloned() else {
            return Answer::Now(Err(RpcError::invalid_params(format!(
                "Unknown tool: {name}"
            ))));
        };
        // The catalogue's copy of the name: shared, where the request's may be borrowed.
        let name = tool.shared_name();
        // 2026-07-28: a retry carries the answers to what an earlier attempt asked.
        let round = match era {
            Era::Stateless(_) => match InputRound::from_params(&name, &params) {
                Ok(round) => Some(Arc::new(round)),
                Err(error) => return Answer::Now(Err(error)),
            },
            Era::Handshake(_) | Era::Unknown => None,
        };
        let mut arguments = match arguments {
            None | Some(Value::Null) => Map::new(),
            Some(Value::Object(arguments)) => arguments,
            Some(_) => {
                return Answer::Now(Err(RpcError::invalid_params(
                    "Invalid params: `arguments` must be an object.",
                )));
            }
        };
        let wraps_output = tool.wraps_output();
        tool.drop_null_optionals(&mut arguments);
        let arguments = Value::Object(arguments);
        if let Err(problems) = tool.validate_arguments(&arguments) {
            let result =
                CallToolResult::error(format!("Invalid arguments for tool `{name}`: {problems}"));
            let result = ShapedResult::new(result, version, wraps_output);
            return Answer::Now(Ok(Body::ToolResult(result)));
        }
        let Value::Object(arguments) = arguments else {
            unreachable!("arguments were built as an object")
        };
        let client = match &round {
            Some(round) => ClientLink::Rounds(Arc::clone(round)),
            None => ClientLink::Connection(Arc::clone(&self.client_requests)),
        };
        let info = self.request_info(era, version, id, name.clone(), &params, client);
        let (context, request) = Context::new(info, related.clone());
        let running = if self.core.forward_tracing {
            let current = context.clone();
            client_log_layer::forwarding(
                tool.invoke(arguments, context, Arc::clone(&self.core.states)),
                current,
            )
        } else {
            tool.invoke(arguments, context, Arc::clone(&self.core.states))
        };
        let slots = Arc::clone(&self.core.call_slots);
        let admission = self.core.rate_limits.admission(&tool);
        let tool_slots = tool.slots.clone();
        let timeout = tool
            .policy()
            .timeout_ms
            .map(std::time::Duration::from_millis)
            .or(self.core.call_timeout);
        let finished_request = request.clone();
        let mask_errors = self.core.mask_error_details;
        let result = async move {
            if let Err(refused) = admission.admit(&name).await {
                finished_request.finish();
                return Body::ToolResult(ShapedResult::new(refused, version, wraps_output));
            }
            // Waits, rather than failing, while the tool's own limit or the server-wide one
            // is reached; the tool's first, so a busy tool does not hold server-wide slots.
            let _tool_slot = match tool_slots {
                Some(tool_slots) => Some(tool_slots.acquire_owned().await),
                None => None,
            };
            let _slot = slots.acquire_owned().await;
            let running = UntilInputRequired {
                tool: running,
                round,
            };
            let guarded = AssertUnwindSafe(running).catch_unwind();
            let finished = match timeout {
                Some(limit) => tokio::time::timeout(limit, guarded)
                    .await
                    .map_err(|_| limit),
                None => Ok(guarded.await),
            };
            let result = match finished {
                Ok(Ok(Attempt::Finished(result))) => result,
                Ok(Ok(Attempt::NeedsInput(round))) => {
                    finished_request.finish();
                    return Body::Json(round.input_required_result());
                }
                Ok(Err(panic)) => match panic.downcast::<ToolError>() {
                    // A panic the tool marked public: its message is for the client.
                    Ok(public) => {
                        tracing::warn!(tool = %name, panic = %public, "a tool panicked with a public error");
                        CallToolResult::error(public.message().to_owned())
                    }
                    Err(panic) => {
                        let message = panic_message(panic.as_ref());
                        tracing::error!(tool = %name, panic = %message, "a tool panicked");
                        CallToolResult::error(format!("Tool `{name}` failed: it panicked."))
                    }
                },
                Err(limit) => {
                    finished_request.cancel();
                    tracing::warn!(tool = %name, ?limit, "a tool call timed out");
                    CallToolResult::error(format!(
                        "Tool `{name}` timed out after {} and was stopped.",
                        describe_duration(limit)
                    ))
                }
            };
            let result = if mask_errors && result.private_error {
                let detail: Vec<&str> = result
                    .content
                    .iter()
                    .filter_map(|block| match &block.body {
                        crate::content::ContentBody::Text { text } => Some(text.as_str()),
                        _ => None,
                    })
                    .collect();
                tracing::error!(tool = %name, error = %detail.join(" "), "a tool failed (details masked from the client)");
                CallToolResult::error(format!(
                    "Tool `{name}` failed. The details were logged on the server."
                ))
            } else {
                result
            };
            // Nothing about this request may be sent after its response.
            finished_request.finish();
            Body::ToolResult(ShapedResult::new(result, version, wraps_output))
        };
        Answer::Later {
            result: Box::pin(result),
            request: Some(request),
        }
    }
}

/// How one attempt at a tool call ended.
enum Attempt {
    /// The tool returned.
    Finished(CallToolResult),
    /// 2026-07-28: the tool waits for input the client has not given yet.
    NeedsInput(Arc<InputRound>),
}

/// Runs a tool until it returns or, under 2026-07-28, until it waits for input the client
/// has not given: then this attempt stops, and the call is answered `input_required`.
/// Requests made in the same poll (e.g. two elicitations joined) are all collected.
struct UntilInputRequired {
    tool: ToolFuture,
    round: Option<Arc<InputRound>>,
}

impl Future for UntilInputRequired {
    type Output = Attempt;

    fn poll(mut self: Pin<&mut Self>, cx: &mut std::task::Context<'_>) -> std::task::Poll<Attempt> {
        match self.tool.as_mut().poll(cx) {
            std::task::Poll::Ready(result) => std::task::Poll::Ready(Attempt::Finished(result)),
            std::task::Poll::Pending => match &self.round {
                Some(round) if round.needs_input() => {
                    std::task::Poll::Ready(Attempt::NeedsInput(Arc::clone(round)))
                }
                _ => std::task::Poll::Pending,
            },
        }
    }
}

fn supported_versions() -> Value {
    ProtocolVersion::ALL
        .iter()
        .rev()
        .map(|version| Value::from(version.as_str()))
        .collect()
}

fn server_info_json(core: &ServerCore, version: ProtocolVersion) -> Value {
    let mut info = Map::new();
    info.insert("name".into(), core.info.name.clone().into());
    info.insert("version".into(), core.info.version.clone().into());
    if let (true, Some(title)) = (version.has_structured_output(), &core.info.title) {
        info.insert("title".into(), title.clone().into());
    }
    Value::Object(info)
}

/// Adds what every 2026-07-28 result carries: `resultType` and the server's identity.
fn stateless_result(answer: Answer, core: &Arc<ServerCore>) -> Answer {
    let decorate = {
        let server_info = server_info_json(core, ProtocolVersion::V2026_07_28);
        move |result: Body| match result {
            Body::Json(Value::Object(mut members)) => {
                decorate_members(&mut members, server_info);
                Body::Json(Value::Object(members))
            }
            Body::Page { mut members, page } => {
                decorate_members(&mut members, server_info);
                Body::Page { members, page }
            }
            Body::ToolResult(mut result) => {
                result.set_server_info(meta_key::SERVER_INFO, server_info);
                Body::ToolResult(result)
            }
            other @ Body::Json(_) => other,
        }
    };
    match answer {
        Answer::Now(result) => Answer::Now(result.map(decorate)),
        Answer::Later { result, request } => Answer::Later {
            result: Box::pin(result.map(decorate)),
            request,
        },
    }
}

fn decorate_members(members: &mut Map<String, Value>, server_info: Value) {
    // `input_required` results say so themselves.
    members
        .entry("resultType")
        .or_insert_with(|| "complete".into());
    let meta = members.entry("_meta").or_insert_with(|| json!({}));
    if let Value::Object(meta) = meta {
        meta.insert(meta_key::SERVER_INFO.into(), server_info);
    }
}

/// Wraps an answer in its JSON-RPC envelope.
fn envelope(id: RequestId, answer: Answer, unknown_id: UnknownId) -> Reply {
    match answer {
        Answer::Now(Ok(result)) => Reply::Ready(result.response(&id)),
        Answer::Now(Err(error)) => Reply::Ready(Response::failure(Some(&id), &error, unknown_id)),
        Answer::Later { result, request } => {
            let response = PendingResponse {
                id: id.clone(),
                result,
            };
            Reply::Pending {
                id,
                response,
                request,
            }
        }
    }
}

fn describe_duration(duration: std::time::Duration) -> String {
    let millis = duration.as_millis();
    if millis.is_multiple_of(1000) {
        format!("{} s", millis / 1000)
    } else {
        format!("{millis} ms")
    }
}

fn panic_message(panic: &(dyn std::any::Any + Send)) -> String {
    if let Some(message) = panic.downcast_ref::<&str>() {
        (*message).to_owned()
    } else if let Some(message) = panic.downcast_ref::<String>() {
        message.clone()
    } else {
        "a non-string panic payload".to_owned()
    }
}
