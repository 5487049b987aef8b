//! The MCP endpoint's state and its POSTs, every message a client sends, in both protocol
//! eras; the router and the GET and DELETE of a session are in `routes`.

use std::sync::atomic::AtomicUsize;
use std::sync::{Arc, LazyLock};
use std::time::Duration;

use axum::body::Bytes;
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderName, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::Value;
use tokio_util::sync::CancellationToken;

use super::auth::{AnyPrincipal, RequestHead};
use super::body::read_body;
use super::checks::{
    PROTOCOL_VERSION, check_param_headers, check_stateless_headers, header_text, is_stateless,
};
use super::fleet::{Fleet, FleetEndpoint};
use super::guard::Guard;
use super::limits::{Limits, RETRY_AFTER_SECONDS};
use super::response::{bad_request, error_response, refusal, response_json, response_line};
use super::scopes::scope_refusal;
use super::sessions::{HttpSession, NotOpened, Sessions};
use super::sse::{self, StreamSettings};
use crate::fleet::{FleetStore, StoreError};
use crate::protocol::jsonrpc::{Decoded, JsonInput, Members, RpcError, code};
use crate::protocol::outbox::Outbox;
use crate::protocol::version::ProtocolVersion;
use crate::session::{Outcome, Reply, ServerCore, Session};
use crate::transport::calls::{Calls, Running};

pub(super) const SESSION_ID: HeaderName = HeaderName::from_static("mcp-session-id");

/// Everything the endpoint's handlers share.
pub(crate) struct Endpoint {
    pub(super) core: Arc<ServerCore>,
    pub(super) guard: Guard,
    pub(crate) limits: Limits,
    /// The bytes of the request bodies being read now.
    pub(super) reading: AtomicUsize,
    pub(super) sessions: Sessions,
    running: Running,
    /// How resumable streams behave.
    pub(super) streams: StreamSettings,
    /// Fires when shutdown begins: long-lived streams end, sessions end.
    closing: CancellationToken,
    /// Fires once calls in flight are answered: the listener may stop accepting.
    pub stopping: CancellationToken,
    /// Fires when shutdown is complete.
    pub stopped: CancellationToken,
    /// This instance's membership of a fleet, if it is one.
    pub(super) fleet: Option<Arc<Fleet>>,
}

impl Endpoint {
    pub fn new(
        core: Arc<ServerCore>,
        guard: Guard,
        limits: Limits,
        session_idle_timeout: Duration,
        streams: StreamSettings,
        fleet_store: Option<(Arc<dyn FleetStore>, Arc<str>)>,
    ) -> Self {
        let fleet = fleet_store.map(|(store, instance)| Arc::new(Fleet::new(store, instance)));
        let running = Running::default();
        let closing = CancellationToken::new();
        let sessions = Sessions::new(
            limits,
            session_idle_timeout,
            Arc::clone(&core),
            closing.clone(),
            running.clone(),
            fleet.clone(),
        );
        Endpoint {
            core,
            guard,
            limits,
            reading: AtomicUsize::new(0),
            streams,
            sessions,
            running,
            closing,
            stopping: CancellationToken::new(),
            stopped: CancellationToken::new(),
            fleet,
        }
    }

    /// In a fleet: reaches the store (an error if it cannot), then starts this instance's
    /// heartbeat and its exchange of messages with the other instances.
    pub async fn join_fleet(self: &Arc<Self>) -> Result<(), StoreError> {
        if let Some(fleet) = &self.fleet {
            fleet.check().await?;
        }
        self.start_fleet();
        Ok(())
    }

    /// In a fleet: starts this instance's heartbeat and its exchange of messages with the
    /// other instances, without checking the store first.
    pub fn start_fleet(self: &Arc<Self>) {
        if let Some(fleet) = &self.fleet {
            fleet.start(self);
        }
    }

    /// Graceful shutdown: new connections are refused, listen and session streams end,
    /// calls in flight get `grace` to finish (then they are answered with an error), and
    /// the connections close once their responses are written.
    pub async fn shut_down(&self, grace: Duration) {
        tracing::info!("shutting down: finishing calls in flight");
        self.stopping.cancel();
        self.closing.cancel();
        self.sessions.disconnect_all();
        // Calls and tasks get the grace period side by side.
        futures_util::future::join(self.running.finish(grace), self.core.tasks.shut_down(grace))
            .await;
        self.stopped.cancel();
    }
}

impl FleetEndpoint for Endpoint {
    fn core(&self) -> &Arc<ServerCore> {
        &self.core
    }

    fn sessions(&self) -> &Sessions {
        &self.sessions
    }
}

