//! The protocol state of one connection, and how each message is answered.
//!
//! A connection speaks one of two eras per request. A request whose `params._meta` names a
//! protocol version is served statelessly under that (2026-07-28) revision, whatever came
//! before. Any other request is served under the revision negotiated by `initialize`. Both
//! can happen on one connection, as the 2026-07-28 spec allows for dual-era servers.
//!
//! The dispatcher is this file: a message is decoded, classified and routed by method. The
//! methods live beside it, one concern a file: `tools` (`tools/list`, `tools/call` up to a
//! valid call), `call` (the call pipeline: admit, run guarded, mask, shape), `resources`
//! (`resources/*`), `prompts` (`prompts/*`), `skills` (`skills/*` and
//! `resources/directory/read`, 2026-07-28), `capabilities` (what `initialize` and
//! `server/discover` declare), `completion` (`completion/complete`), `served`
//! (reads, renders and completions under the guards calls have), `tasks` (calls run as
//! tasks, and `tasks/*`), `admission` (rate limits),
//! `stateless` (what only 2026-07-28 has), `core` (what every connection of a server shares)
//! `reply` (the answers handed to the transport), `body` (a result before its envelope) and
//! `request_log` (each request's `debug` line).
//!
//! The method files add methods to [`Session`] (`impl Session`), so they name this file and
//! the dispatcher calls them: one type split over files by concern, and an import circle
//! that `bash scripts/import-circles.sh` lists with the crate's others.

mod admission;
mod body;
mod bounds;
mod call;
mod capabilities;
mod completion;
mod core;
mod params;
mod prompts;
mod reply;
mod request_log;
mod resources;
mod served;
#[cfg(feature = "http")]
mod shared;
mod skills;
mod stateless;
mod tasks;
#[cfg(feature = "otel")]
mod telemetry;
mod tools;

use std::borrow::Cow;
use std::collections::HashSet;
use std::sync::{Arc, OnceLock};

use serde_json::{Map, Value, json};
use tokio_util::sync::CancellationToken;

use crate::access::AnyPrincipal;
use crate::changes::Change;
use crate::context::client_requests::{InputRound, PendingClientRequests};
use crate::context::{
    Caller, CallerInfo, ClientLink, LogFilter, LogLevel, RequestInfo, SessionLogLevel,
};
use crate::protocol::client_info::ClientInfo;
use crate::protocol::cursor;
use crate::protocol::jsonrpc::{
    Decoded, Incoming, JsonInput, Message, Params, RequestId, Response, RpcError, UnknownId, code,
};
use crate::protocol::meta::{self, RequestMeta};
use crate::protocol::outbox::Outbox;
use crate::protocol::version::ProtocolVersion;
use crate::registry::Entry;
use crate::task::TaskOwner;
use crate::tool::set::SeenCatalog;
pub(crate) use admission::RateLimits;
use bounds::{
    MAX_BATCH_LENGTH, MAX_CLIENT_CAPABILITIES_SIZE, MAX_CLIENT_INFO_SIZE,
    MAX_PROGRESS_TOKEN_LENGTH, json_size,
};
pub(crate) use call::ServerSlots;
pub(crate) use core::{ServerCore, ServerInfo};
use core::{server_info_json, supported_versions};
use reply::{Answer, envelope};
pub(crate) use reply::{Done, Outcome, PendingResponse, Reply};

