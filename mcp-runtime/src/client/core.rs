//! The connection itself: the in-memory pipe to the server, sending requests and routing
//! what comes back, for the requests of `primitives` and `tasks` to build on.

use std::collections::HashMap;
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, Mutex};

use serde_json::{Map, Value, json};
use tokio::io::{
    AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader, DuplexStream, ReadHalf,
    WriteHalf,
};
use tokio::sync::{mpsc, oneshot, watch};

use super::results::{Notification, Progress, ResponseError, Tool, ToolResult};
use crate::protocol::meta;
use crate::protocol::version::ProtocolVersion;

/// Bytes the in-memory pipe buffers in each direction.
const PIPE_CAPACITY: usize = 64 * 1024;

type HandlerFuture = Pin<Box<dyn Future<Output = Result<Value, ResponseError>> + Send>>;

/// Answers one kind of request from the server.
pub(crate) type Handler = Arc<dyn Fn(Value) -> HandlerFuture + Send + Sync>;

/// Wraps an async closure as a [`Handler`].
pub(crate) fn handler<F, Fut>(handler: F) -> Handler
where
    F: Fn(Value) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<Value, ResponseError>> + Send + 'static,
{
    Arc::new(move |params| Box::pin(handler(params)))
}

/// Sees every message the server sends, before it is routed.
pub(crate) type Observer = Arc<dyn Fn(&Value) + Send + Sync>;

/// How the client introduces itself.
#[derive(Clone)]
pub(crate) struct Introduction {
    pub revision: ProtocolVersion,
    pub capabilities: Value,
    pub client_info: Value,
}

/// How far the in-process server got.
#[derive(Debug)]
enum ServerState {
    Running,
    /// Stopped, with its error if it failed.
    Stopped(Option<String>),
}

/// What the reader task routes incoming messages to.
#[derive(Default)]
pub(super) struct Routes {
    /// Requests waiting for their response, by the JSON text of their id.
    pub(super) pending: HashMap<String, oneshot::Sender<Value>>,
    /// Progress tokens whose notifications go to one call.
    progress: HashMap<String, mpsc::UnboundedSender<Progress>>,
    handlers: HashMap<String, Handler>,
    /// `subscriptions/listen` requests waiting for their acknowledgement, by the JSON text
    /// of their id.
    pub(super) acknowledgements: HashMap<String, oneshot::Sender<Value>>,
    /// The open `subscriptions/listen` request (its id) of each resource URI subscribed to
    /// under 2026-07-28.
    pub(super) listens: HashMap<String, Value>,
    /// Set once the server's output ended; later requests fail at once.
    closed: bool,
}

/// A connection from an in-process client to a server.
pub(crate) struct ClientCore {
    /// The only strong handle on the pipe to the server: dropping it closes the pipe.
    outbox: mpsc::UnboundedSender<Vec<u8>>,
    pub(super) requester: Requester,
    notifications: tokio::sync::Mutex<mpsc::UnboundedReceiver<Notification>>,
    server: Option<tokio::task::JoinHandle<()>>,
    initialized: Option<Value>,
}

/// What sending a request takes, cheap to clone into the future of a call that needs
/// further requests (a 2026-07-28 call answered with `input_required` is sent again).
#[derive(Clone)]
pub(super) struct Requester {
    pub(super) introduction: Arc<Introduction>,
    /// Weak, so that a pending call does not keep the pipe open after the client closed.
    outbox: mpsc::WeakUnboundedSender<Vec<u8>>,
    routes: Arc<Mutex<Routes>>,
    next_id: Arc<AtomicI64>,
    /// Whether the in-process server stopped, and with which error.
    server_state: watch::Receiver<ServerState>,
}

/// How many `input_required` rounds one call may take before the client gives up.
pub(super) const MAX_INPUT_ROUNDS: usize = 16;