pub(super) fn accepts_event_stream(headers: &HeaderMap) -> bool {
    // Searchers made once: `str::contains` and `memmem::find` set one up for each pattern
    // on each call, which cost more than the rest of a call's header checks.
    static EVENT_STREAM: LazyLock<[memchr::memmem::Finder<'static>; 2]> = LazyLock::new(|| {
        [
            memchr::memmem::Finder::new("text/event-stream"),
            memchr::memmem::Finder::new("*/*"),
        ]
    });
    headers
        .get_all(header::ACCEPT)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .any(|accept| {
            EVENT_STREAM
                .iter()
                .any(|finder| finder.find(accept.as_bytes()).is_some())
        })
}

/// A POST to the endpoint: its headers past the guard (a stranger's body is not read), its
/// body read under the limits, its messages served.
pub(super) async fn serve_post<B>(
    endpoint: &Endpoint,
    parts: Parts,
    body: B,
    limit: usize,
) -> Response
where
    B: hyper::body::Body<Data = Bytes> + Unpin,
    B::Error: std::fmt::Display,
{
    let head = RequestHead::new(&parts.method, &parts.uri, &parts.headers);
    let principal = match endpoint.guard.admit(head).await {
        Ok(principal) => principal,
        Err(refused) => return *refused,
    };
    let body = match read_body(body, limit, &endpoint.limits, &endpoint.reading).await {
        Ok(body) => body,
        Err(refused) => return refused,
    };
    post_body(endpoint, parts.headers, principal, body).await
}

/// A POST to the endpoint, its headers admitted by the guard and its body read: every
/// message a client sends.
pub(super) async fn post_body(
    endpoint: &Endpoint,
    headers: HeaderMap,
    principal: Option<AnyPrincipal>,
    body: Bytes,
) -> Response {
    // Decoded in one pass, as stdio decodes a line: no `Value` tree, names and a call's
    // arguments borrowed.
    let message = match Decoded::decode(JsonInput::Body(&body)) {
        Ok(message) => message,
        Err(error) => return bad_request(code::PARSE_ERROR, format!("Parse error: {error}.")),
    };
    if is_stateless(&headers, message.single()) {
        post_stateless(endpoint, &headers, message, principal).await
    } else {
        post_handshake(endpoint, &headers, &body, message, principal).await
    }
}

/// 2026-07-28: a request that stands alone, served by a session that lives as long as it.
async fn post_stateless(
    endpoint: &Endpoint,
    headers: &HeaderMap,
    message: Decoded<'_>,
    principal: Option<AnyPrincipal>,
) -> Response {
    if let Err(refused) = check_stateless_headers(headers, &message) {
        return refused;
    }
    if let Err(refused) = check_param_headers(&endpoint.core, headers, message.single()) {
        return refused;
    }
    if let Some(refused) = scope_refusal(
        &endpoint.core,
        &endpoint.guard,
        message.single(),
        principal.as_ref(),
    ) {
        return refused;
    }
    let mut session = Session::new(Arc::clone(&endpoint.core), endpoint.closing.clone());
    session.set_principal(principal);
    #[cfg(feature = "otel")]
    session.traced_http(headers, None);
    let (outbox, queued) = Outbox::channel();
    let outcome = session.handle_decoded(message, &outbox);
    match outcome {
        Outcome::Nothing | Outcome::Cancel(_) => StatusCode::ACCEPTED.into_response(),
        Outcome::Reply(Reply::Ready(response)) => {
            response_json(stateless_status(&response), response)
        }
        Outcome::Reply(reply) => {
            let id = reply_id(&reply);
            let calls = Calls::new(endpoint.running.clone());
            match calls.run_or_spawn(reply, &outbox, session.unknown_id(), true) {
                // Nothing else on its stream: the response goes out alone, as it would
                // once its call's task had sent it, without that task or the stream.
                Some(done) if queued.is_empty() => {
                    let response = done.into_response();
                    // An error found once the call ran (-32021, say) still gets its status.
                    if response.error_code().is_some() {
                        response_json(stateless_status(&response), response)
                    } else {
                        respond_done(headers, response)
                    }
                }
                Some(done) => {
                    // Progress or log messages go before it, on the stream.
                    outbox.send_response(done.into_response());
                    outbox.end();
                    respond_later(headers, queued, StatusCode::OK).await
                }
                None => {
                    if let Some(id) = id {
                        // Closing the stream cancels the request.
                        tokio::spawn(async move {
                            outbox.closed().await;
                            calls.cancel(&id);
                        });
                    }
                    respond_later(headers, queued, StatusCode::OK).await
                }
            }
        }
        Outcome::Batch(_) => bad_request(
            code::INVALID_REQUEST,
            "Invalid request: JSON-RPC batches are not part of protocol revision 2026-07-28.",
        ),
    }
}