/// The revision a request is served under.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Era {
    /// Negotiated by `initialize`.
    Handshake(ProtocolVersion),
    /// Named in the request's `_meta` (stateless).
    Stateless(ProtocolVersion),
    /// Neither: the client has not initialized and named no version.
    Unknown,
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
    client_info: Option<Arc<ClientInfo>>,
    client_capabilities: Arc<Value>,
    /// Made when first needed (`logging/setLevel`, a handshake-era request): a 2026-07-28
    /// request's session, which lives as long as that request, never needs it.
    log_level: OnceLock<SessionLogLevel>,
    /// Requests this connection's tools sent to the client, waiting for answers; made when
    /// first needed, as `log_level`.
    client_requests: OnceLock<Arc<PendingClientRequests>>,
    /// Fires when the connection's input ends (or the server shuts down): listen streams
    /// then end with a result.
    closing: CancellationToken,
    /// Who sends the message being handled, as HTTP authentication verified it; over
    /// stdio and in process, the server's local principal (`Server::local_principal`).
    principal: Option<AnyPrincipal>,
    /// The resource URIs this handshake-era client subscribed to (`resources/subscribe`).
    subscriptions: HashSet<String>,
    /// Where messages unrelated to a request in flight go — a task's, once its request has
    /// been answered: the connection (stdio), the session's standalone stream (HTTP).
    background: Option<Outbox>,
    /// Who owns the tasks this connection or session makes (a handshake-era client):
    /// minted by the first task, so a 2026-07-28 request's session draws no random id.
    task_owner: OnceLock<TaskOwner>,
    /// What handshake-era requests' contexts say about who calls (`caller`): made when
    /// first needed, made again when `client_info`, `client_capabilities` or `principal`
    /// change.
    caller: OnceLock<Arc<CallerInfo>>,
    /// The tools a stdio connection's messages were decoded by last (`ToolSet::seen`).
    tools_seen: Option<SeenCatalog>,
    /// What its requests' spans say about it, and how long it has lived.
    #[cfg(feature = "otel")]
    telemetry: crate::telemetry::Connection,
}

impl Session {
    pub fn new(core: Arc<ServerCore>, closing: CancellationToken) -> Self {
        Session {
            client_requests: OnceLock::new(),
            closing,
            principal: core.access.local_principal.clone(),
            negotiated: None,
            client_info: None,
            client_capabilities: Arc::clone(&core.no_capabilities),
            core,
            log_level: OnceLock::new(),
            subscriptions: HashSet::new(),
            background: None,
            task_owner: OnceLock::new(),
            caller: OnceLock::new(),
            tools_seen: None,
            #[cfg(feature = "otel")]
            telemetry: crate::telemetry::Connection::new(),
        }
    }