impl ClientCore {
    /// Starts a server on an in-memory pipe — `serve` serves it on the pipe's server end —
    /// and introduces the client: `initialize` (then `notifications/initialized`) for a
    /// handshake revision, nothing for the stateless one. Taking the server as a function
    /// keeps this client independent of the server's builder.
    pub async fn connect<Serve, Served, ServeError>(
        serve: Serve,
        introduction: Introduction,
        handlers: HashMap<String, Handler>,
        observer: Option<Observer>,
    ) -> Result<Self, ResponseError>
    where
        Serve: FnOnce(ReadHalf<DuplexStream>, WriteHalf<DuplexStream>) -> Served,
        Served: Future<Output = Result<(), ServeError>> + Send + 'static,
        ServeError: fmt::Display,
    {
        let (client_end, server_end) = tokio::io::duplex(PIPE_CAPACITY);
        let (server_input, server_output) = tokio::io::split(server_end);
        let (stopped, server_state) = watch::channel(ServerState::Running);
        let served = serve(server_input, server_output);
        let server = tokio::spawn(async move {
            let result = served.await;
            stopped.send_replace(ServerState::Stopped(
                result.err().map(|error| error.to_string()),
            ));
        });
        let (input, output) = tokio::io::split(client_end);
        let mut client = ClientCore::over(input, output, introduction, handlers, observer);
        client.requester.server_state = server_state;
        client.server = Some(server);
        client.introduce().await?;
        Ok(client)
    }

    /// A client speaking over any byte streams (the server's output, the server's input).
    pub fn over<R, W>(
        input: R,
        output: W,
        introduction: Introduction,
        handlers: HashMap<String, Handler>,
        observer: Option<Observer>,
    ) -> Self
    where
        R: AsyncRead + Unpin + Send + 'static,
        W: AsyncWrite + Unpin + Send + 'static,
    {
        let routes = Arc::new(Mutex::new(Routes {
            handlers,
            ..Routes::default()
        }));
        let (outbox, queued) = mpsc::unbounded_channel();
        let (notify, notifications) = mpsc::unbounded_channel();
        tokio::spawn(write_lines(output, queued));
        // The reader holds the outbox weakly: closing the client must close the pipe.
        tokio::spawn(read_messages(
            input,
            routes.clone(),
            outbox.downgrade(),
            notify,
            observer,
        ));
        let requester = Requester {
            introduction: Arc::new(introduction),
            outbox: outbox.downgrade(),
            routes,
            next_id: Arc::new(AtomicI64::new(1)),
            // No server of ours to wait for.
            server_state: watch::channel(ServerState::Stopped(None)).1,
        };
        ClientCore {
            outbox,
            requester,
            notifications: tokio::sync::Mutex::new(notifications),
            server: None,
            initialized: None,
        }
    }

    async fn introduce(&mut self) -> Result<(), ResponseError> {
        let introduction = self.requester.introduction.clone();
        if introduction.revision.is_stateless() {
            return Ok(());
        }
        let result = self
            .request(
                "initialize",
                json!({
                    "protocolVersion": introduction.revision.as_str(),
                    "capabilities": introduction.capabilities,
                    "clientInfo": introduction.client_info,
                }),
            )
            .await?;
        self.notify("notifications/initialized", json!({}));
        self.initialized = Some(result);
        Ok(())
    }

    /// The revision this client speaks.
    pub fn revision(&self) -> ProtocolVersion {
        self.requester.introduction.revision
    }

    /// The server's answer to `initialize` (`None` for the stateless revision).
    pub fn initialize_result(&self) -> Option<&Value> {
        self.initialized.as_ref()
    }

    /// Adds (or replaces) the handler for requests from the server with this method.
    pub fn set_handler(&self, method: &str, handler: Handler) {
        self.lock_routes()
            .handlers
            .insert(method.to_owned(), handler);
    }