/// The HTTP status of a 2026-07-28 response, from its error code.
fn stateless_status(response: &crate::protocol::jsonrpc::Response) -> StatusCode {
    match response.error_code() {
        None => StatusCode::OK,
        Some(code::METHOD_NOT_FOUND) => StatusCode::NOT_FOUND,
        Some(code::INTERNAL_ERROR) => StatusCode::INTERNAL_SERVER_ERROR,
        Some(_) => StatusCode::BAD_REQUEST,
    }
}

/// 2025-03-26 … 2025-11-25: `initialize` opens a session; everything else belongs to one.
async fn post_handshake(
    endpoint: &Endpoint,
    headers: &HeaderMap,
    body: &Bytes,
    message: Decoded<'_>,
    principal: Option<AnyPrincipal>,
) -> Response {
    let members = message.single();
    if members.and_then(Members::method) == Some("initialize") {
        return initialize(endpoint, headers, message, principal.as_ref()).await;
    }
    let (session_id, session) = match find_session(endpoint, headers, principal.as_ref()).await {
        Ok(found) => found,
        Err((status, error)) => return refusal(status, &error, members.and_then(Members::id)),
    };
    if let Some(version) = header_text(headers, PROTOCOL_VERSION)
        && ProtocolVersion::parse(version).is_none_or(ProtocolVersion::is_stateless)
    {
        let error = RpcError::new(
            code::INVALID_REQUEST,
            format!("Invalid request: unsupported MCP-Protocol-Version header `{version}`."),
        );
        return refusal(
            StatusCode::BAD_REQUEST,
            &error,
            members.and_then(Members::id),
        );
    }
    // Authorization once the session is known, so a stranger to it learns nothing more.
    if let Some(refused) =
        scope_refusal(&endpoint.core, &endpoint.guard, members, principal.as_ref())
    {
        return refused;
    }
    let answers_elsewhere = endpoint.fleet.is_some()
        && members.and_then(client_answer_id).is_some_and(|id| {
            let protocol = session.protocol.lock().expect("session poisoned");
            !protocol.awaits_client_answer(id)
        });
    if let (true, Some(fleet)) = (answers_elsewhere, &endpoint.fleet) {
        // The answer to a request another instance's tool sent: it goes there.
        let message = serde_json::from_slice(body).expect("the body decoded as JSON already");
        return match fleet.forward_answer(&session_id, message).await {
            Ok(()) => StatusCode::ACCEPTED.into_response(),
            Err(error) => error_response(StatusCode::SERVICE_UNAVAILABLE, &unavailable(&error)),
        };
    }
    let saves_record = endpoint.fleet.is_some()
        && members
            .and_then(Members::method)
            .is_some_and(Session::changes_record);
    let before = saves_record
        .then(|| endpoint.sessions.record_before(&session))
        .flatten();
    let (outbox, queued) = Outbox::channel();
    let (outcome, unknown_id) = {
        let mut protocol = session.protocol.lock().expect("session poisoned");
        // Each request carries its own credentials; its tools see who sent this one.
        protocol.set_principal(principal);
        #[cfg(feature = "otel")]
        protocol.traced_http(headers, Some(&session_id));
        (
            protocol.handle_decoded(message, &outbox),
            protocol.unknown_id(),
        )
    };
    match outcome {
        Outcome::Nothing => StatusCode::ACCEPTED.into_response(),
        Outcome::Cancel(id) => {
            match &endpoint.fleet {
                // Running on another instance, perhaps.
                Some(fleet) if !session.calls.is_running(&id) => {
                    if let Err(error) = fleet.forward_cancel(&session_id, id).await {
                        tracing::warn!(%error, "a cancellation was not passed on");
                    }
                }
                _ => session.calls.cancel(&id),
            }
            StatusCode::ACCEPTED.into_response()
        }
        Outcome::Reply(Reply::Ready(response)) => {
            if saves_record
                && response.error_code().is_none()
                && let Err(error) = endpoint.sessions.save(&session_id, before, &session).await
            {
                return refusal(
                    StatusCode::SERVICE_UNAVAILABLE,
                    &unavailable(&error),
                    response_value(&response).get("id"),
                );
            }
            let status = if response.error_code().is_some() && !response.has_id() {
                StatusCode::BAD_REQUEST
            } else {
                StatusCode::OK
            };
            response_json(status, response)
        }
        Outcome::Reply(reply) => {
            let record = StreamRecord {
                session_id: &session_id,
                requests: Value::Array(reply_id(&reply).into_iter().collect()),
            };
            let body = match session.calls.run_or_spawn(reply, &outbox, unknown_id, true) {
                // Nothing else on its stream: the stream is made with its response.
                Some(done) if queued.is_empty() => StreamBody::Done(done.into_response()),
                Some(done) => {
                    // Progress or log messages go before it, on the stream.
                    outbox.send_response(done.into_response());
                    outbox.end();
                    StreamBody::Queued(queued)
                }
                None => StreamBody::Queued(queued),
            };
            respond_resumably(endpoint, &session, headers, body, record).await
        }
        Outcome::Batch(replies) => {
            let requests = Value::Array(replies.iter().filter_map(reply_id).collect());
            session.calls.spawn_batch(replies, outbox, unknown_id, true);
            let record = StreamRecord {
                session_id: &session_id,
                requests,
            };
            respond_resumably(
                endpoint,
                &session,
                headers,
                StreamBody::Queued(queued),
                record,
            )
            .await
        }
    }
}