    /// Sets where messages unrelated to a request in flight go.
    pub fn set_background(&mut self, outbox: Outbox) {
        self.background = Some(outbox);
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

    /// The notification that tells this handshake-era client of `change`, if it is to be
    /// told: an update of a resource it subscribed to, a list change the server announces.
    /// (2026-07-28 listen streams filter changes themselves.)
    pub fn change_notification(&self, change: &Change) -> Option<Value> {
        self.negotiated?;
        let announced = self.core.notifier.announces_list_changes();
        match change {
            Change::ResourceUpdated(uri) => self.subscriptions.contains(&**uri).then(|| {
                json!({
                    "jsonrpc": "2.0",
                    "method": "notifications/resources/updated",
                    "params": { "uri": &**uri },
                })
            }),
            Change::ResourceListChanged => (announced && self.offers_resources()).then(
                || json!({ "jsonrpc": "2.0", "method": "notifications/resources/list_changed" }),
            ),
            Change::PromptListChanged => (announced && self.offers_prompts()).then(
                || json!({ "jsonrpc": "2.0", "method": "notifications/prompts/list_changed" }),
            ),
        }
    }

    /// The client is gone for good (its HTTP session ended): the tasks it made, which only
    /// it could reach, are cancelled. Tasks owned by a principal outlive the session.
    #[cfg(feature = "http")]
    pub fn end_tasks(&self) {
        if let (true, Some(owner)) = (self.offers_tasks(), self.task_owner.get()) {
            self.core.tasks.cancel_all_of(owner.clone());
        }
    }

    /// Ends the waits of tools for client answers that can no longer come.
    pub fn disconnect_client_requests(&self) {
        // Made if it was not, so that a request handled after this is refused at once too.
        self.client_requests().disconnect();
    }

    /// Requests this connection's tools sent to the client, waiting for answers.
    fn client_requests(&self) -> &Arc<PendingClientRequests> {
        self.client_requests
            .get_or_init(|| Arc::new(PendingClientRequests::new(self.core.client_request_timeout)))
    }

    /// The level `logging/setLevel` set (a handshake-era session's log filter).
    fn log_level(&self) -> &SessionLogLevel {
        self.log_level.get_or_init(SessionLogLevel::default)
    }

    /// Sets who sends the messages handled next (HTTP authentication); their tools see it.
    #[cfg(feature = "http")]
    pub fn set_principal(&mut self, principal: Option<AnyPrincipal>) {
        let same = match (&self.principal, &principal) {
            (Some(held), Some(new)) => Arc::ptr_eq(held, new),
            (held, new) => held.is_none() && new.is_none(),
        };
        self.principal = principal;
        if !same {
            self.caller_changed();
        }
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
    #[inline]
    pub fn handle_line(&mut self, line: &str, related: &Outbox) -> Outcome {
        match Decoded::decode(JsonInput::Line(line)) {
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

    /// Handles one message already parsed into a `Value` (a client's answer that another
    /// instance of a fleet received) or, where the revision allows, a batch.
    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    pub fn handle_json(&mut self, message: Value, related: &Outbox) -> Outcome {
        self.handle_decoded(Decoded::from_value(message), related)
    }

    /// Handles one message or batch decoded in one pass (an HTTP body, borrowed from it).
    pub fn handle_decoded(&mut self, decoded: Decoded<'_>, related: &Outbox) -> Outcome {
        match decoded {
            Decoded::Batch(messages) => self.handle_batch(messages, related),
            Decoded::Message(message) => self.handle_message(message, false, related),
        }
    }

    fn handle_batch(&mut self, messages: Vec<Message<'_>>, related: &Outbox) -> Outcome {
        let batches_allowed = self.negotiated.is_some_and(ProtocolVersion::allows_batches);
        if !batches_allowed || messages.is_empty() || messages.len() > MAX_BATCH_LENGTH {
            let reason = if messages.is_empty() {
                "Invalid request: an empty batch.".to_owned()
            } else if batches_allowed {
                format!(
                    "Invalid request: a batch of {} messages; at most {MAX_BATCH_LENGTH} are accepted in one.",
                    messages.len()
                )
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
                #[cfg(feature = "otel")]
                let traced = self.trace_request(&id, &method, &params);
                let arrival = request_log::arrival(&id, &method, &params);
                let answer = self.handle_request(&id, &method, params, in_batch, related);
                let answer = request_log::logged(arrival, answer);
                #[cfg(feature = "otel")]
                let answer = self.traced_answer(traced, answer);
                Outcome::Reply(envelope(id, answer, self.unknown_id()))
            }
            Incoming::Notification { method, params } => {
                self.handle_notification(&method, params.into_map())
            }
            Incoming::Response { id, outcome } => {
                if !self.client_requests().resolve(&id, outcome) {
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
        // An `initialize` whose `_meta` names 2026-07-28 belongs to that revision, which has
        // no handshake: it is answered below as the removed method it is there.
        if method == "initialize" && !matches!(self.era(params.meta()), Ok(Era::Stateless(_))) {
            if in_batch {
                return Answer::Ready(Err(RpcError::new(
                    code::INVALID_REQUEST,
                    "Invalid request: `initialize` must not be part of a batch.",
                )));
            }
            return self.initialize(&params.into_map()).into();
        }
        let era = match self.era(params.meta()) {
            Ok(era) => era,
            Err(error) => return Answer::Ready(Err(error)),
        };
        let answer = match (era, method) {
            (Era::Stateless(_), "server/discover") => self.discover().into(),
            (Era::Stateless(_), "subscriptions/listen") => {
                let (meta, params) = params.split_meta();
                self.listen(era, id, &params, meta.as_ref(), related)
            }
            (Era::Handshake(_) | Era::Unknown, "ping") => Ok(json!({})).into(),
            (
                Era::Stateless(version),
                "initialize" | "ping" | "logging/setLevel" | "notifications/initialized",
            ) => Answer::Ready(Err(RpcError::new(
                code::METHOD_NOT_FOUND,
                format!("Method not found: `{method}` is not part of protocol revision {version}."),
            ))),
            // A list reads only its cursor: `_meta` (a 2026-07-28 request's client identity
            // and capabilities) is dropped as decoded, not rebuilt into the map.
            (Era::Handshake(version) | Era::Stateless(version), "tools/list") => {
                Answer::Ready(self.list_tools(version, &params.split_meta().1))
            }
            (Era::Handshake(version) | Era::Stateless(version), "tools/call") => {
                self.call_tool(era, version, id, params, related)
            }
            (Era::Handshake(version) | Era::Stateless(version), "resources/list")
                if self.offers_resources() =>
            {
                self.list_resources(version, &params.split_meta().1).into()
            }
            (Era::Handshake(version) | Era::Stateless(version), "resources/templates/list")
                if self.offers_resources() =>
            {
                self.list_resource_templates(version, &params.split_meta().1)
                    .into()
            }
            (Era::Handshake(version) | Era::Stateless(version), "resources/read")
                if self.offers_resources() =>
            {
                let (meta, params) = params.split_meta();
                self.read_resource(era, version, id, params, meta, related)
            }
            (Era::Handshake(version), "resources/subscribe") if self.offers_resources() => {
                self.subscribe(version, &params.into_map(), true).into()
            }
            (Era::Handshake(version), "resources/unsubscribe") if self.offers_resources() => {
                self.subscribe(version, &params.into_map(), false).into()
            }
            (Era::Handshake(version) | Era::Stateless(version), "prompts/list")
                if self.offers_prompts() =>
            {
                self.list_prompts(version, &params.split_meta().1).into()
            }
            (Era::Handshake(version) | Era::Stateless(version), "prompts/get")
                if self.offers_prompts() =>
            {
                let (meta, params) = params.split_meta();
                self.get_prompt(era, version, id, params, meta, related)
            }
            (Era::Handshake(version) | Era::Stateless(version), "completion/complete")
                if self.offers_completions() =>
            {
                let (meta, params) = params.split_meta();
                self.complete(era, version, id, params, meta, related)
            }
            (
                Era::Handshake(version),
                "tasks/get" | "tasks/result" | "tasks/list" | "tasks/cancel",
            ) if version.has_task_support_listing() && self.offers_tasks() => {
                self.task_method(era, version, method, params.into_map(), related)
            }
            (Era::Stateless(version), "tasks/get" | "tasks/update" | "tasks/cancel")
                if self.offers_tasks() =>
            {
                match Self::require_tasks_extension(method, params.meta()) {
                    Ok(()) => self.task_method(era, version, method, params.into_map(), related),
                    Err(error) => Answer::Ready(Err(error)),
                }
            }
            (
                Era::Stateless(version),
                "skills/list" | "skills/get" | "resources/directory/read",
            ) if self.offers_skills() => self
                .skill_method(version, method, &params.split_meta().1)
                .into(),
            (Era::Handshake(_), "logging/setLevel") => {
                self.set_log_level(&params.into_map()).into()
            }
            (
                Era::Unknown,
                "server/discover"
                | "tools/list"
                | "tools/call"
                | "resources/list"
                | "resources/templates/list"
                | "resources/read"
                | "resources/subscribe"
                | "resources/unsubscribe"
                | "prompts/list"
                | "prompts/get"
                | "completion/complete",
            )
            | (Era::Handshake(_), "server/discover") => {
                Answer::Ready(Err(RpcError::invalid_params(format!(
                    "Invalid params: `{method}` needs a protocol version: send `initialize` first, \
                     or name the version in params._meta[\"{}\"] (2026-07-28).",
                    meta::PROTOCOL_VERSION
                ))))
            }
            _ => Answer::Ready(Err(RpcError::method_not_found(method))),
        };
        match era {
            Era::Stateless(_) => self.stateless_result(answer),
            Era::Handshake(_) | Era::Unknown => answer,
        }
    }

    /// Which revision serves this request.
    fn era(&self, meta: Option<&RequestMeta>) -> Result<Era, RpcError> {
        let Some(requested) = meta.and_then(|meta| meta.get(meta::PROTOCOL_VERSION)) else {
            return Ok(self.negotiated.map_or(Era::Unknown, Era::Handshake));
        };
        let Some(requested) = requested.as_str() else {
            return Err(RpcError::invalid_params(format!(
                "Invalid params: _meta[\"{}\"] must be a string.",
                meta::PROTOCOL_VERSION
            )));
        };
        match ProtocolVersion::parse(requested) {
            Some(version) if version.is_stateless() => {
                let capabilities = meta.and_then(|meta| meta.get(meta::CLIENT_CAPABILITIES));
                if !capabilities.is_some_and(Value::is_object) {
                    return Err(RpcError::invalid_params(format!(
                        "Invalid params: _meta[\"{}\"] is required (an object; {{}} declares no capabilities).",
                        meta::CLIENT_CAPABILITIES
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
        for (member, limit) in [
            ("clientInfo", MAX_CLIENT_INFO_SIZE),
            ("capabilities", MAX_CLIENT_CAPABILITIES_SIZE),
        ] {
            let size = params.get(member).map_or(0, json_size);
            if size > limit {
                return Err(RpcError::invalid_params(format!(
                    "Invalid params: `{member}` takes {size} bytes of JSON; at most {limit} are accepted."
                )));
            }
        }
        let version = ProtocolVersion::parse(requested)
            .filter(|version| !version.is_stateless())
            .unwrap_or(ProtocolVersion::LATEST_HANDSHAKE);
        self.negotiated = Some(version);
        // Kept as text until a tool reads it: a fraction of the memory of its `Value`.
        self.client_info = params
            .get("clientInfo")
            .and_then(|info| serde_json::to_vec(info).ok())
            .map(|text| Arc::new(ClientInfo::text(text)));
        self.client_capabilities = Arc::new(
            params
                .get("capabilities")
                .cloned()
                .unwrap_or_else(|| json!({})),
        );
        self.caller_changed();
        let mut result = Map::new();
        result.insert("protocolVersion".into(), version.as_str().into());
        result.insert("capabilities".into(), self.capabilities(version));
        result.insert("serverInfo".into(), self.server_info(version));
        if let Some(instructions) = &self.core.instructions {
            result.insert("instructions".into(), instructions.clone().into());
        }
        Ok(Value::Object(result))
    }

    fn set_log_level(&self, params: &Map<String, Value>) -> Result<Value, RpcError> {
        match params
            .get("level")
            .and_then(Value::as_str)
            .and_then(LogLevel::parse)
        {
            Some(level) => {
                self.log_level().set(level);
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

    /// One page of a list of resources, templates or prompts (`member` of the result; `list`
    /// names it in cursors), shaped for `version`.
    fn list_page<E: Entry>(
        &self,
        version: ProtocolVersion,
        params: &Map<String, Value>,
        member: &str,
        list: &str,
        entries: &[Arc<E>],
    ) -> Result<Value, RpcError> {
        let keys = entries.iter().map(|entry| entry.key());
        let (range, next) = cursor::page(
            list,
            keys,
            cursor::from_params(params)?,
            self.core.page_size,
        )?;
        // The scopes the caller holds, when entries it may not use are left out.
        let permitted = (self.core.access.hide_forbidden_tools
            && entries.iter().any(|entry| entry.scopes().next().is_some()))
        .then(|| self.core.access.granted(self.principal.as_ref()));
        let listed: Vec<Value> = entries[range]
            .iter()
            .filter(|entry| match &permitted {
                Some(granted) => entry
                    .scopes()
                    .all(|scope| granted.iter().any(|held| held == scope)),
                None => true,
            })
            .map(|entry| entry.listing(version))
            .collect();
        let mut result = Map::new();
        result.insert(member.into(), listed.into());
        if let Some(next) = next {
            result.insert("nextCursor".into(), next.into());
        }
        if version.is_stateless() {
            self.insert_cache_hints(&mut result);
        }
        Ok(Value::Object(result))
    }

    /// 2026-07-28: the input round a request answers (a retry carries the answers to what an
    /// earlier attempt asked).
    fn input_round(
        &self,
        era: Era,
        name: Cow<'static, str>,
        params: &Map<String, Value>,
    ) -> Result<Option<Arc<InputRound>>, RpcError> {
        match era {
            Era::Stateless(_) => Ok(Some(Arc::new(InputRound::from_params(name, params)?))),
            Era::Handshake(_) | Era::Unknown => Ok(None),
        }
    }

    /// The link a request's `Context` asks the client through: its input round
    /// (2026-07-28), or in the handshake era the connection.
    fn client_link(&self, round: &Option<Arc<InputRound>>) -> ClientLink {
        match round {
            Some(round) => ClientLink::Rounds(Arc::clone(round)),
            None => ClientLink::Connection,
        }
    }

    /// Everything a tool's `Context` knows about this request.
    fn request_info(
        &self,
        era: Era,
        version: ProtocolVersion,
        id: &RequestId,
        tool: Cow<'static, str>,
        mut meta: Option<&mut RequestMeta>,
        client: ClientLink,
    ) -> RequestInfo {
        // Taken out of `_meta`, not copied: nothing reads them there after this, and a
        // 2026-07-28 request's client info and capabilities are objects copied per request
        // otherwise.
        let client_info = match era {
            Era::Stateless(_) => meta.as_mut().and_then(|meta| meta.take_client_info()),
            Era::Handshake(_) | Era::Unknown => None,
        };
        let mut from_meta = |key: &str| meta.as_mut().and_then(|meta| meta.remove(key));
        let caller = match era {
            Era::Stateless(_) => {
                let level = from_meta(meta::LOG_LEVEL);
                let level = level
                    .as_ref()
                    .and_then(Value::as_str)
                    .and_then(LogLevel::parse);
                Caller::Own(CallerInfo {
                    client_info: client_info.map(Arc::new),
                    client_capabilities: match from_meta(meta::CLIENT_CAPABILITIES) {
                        Some(Value::Object(declared)) if !declared.is_empty() => {
                            Arc::new(Value::Object(declared))
                        }
                        // `{}` (checked by `era`): shared, not made per request.
                        _ => Arc::clone(&self.core.no_capabilities),
                    },
                    log_filter: level.map_or(LogFilter::Silent, LogFilter::Request),
                    principal: self.principal.clone(),
                    connection: None,
                })
            }
            Era::Handshake(_) | Era::Unknown => Caller::Shared(Arc::clone(self.caller())),
        };
        // Every progress notification repeats the token: a long one is not echoed.
        let progress_token = from_meta(meta::PROGRESS_TOKEN).filter(|token| match token {
            Value::String(text) => text.len() <= MAX_PROGRESS_TOKEN_LENGTH,
            _ => token.is_i64() || token.is_u64(),
        });
        RequestInfo {
            request_id: id.clone(),
            tool,
            protocol_version: version,
            caller,
            progress_token,
            client,
            forward_tracing: self.core.forward_tracing,
        }
    }

    /// What a handshake-era request's context says about its caller: made once, and again
    /// after [`caller_changed`](Self::caller_changed).
    fn caller(&self) -> &Arc<CallerInfo> {
        self.caller.get_or_init(|| {
            Arc::new(CallerInfo {
                client_info: self.client_info.clone(),
                client_capabilities: Arc::clone(&self.client_capabilities),
                log_filter: LogFilter::Session(self.log_level().clone()),
                principal: self.principal.clone(),
                connection: Some(Arc::clone(self.client_requests())),
            })
        })
    }

    /// The client's description, its capabilities or its principal changed: requests from
    /// now on see the new ones (those already running keep what they were given).
    fn caller_changed(&mut self) {
        self.caller = OnceLock::new();
    }

    fn server_info(&self, version: ProtocolVersion) -> Value {
        server_info_json(&self.core, version)
    }
}