    pub(super) fn lock_routes(&self) -> std::sync::MutexGuard<'_, Routes> {
        self.requester.lock_routes()
    }

    /// Sends a request and waits for its answer.
    pub async fn request(&self, method: &str, params: Value) -> Result<Value, ResponseError> {
        self.start(method, params).1.await
    }

    /// Sends a request; returns its id and the future of its answer.
    pub fn start(
        &self,
        method: &str,
        params: Value,
    ) -> (
        Value,
        impl Future<Output = Result<Value, ResponseError>> + Send + 'static,
    ) {
        self.requester.start(method, params)
    }

    /// Sends a notification.
    pub fn notify(&self, method: &str, params: Value) {
        self.send(&json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    /// Sends progress notifications with this token to `sink` instead of the queue.
    pub fn route_progress(&self, token: &Value, sink: mpsc::UnboundedSender<Progress>) {
        self.lock_routes().progress.insert(token.to_string(), sink);
    }

    /// The next notification, waiting for it; `None` once the connection is closed.
    pub async fn next_notification(&self) -> Option<Notification> {
        self.notifications.lock().await.recv().await
    }

    /// The next notification if one has arrived.
    pub fn try_next_notification(&self) -> Option<Notification> {
        self.notifications.try_lock().ok()?.try_recv().ok()
    }

    /// Every tool, following `nextCursor`: the first page's result with all tools in it.
    pub async fn list_tools_result(&self) -> Result<Value, ResponseError> {
        self.list_all("tools/list", "tools").await
    }

    /// Every tool, typed.
    pub async fn list_tools(&self) -> Result<Vec<Tool>, ResponseError> {
        let result = self.list_tools_result().await?;
        serde_json::from_value(result["tools"].clone()).map_err(|error| malformed(&error))
    }

    /// `tools/call`, with a progress token if one is given.
    pub fn start_call(
        &self,
        name: &str,
        arguments: Value,
        progress_token: Option<&Value>,
    ) -> (
        Value,
        impl Future<Output = Result<ToolResult, ResponseError>> + Send + 'static + use<>,
    ) {
        let mut params = json!({ "name": name, "arguments": arguments });
        if let Some(token) = progress_token {
            params["_meta"] = json!({ "progressToken": token });
        }
        let (id, answer) = self.requester.start_fulfilled("tools/call", params);
        let requester = self.requester.clone();
        (id, async move {
            // A client that declared the tasks extension may be answered with a task.
            let answer = requester.settle_call(answer.await?).await?;
            serde_json::from_value(answer).map_err(|error| malformed(&error))
        })
    }

    /// Sends a `tools/call` with a fresh progress token. Its reports arrive on the receiver
    /// while the call runs; the route is dropped once the answer is in.
    pub fn start_call_with_progress(
        &self,
        name: &str,
        arguments: Value,
    ) -> (
        Value,
        mpsc::UnboundedReceiver<Progress>,
        impl Future<Output = Result<ToolResult, ResponseError>> + Send + 'static + use<>,
    ) {
        let token = self.progress_token();
        let (sink, reports) = mpsc::unbounded_channel();
        self.route_progress(&token, sink);
        let (id, answer) = self.start_call(name, arguments, Some(&token));
        let requester = self.requester.clone();
        let route = token.to_string();
        let answer = async move {
            let result = answer.await;
            requester.lock_routes().progress.remove(&route);
            result
        };
        (id, reports, answer)
    }

    /// A fresh progress token.
    pub fn progress_token(&self) -> Value {
        let n = self.requester.next_id.fetch_add(1, Ordering::Relaxed);
        Value::from(format!("progress-{n}"))
    }

    /// Closes the connection: the server sees end of input, finishes the calls in flight,
    /// and stops. Returns the server's start-up error, if it had one.
    pub async fn close(mut self) -> Result<(), String> {
        drop(self.outbox);
        if let Some(server) = self.server.take() {
            let _ = server.await;
        }
        match &*self.requester.server_state.borrow() {
            ServerState::Stopped(Some(error)) => Err(error.clone()),
            _ => Ok(()),
        }
    }

    fn send(&self, message: &Value) {
        send(&self.outbox, message);
    }
}

impl Requester {
    pub(super) fn lock_routes(&self) -> std::sync::MutexGuard<'_, Routes> {
        self.routes.lock().expect("client routes poisoned")
    }

    /// Sends a request; returns its id and the future of its answer.
    pub(super) fn start(
        &self,
        method: &str,
        params: Value,
    ) -> (
        Value,
        impl Future<Output = Result<Value, ResponseError>> + Send + 'static + use<>,
    ) {
        let id = self.fresh_id();
        let answer = self.send_request(id.clone(), method, params);
        (id, answer)
    }

    /// A fresh request id.
    pub(super) fn fresh_id(&self) -> Value {
        Value::from(self.next_id.fetch_add(1, Ordering::Relaxed))
    }

    /// Sends a request with this id; returns the future of its answer.
    pub(super) fn send_request(
        &self,
        id: Value,
        method: &str,
        params: Value,
    ) -> impl Future<Output = Result<Value, ResponseError>> + Send + 'static + use<> {
        let (answer, response) = oneshot::channel();
        let closed = {
            let mut routes = self.lock_routes();
            if !routes.closed {
                routes.pending.insert(id.to_string(), answer);
            }
            routes.closed
        };
        if !closed {
            let params = self.with_meta(params);
            let request = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
            match self.outbox.upgrade() {
                Some(outbox) => send(&outbox, &request),
                // The client closed: dropping the waiting sender fails the answer below.
                None => drop(self.lock_routes().pending.remove(&id.to_string())),
            }
        }
        let server_state = self.server_state.clone();
        async move {
            let Ok(response) = response.await else {
                return Err(connection_closed(server_state).await);
            };
            match response.get("error") {
                Some(error) => Err(ResponseError::from_response(error)),
                None => Ok(response.get("result").cloned().unwrap_or(Value::Null)),
            }
        }
    }

    /// Answers each request of an `input_required` result with this client's handlers:
    /// the `inputResponses` to send the call again with.
    pub(super) async fn fulfil(&self, input_required: &Value) -> Result<Value, ResponseError> {
        let mut responses = Map::new();
        let requests = input_required
            .get("inputRequests")
            .and_then(Value::as_object);
        for (key, request) in requests.into_iter().flatten() {
            let method = request.get("method").and_then(Value::as_str).unwrap_or("");
            let params = request.get("params").cloned().unwrap_or(Value::Null);
            let handler = self.lock_routes().handlers.get(method).cloned();
            let Some(handler) = handler else {
                return Err(ResponseError::new(
                    ResponseError::METHOD_NOT_FOUND,
                    format!(
                        "the server asked for `{method}`, which this client has no handler for"
                    ),
                ));
            };
            responses.insert(key.clone(), handler(params).await?);
        }
        Ok(Value::Object(responses))
    }

    /// Adds the 2026-07-28 `_meta` fields to a request's params (where not given).
    fn with_meta(&self, params: Value) -> Value {
        if !self.introduction.revision.is_stateless() {
            return params;
        }
        let mut params = match params {
            Value::Object(params) => params,
            _ => Map::new(),
        };
        let meta = params.entry("_meta").or_insert_with(|| json!({}));
        if let Value::Object(meta) = meta {
            let introduction = &self.introduction;
            meta.entry(meta::PROTOCOL_VERSION)
                .or_insert_with(|| introduction.revision.as_str().into());
            meta.entry(meta::CLIENT_CAPABILITIES)
                .or_insert_with(|| introduction.capabilities.clone());
            meta.entry(meta::CLIENT_INFO)
                .or_insert_with(|| introduction.client_info.clone());
        }
        Value::Object(params)
    }
}