/// Answers `initialize` and, when it succeeds, opens a session under a new id.
#[cfg_attr(not(feature = "otel"), allow(unused_variables))]
async fn initialize(
    endpoint: &Endpoint,
    headers: &HeaderMap,
    message: Decoded<'_>,
    principal: Option<&AnyPrincipal>,
) -> Response {
    let request_id = message.single().and_then(Members::id).cloned();
    let session = endpoint.sessions.create();
    let _ = session.principal.set(identity(endpoint, principal));
    let (outbox, _queued) = Outbox::channel();
    let (outcome, negotiated) = {
        let mut protocol = session.protocol.lock().expect("session poisoned");
        #[cfg(feature = "otel")]
        protocol.traced_http(headers, None);
        let outcome = protocol.handle_decoded(message, &outbox);
        (outcome, protocol.negotiated())
    };
    let response = match outcome {
        Outcome::Reply(Reply::Ready(response)) => response,
        // Sent without an id, `initialize` is a notification: nothing answers it, and no
        // session is opened.
        _ => return StatusCode::ACCEPTED.into_response(),
    };
    if response.error_code().is_some() {
        return response_json(StatusCode::BAD_REQUEST, response);
    }
    if let Some(version) = negotiated {
        let _ = session.negotiated.set(version);
    }
    let id = match endpoint.sessions.register(&session).await {
        Ok(id) => id,
        Err(NotOpened::Store(error)) => {
            return refusal(
                StatusCode::SERVICE_UNAVAILABLE,
                &unavailable(&error),
                request_id.as_ref(),
            );
        }
        Err(NotOpened::Full(why)) => {
            tracing::warn!("an `initialize` was refused: {why}");
            let error = RpcError::new(
                code::INTERNAL_ERROR,
                format!("Server busy: {why}; try again later."),
            );
            let mut refused = refusal(StatusCode::SERVICE_UNAVAILABLE, &error, request_id.as_ref());
            refused
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(RETRY_AFTER_SECONDS));
            return refused;
        }
    };
    let mut answer = response_json(StatusCode::OK, response);
    answer.headers_mut().insert(
        SESSION_ID,
        HeaderValue::from_str(&id).expect("a hex session id is a valid header value"),
    );
    answer
}

/// The identity of a request's principal, by which sessions are bound to it
/// (`Server::task_owner`): `None` without a principal, or without a way to name one.
fn identity(endpoint: &Endpoint, principal: Option<&AnyPrincipal>) -> Option<String> {
    let (principal, identity_of) = (principal?, endpoint.core.task_owner.as_ref()?);
    identity_of(principal.as_ref())
}

/// The session a request names, and its id: 400 without the header, 404 for an unknown
/// (ended or expired) session or one another principal opened, 503 when the fleet's store
/// cannot be reached.
pub(super) async fn find_session(
    endpoint: &Endpoint,
    headers: &HeaderMap,
    principal: Option<&AnyPrincipal>,
) -> Result<(String, Arc<HttpSession>), (StatusCode, RpcError)> {
    let Some(id) = header_text(headers, SESSION_ID) else {
        return Err((
            StatusCode::BAD_REQUEST,
            RpcError::new(
                code::INVALID_REQUEST,
                "Invalid request: the Mcp-Session-Id header is required (send `initialize` first to get one).",
            ),
        ));
    };
    match endpoint.sessions.get(id).await {
        // Another principal's session is, to this one, no session at all.
        Ok(Some(session)) if session.belongs_to(identity(endpoint, principal).as_deref()) => {
            Ok((id.to_owned(), session))
        }
        Ok(_) => Err((
            StatusCode::NOT_FOUND,
            RpcError::new(
                code::INVALID_REQUEST,
                "Invalid request: no such session (it ended or expired); send `initialize` to start a new one.",
            ),
        )),
        Err(error) => Err((StatusCode::SERVICE_UNAVAILABLE, unavailable(&error))),
    }
}

/// The error of a request that needed the fleet's store while it cannot be reached.
pub(super) fn unavailable(error: &StoreError) -> RpcError {
    tracing::warn!(%error, "a request needed the fleet's store");
    RpcError::new(
        code::INTERNAL_ERROR,
        // What failed, and where, is for the server's log, not for clients.
        "Internal error: the session store is unavailable; try again later.",
    )
}

/// The id of a client's answer to a request (a response: an id, and a result or error).
fn client_answer_id<'a>(message: &'a Members<'_>) -> Option<&'a Value> {
    message.is_answer().then(|| message.id()).flatten()
}

/// The id of the request a reply answers.
fn reply_id(reply: &Reply) -> Option<Value> {
    match reply {
        Reply::Pending { id, .. } => Some(id.clone()),
        Reply::Ready(_) => None,
    }
}

fn response_value(response: &crate::protocol::jsonrpc::Response) -> Value {
    serde_json::from_slice(response.json()).unwrap_or(Value::Null)
}

/// What a fleet records of a response stream, so that another instance can resume it: the
/// session, and the requests the stream answers.
struct StreamRecord<'a> {
    session_id: &'a str,
    requests: Value,
}

/// The response to a 2026-07-28 call done when first polled, with nothing else on its
/// stream: what [`respond_later`] sends once the call's outbox has carried the response
/// alone.
fn respond_done(headers: &HeaderMap, response: crate::protocol::jsonrpc::Response) -> Response {
    if accepts_event_stream(headers) {
        sse::only_event(&response)
    } else {
        response_line(StatusCode::OK, response)
    }
}

/// What a handshake-era response stream carries.
enum StreamBody {
    /// The response of a call done when first polled, alone.
    Done(crate::protocol::jsonrpc::Response),
    /// The messages its outbox carries, up to its end.
    Queued(tokio::sync::mpsc::UnboundedReceiver<Vec<u8>>),
}

/// The response to a request answered later: its SSE stream, or, for a client that does
/// not accept SSE, the response alone as JSON once it is ready.
async fn respond_later(
    headers: &HeaderMap,
    queued: tokio::sync::mpsc::UnboundedReceiver<Vec<u8>>,
    status: StatusCode,
) -> Response {
    if accepts_event_stream(headers) {
        return sse::response(queued, None).await;
    }
    match sse::last_message(queued).await {
        Some(line) => {
            let mut response = (status, line).into_response();
            response.headers_mut().insert(
                header::CONTENT_TYPE,
                HeaderValue::from_static("application/json"),
            );
            response
        }
        None => StatusCode::ACCEPTED.into_response(),
    }
}

/// The response stream of a handshake-era request: resumable (event ids, a replay buffer,
/// `GET` + `Last-Event-ID`), primed and subject to SSE polling from 2025-11-25. A client
/// that does not accept SSE gets the response alone as JSON.
async fn respond_resumably(
    endpoint: &Endpoint,
    session: &HttpSession,
    headers: &HeaderMap,
    body: StreamBody,
    record: StreamRecord<'_>,
) -> Response {
    if !accepts_event_stream(headers) {
        return match body {
            StreamBody::Done(response) => response_line(StatusCode::OK, response),
            StreamBody::Queued(queued) => respond_later(headers, queued, StatusCode::OK).await,
        };
    }
    let replay = session.new_stream();
    if let Some(fleet) = &endpoint.fleet {
        let retain = endpoint.sessions.idle_timeout();
        fleet.mirror(&replay, record.session_id, record.requests, retain);
    }
    let polls = session.polls();
    if polls {
        // The priming event: an id to resume from before anything else is sent.
        replay.push_priming();
    }
    let settings = endpoint.streams;
    match body {
        StreamBody::Done(response) => {
            replay.push_response(&sse::utf8_text(response.json()));
            replay.end();
            return replay.respond_finished(polls.then_some(settings.retry));
        }
        StreamBody::Queued(queued) => {
            replay.pump(queued);
            // A call answered soon goes out in one write with its headers (and priming
            // event).
            replay.wait_for_events(u64::from(polls)).await;
        }
    }
    replay.respond(
        None,
        Some(session.ended.clone()),
        settings.polling.filter(|_| polls),
        polls.then_some(settings.retry),
    )
}