pub(super) fn malformed(error: &serde_json::Error) -> ResponseError {
    ResponseError::new(
        ResponseError::CONNECTION_CLOSED,
        format!("the server's answer is malformed: {error}"),
    )
}

/// The error for a request the connection closed on; if the in-process server stopped,
/// it says why (the server closes its output just before it reports how it ended).
async fn connection_closed(mut server_state: watch::Receiver<ServerState>) -> ResponseError {
    let reason = match server_state
        .wait_for(|state| matches!(state, ServerState::Stopped(_)))
        .await
        .as_deref()
    {
        Ok(ServerState::Stopped(reason)) => reason.clone(),
        _ => None,
    };
    ResponseError::new(
        ResponseError::CONNECTION_CLOSED,
        match reason {
            Some(reason) => format!("the server stopped: {reason}"),
            None => "the connection closed before the answer came".to_owned(),
        },
    )
}

fn send(outbox: &mpsc::UnboundedSender<Vec<u8>>, message: &Value) {
    let mut line = serde_json::to_vec(message).expect("a JSON value always serializes");
    line.push(b'\n');
    // A closed pipe means the server is gone: the request's answer reports it.
    let _ = outbox.send(line);
}

async fn write_lines<W: AsyncWrite + Unpin>(
    mut output: W,
    mut queued: mpsc::UnboundedReceiver<Vec<u8>>,
) {
    while let Some(line) = queued.recv().await {
        if output.write_all(&line).await.is_err() || output.flush().await.is_err() {
            return;
        }
    }
    let _ = output.shutdown().await;
}

/// Routes every message the server sends: responses to their requests, requests to their
/// handlers, progress to its call, other notifications to the queue.
async fn read_messages<R: AsyncRead + Unpin>(
    input: R,
    routes: Arc<Mutex<Routes>>,
    outbox: mpsc::WeakUnboundedSender<Vec<u8>>,
    notifications: mpsc::UnboundedSender<Notification>,
    observer: Option<Observer>,
) {
    let mut lines = BufReader::new(input).lines();
    while let Ok(Some(line)) = lines.next_line().await {
        let Ok(message) = serde_json::from_str::<Value>(&line) else {
            tracing::warn!(%line, "the server sent a line that is not JSON");
            continue;
        };
        let messages = match message {
            Value::Array(batch) => batch,
            message => vec![message],
        };
        for message in messages {
            if let Some(observer) = &observer {
                observer(&message);
            }
            route(message, &routes, &outbox, &notifications);
        }
    }
    let mut routes = routes.lock().expect("client routes poisoned");
    routes.closed = true;
    routes.pending.clear();
    routes.progress.clear();
    routes.acknowledgements.clear();
}

fn route(
    message: Value,
    routes: &Mutex<Routes>,
    outbox: &mpsc::WeakUnboundedSender<Vec<u8>>,
    notifications: &mpsc::UnboundedSender<Notification>,
) {
    let method = message.get("method").and_then(Value::as_str);
    let id = message.get("id");
    let mut routes = routes.lock().expect("client routes poisoned");
    match (method, id) {
        (None, Some(id)) => {
            if let Some(waiting) = routes.pending.remove(&id.to_string()) {
                let _ = waiting.send(message);
            }
        }
        (Some(method), Some(id)) => {
            let id = id.clone();
            let handler = routes.handlers.get(method).cloned();
            let method = method.to_owned();
            let params = message.get("params").cloned().unwrap_or(Value::Null);
            let outbox = outbox.clone();
            tokio::spawn(async move {
                let answer = match handler {
                    Some(handler) => handler(params).await,
                    None => Err(ResponseError::new(
                        ResponseError::METHOD_NOT_FOUND,
                        format!("Method not found: this client has no handler for `{method}`."),
                    )),
                };
                let response = match answer {
                    Ok(result) => json!({"jsonrpc": "2.0", "id": id, "result": result}),
                    Err(error) => json!({"jsonrpc": "2.0", "id": id, "error": error.to_json()}),
                };
                // Nobody to answer once the client has closed.
                if let Some(outbox) = outbox.upgrade() {
                    send(&outbox, &response);
                }
            });
        }
        (Some(method), None) => {
            let params = message.get("params").cloned().unwrap_or(Value::Null);
            if method == "notifications/progress" {
                let sink = params
                    .get("progressToken")
                    .and_then(|token| routes.progress.get(&token.to_string()));
                if let (Some(sink), Ok(progress)) =
                    (sink, serde_json::from_value::<Progress>(params.clone()))
                {
                    let _ = sink.send(progress);
                    return;
                }
            }
            if method == "notifications/subscriptions/acknowledged" {
                let listen = params["_meta"][meta::SUBSCRIPTION_ID].to_string();
                if let Some(waiting) = routes.acknowledgements.remove(&listen) {
                    let _ = waiting.send(params);
                    return;
                }
            }
            let _ = notifications.send(Notification {
                method: method.to_owned(),
                params,
            });
        }
        (None, None) => tracing::warn!(%message, "the server sent a message that is not JSON-RPC"),
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    fn introduction(revision: ProtocolVersion) -> Introduction {
        Introduction {
            revision,
            capabilities: json!({ "roots": {} }),
            client_info: json!({ "name": "test", "version": "0" }),
        }
    }

    /// A fake server on the other end of a pipe: lines in, lines out.
    pub(in crate::client) struct FakeServer {
        lines: tokio::io::Lines<BufReader<tokio::io::ReadHalf<tokio::io::DuplexStream>>>,
        output: tokio::io::WriteHalf<tokio::io::DuplexStream>,
    }

    impl FakeServer {
        pub(in crate::client) async fn receive(&mut self) -> Value {
            let line = self.lines.next_line().await.unwrap().unwrap();
            serde_json::from_str(&line).unwrap()
        }

        pub(in crate::client) async fn send(&mut self, message: Value) {
            let line = format!("{message}\n");
            self.output.write_all(line.as_bytes()).await.unwrap();
        }
    }

    pub(in crate::client) fn pair(
        revision: ProtocolVersion,
        handlers: HashMap<String, Handler>,
    ) -> (ClientCore, FakeServer) {
        let (client_end, server_end) = tokio::io::duplex(PIPE_CAPACITY);
        let (input, output) = tokio::io::split(client_end);
        let client = ClientCore::over(input, output, introduction(revision), handlers, None);
        let (server_input, server_output) = tokio::io::split(server_end);
        let server = FakeServer {
            lines: BufReader::new(server_input).lines(),
            output: server_output,
        };
        (client, server)
    }

    #[tokio::test]
    async fn answers_server_requests_with_the_same_id() {
        let roots = handler(|params: Value| async move {
            assert_eq!(params, json!({}));
            Ok(json!({ "roots": [{ "uri": "file:///tmp" }] }))
        });
        let (client, mut server) = pair(
            ProtocolVersion::V2025_11_25,
            HashMap::from([("roots/list".to_owned(), roots)]),
        );
        server
            .send(json!({"jsonrpc": "2.0", "id": "s-1", "method": "roots/list", "params": {}}))
            .await;
        assert_eq!(
            server.receive().await,
            json!({"jsonrpc": "2.0", "id": "s-1", "result": {"roots": [{"uri": "file:///tmp"}]}})
        );

        client.set_handler(
            "elicitation/create",
            handler(|_| async { Err(ResponseError::new(-1, "declined")) }),
        );
        server
            .send(json!({"jsonrpc": "2.0", "id": 7, "method": "elicitation/create", "params": {}}))
            .await;
        assert_eq!(
            server.receive().await,
            json!({"jsonrpc": "2.0", "id": 7, "error": {"code": -1, "message": "declined"}})
        );

        server
            .send(json!({"jsonrpc": "2.0", "id": 8, "method": "sampling/createMessage"}))
            .await;
        let refused = server.receive().await;
        assert_eq!(refused["id"], 8);
        assert_eq!(refused["error"]["code"], ResponseError::METHOD_NOT_FOUND);
    }

    #[tokio::test]
    async fn routes_responses_progress_and_notifications() {
        let (client, mut server) = pair(ProtocolVersion::V2026_07_28, HashMap::new());
        let token = client.progress_token();
        let (sink, mut progress) = mpsc::unbounded_channel();
        client.route_progress(&token, sink);
        let (id, answer) = client.start_call("slow", json!({}), Some(&token));

        let request = server.receive().await;
        assert_eq!(request["id"], id);
        assert_eq!(request["params"]["_meta"]["progressToken"], token);
        assert_eq!(
            request["params"]["_meta"][meta::PROTOCOL_VERSION],
            "2026-07-28"
        );
        assert_eq!(
            request["params"]["_meta"][meta::CLIENT_CAPABILITIES],
            json!({ "roots": {} })
        );
        server
            .send(json!({"jsonrpc": "2.0", "method": "notifications/progress",
                "params": {"progressToken": token, "progress": 1, "total": 2}}))
            .await;
        server
            .send(json!({"jsonrpc": "2.0", "method": "notifications/message",
                "params": {"level": "info", "data": "hello"}}))
            .await;
        server
            .send(json!({"jsonrpc": "2.0", "id": id,
                "result": {"content": [{"type": "text", "text": "done"}]}}))
            .await;

        let result = answer.await.unwrap();
        assert_eq!(result.text(), "done");
        assert!(!result.is_error);
        assert_eq!(
            progress.recv().await,
            Some(Progress {
                progress: 1.0,
                total: Some(2.0),
                message: None
            })
        );
        let notification = client.next_notification().await.unwrap();
        assert_eq!(notification.method, "notifications/message");
        assert_eq!(client.try_next_notification(), None);

        drop(server);
        let closed = client.request("ping", json!({})).await.unwrap_err();
        assert_eq!(closed.code, ResponseError::CONNECTION_CLOSED);
    }
}
