//! End-to-end tests of the Streamable HTTP transport (a package of its own, so the
//! compile-error tests of `mcp-tests` do not build an HTTP client).
//!
//! This library is the test client: every message the server sends (JSON bodies and SSE
//! events alike) is checked against the official schema of the revision in use.

use std::time::Duration;

use reqwest::header::{HeaderMap, HeaderName, HeaderValue};
use reqwest::{Response, StatusCode};
use serde_json::{Value, json};

use mcp_tests::{RECEIVE_TIMEOUT, STATELESS_REVISION, check_server_message, stateless_meta};

pub mod auth;
pub mod fleet;

/// A server of every tool linked in, over HTTP on a free loopback port, in this process;
/// it stops when this is dropped.
pub struct InProcessServer {
    /// The MCP endpoint.
    pub url: String,
    _stop: tokio::sync::oneshot::Sender<()>,
}

impl InProcessServer {
    /// Starts one named `name`, with the `Server` builder's defaults.
    pub async fn start(name: &str) -> InProcessServer {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("a loopback port");
        let url = format!("http://{}/mcp", listener.local_addr().expect("an address"));
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let http = mcp_runtime::Server::new(name, "1.0.0")
            .http()
            .shutdown_on(async move {
                let _ = stopped.await;
            });
        tokio::spawn(http.serve_on(listener));
        InProcessServer { url, _stop: stop }
    }
}

/// The endpoint `make()` builds, served twice on free loopback ports, the two ways an
/// application serves it: by `serve_on`, and as `router()` under the application's own
/// `axum::serve` (until the test ends).
pub async fn serve_both(make: impl Fn() -> mcp_runtime::HttpServer) -> [std::net::SocketAddr; 2] {
    let bind = || tokio::net::TcpListener::bind("127.0.0.1:0");
    let (serve_on, routed) = (bind().await.expect("a port"), bind().await.expect("a port"));
    let addresses = [
        serve_on.local_addr().expect("an address"),
        routed.local_addr().expect("an address"),
    ];
    tokio::spawn(
        make()
            .shutdown_on(std::future::pending())
            .serve_on(serve_on),
    );
    let router = make().router().expect("a router");
    tokio::spawn(async move { axum::serve(routed, router).await });
    addresses
}

/// The `progress` of every progress notification among `messages`, in order.
pub fn progress_of(messages: &[Value]) -> Vec<f64> {
    messages
        .iter()
        .filter(|message| message["method"] == "notifications/progress")
        .map(|message| message["params"]["progress"].as_f64().expect("a number"))
        .collect()
}

/// A client of one MCP endpoint, e.g. `http://127.0.0.1:PORT/mcp`.
pub struct HttpClient {
    pub url: String,
    http: reqwest::Client,
    /// The revision messages are checked against.
    pub revision: String,
    /// The session, once `initialize` gave one.
    pub session: Option<String>,
    /// The `Authorization` header every request carries, if any.
    pub authorization: Option<String>,
    /// Headers every request carries besides the protocol's (a browser's `Origin`, ...).
    pub extra_headers: HeaderMap,
    next_id: i64,
}

/// What the server answered a POST with.
pub struct Reply {
    pub status: StatusCode,
    pub headers: HeaderMap,
    /// The body's messages: the JSON body, or every SSE event's.
    pub messages: Vec<Value>,
    pub event_stream: bool,
}

impl Reply {
    /// The last message: the response.
    pub fn response(&self) -> &Value {
        self.messages
            .last()
            .unwrap_or_else(|| panic!("no messages in a {} reply", self.status))
    }

    /// The JSON-RPC error code of the response.
    pub fn error_code(&self) -> Option<i64> {
        self.response()
            .pointer("/error/code")
            .and_then(Value::as_i64)
    }
}

impl HttpClient {
    pub fn new(url: impl Into<String>, revision: &str) -> Self {
        HttpClient {
            url: url.into(),
            http: reqwest::Client::builder()
                .timeout(RECEIVE_TIMEOUT * 3)
                .build()
                .expect("an HTTP client"),
            revision: revision.to_owned(),
            session: None,
            authorization: None,
            extra_headers: HeaderMap::new(),
            next_id: 0,
        }
    }

    pub fn next_id(&mut self) -> i64 {
        self.next_id += 1;
        self.next_id
    }

    /// The headers every POST of this client carries.
    pub fn base_headers(&self) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(
            "accept",
            HeaderValue::from_static("application/json, text/event-stream"),
        );
        headers.insert("content-type", HeaderValue::from_static("application/json"));
        headers.extend(self.extra_headers.clone());
        if let Some(authorization) = &self.authorization {
            headers.insert(
                "authorization",
                HeaderValue::from_str(authorization).expect("a header value"),
            );
        }
        if let Some(session) = &self.session {
            headers.insert(
                "mcp-session-id",
                HeaderValue::from_str(session).expect("a session id"),
            );
        }
        if self.revision != "2025-03-26" {
            headers.insert(
                "mcp-protocol-version",
                HeaderValue::from_str(&self.revision).expect("a version"),
            );
        }
        headers
    }

    /// POSTs `body` with exactly `headers` and returns the response unread.
    pub async fn post_raw(&self, headers: HeaderMap, body: &Value) -> Response {
        self.http
            .post(&self.url)
            .headers(headers)
            .body(serde_json::to_vec(body).expect("JSON"))
            .send()
            .await
            .expect("the POST reaches the server")
    }

    /// POSTs `body` and reads the whole reply, checking every message.
    pub async fn post_with(&self, headers: HeaderMap, body: &Value) -> Reply {
        let response = self.post_raw(headers, body).await;
        let status = response.status();
        let headers = response.headers().clone();
        let mut stream = EventStream::new(response, &self.revision);
        let event_stream = stream.is_event_stream;
        let mut messages = Vec::new();
        while let Some(message) = stream.next().await {
            messages.push(message);
        }
        Reply {
            status,
            headers,
            messages,
            event_stream,
        }
    }

    /// Like [`post_with`](HttpClient::post_with), for servers that may fail: a connection
    /// refused or broken, a body cut short or a body that is not JSON-RPC (a proxy's error
    /// page) is an `Err` saying what happened, not a panic. Every message that does arrive is
    /// still checked against the schema.
    pub async fn try_post_with(&self, headers: HeaderMap, body: &Value) -> Result<Reply, String> {
        let response = self
            .http
            .post(&self.url)
            .headers(headers)
            .body(serde_json::to_vec(body).expect("JSON"))
            .send()
            .await
            .map_err(|error| format!("POST {}: {error:?}", self.url))?;
        let status = response.status();
        let headers = response.headers().clone();
        let mut stream = EventStream::new(response, &self.revision);
        let event_stream = stream.is_event_stream;
        let mut messages = Vec::new();
        if !event_stream {
            let body = stream
                .response
                .take()
                .expect("unread")
                .bytes()
                .await
                .map_err(|error| format!("{status}, its body: {error:?}"))?;
            if !body.is_empty() {
                let message: Value = serde_json::from_slice(&body).map_err(|_| {
                    format!(
                        "{status} with a body that is not JSON: {}",
                        String::from_utf8_lossy(&body)
                    )
                })?;
                stream.check(&message);
                messages.push(message);
            }
        } else {
            while let Some(message) = stream
                .try_next()
                .await
                .map_err(|error| format!("{status} event stream: {error}"))?
            {
                messages.push(message);
            }
        }
        Ok(Reply {
            status,
            headers,
            messages,
            event_stream,
        })
    }

    /// POSTs `body` with this client's headers.
    pub async fn post(&self, body: &Value) -> Reply {
        self.post_with(self.base_headers(), body).await
    }

    /// A request of this client's revision: for 2026-07-28, `_meta` and the routing
    /// headers are added.
    pub fn request_body(&mut self, method: &str, mut params: Value) -> Value {
        if self.revision == STATELESS_REVISION {
            if params.is_null() {
                params = json!({});
            }
            let meta = params
                .as_object_mut()
                .expect("params are an object")
                .entry("_meta")
                .or_insert_with(|| json!({}));
            for (key, value) in stateless_meta().as_object().expect("an object") {
                meta[key] = value.clone();
            }
        }
        let mut body = json!({ "jsonrpc": "2.0", "id": self.next_id(), "method": method });
        if !params.is_null() {
            body["params"] = params;
        }
        body
    }

    /// The headers of a request: the 2026-07-28 routing headers included.
    pub fn request_headers(&self, body: &Value) -> HeaderMap {
        let mut headers = self.base_headers();
        if self.revision == STATELESS_REVISION {
            let method = body["method"].as_str().expect("a method");
            headers.insert("mcp-method", HeaderValue::from_str(method).expect("ASCII"));
            // `Mcp-Name`: the tool's or prompt's name, the URI a `resources/read` reads, or
            // the task a `tasks/*` request is about.
            let named = match method {
                "resources/read" => body.pointer("/params/uri"),
                "tasks/get" | "tasks/update" | "tasks/cancel" => body.pointer("/params/taskId"),
                _ => body.pointer("/params/name"),
            };
            if let Some(name) = named.and_then(Value::as_str) {
                headers.insert(
                    HeaderName::from_static("mcp-name"),
                    HeaderValue::from_str(name).expect("ASCII"),
                );
            }
        }
        headers
    }

    /// Sends a request, reads its whole reply, and checks the result's shape.
    pub async fn request(&mut self, method: &str, params: Value) -> Reply {
        let body = self.request_body(method, params);
        let reply = self.post_with(self.request_headers(&body), &body).await;
        if let Some(result) = reply.messages.last().and_then(|last| last.get("result")) {
            mcp_tests::check_result(&self.revision, method, result);
        }
        reply
    }

    /// Sends a request and returns its response as a stream, for reading events as they
    /// come (progress, requests from the server).
    pub async fn request_stream(&mut self, method: &str, params: Value) -> EventStream {
        let body = self.request_body(method, params);
        let response = self.post_raw(self.request_headers(&body), &body).await;
        assert_eq!(response.status(), StatusCode::OK, "a streamed request");
        EventStream::new(response, &self.revision)
    }

    /// `initialize` + `notifications/initialized`; keeps the session id.
    pub async fn initialize(&mut self, capabilities: Value) -> Reply {
        let body = json!({
            "jsonrpc": "2.0", "id": self.next_id(), "method": "initialize",
            "params": {
                "protocolVersion": self.revision,
                "capabilities": capabilities,
                "clientInfo": { "name": "mcp-tests", "version": "0" },
            },
        });
        let mut headers = self.base_headers();
        headers.remove("mcp-protocol-version");
        let reply = self.post_with(headers, &body).await;
        assert_eq!(
            reply.status,
            StatusCode::OK,
            "initialize: {:?}",
            reply.messages
        );
        mcp_tests::check_result(&self.revision, "initialize", &reply.response()["result"]);
        self.session = Some(
            reply.headers["mcp-session-id"]
                .to_str()
                .expect("an ASCII session id")
                .to_owned(),
        );
        let initialized = self
            .post(&json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }))
            .await;
        assert_eq!(initialized.status, StatusCode::ACCEPTED);
        assert!(initialized.messages.is_empty());
        reply
    }

    /// DELETE on the endpoint with this client's headers.
    pub async fn delete(&self) -> StatusCode {
        self.http
            .delete(&self.url)
            .headers(self.base_headers())
            .send()
            .await
            .expect("the DELETE reaches the server")
            .status()
    }

    /// GET on the endpoint with this client's headers, unread.
    pub async fn get(&self) -> Response {
        self.get_with(self.base_headers()).await
    }

    /// GET on the endpoint with exactly `headers`, unread.
    pub async fn get_with(&self, headers: HeaderMap) -> Response {
        self.http
            .get(&self.url)
            .headers(headers)
            .send()
            .await
            .expect("the GET reaches the server")
    }

    /// GET with `Last-Event-ID: last`: resumes the stream that event belongs to.
    pub async fn resume(&self, last: &str) -> Response {
        let mut headers = self.base_headers();
        headers.insert(
            "last-event-id",
            HeaderValue::from_str(last).expect("an ASCII event id"),
        );
        self.get_with(headers).await
    }
}

/// The messages of one response body as they arrive: SSE `data` events, or one JSON body.
pub struct EventStream {
    response: Option<Response>,
    is_event_stream: bool,
    buffer: Vec<u8>,
    revision: String,
    /// The raw SSE text read so far, for framing assertions.
    pub raw: String,
    /// The `id` of every event read so far, in order (priming events included).
    pub ids: Vec<String>,
    /// The last `retry` field read, in milliseconds.
    pub retry: Option<u64>,
}

impl EventStream {
    pub fn new(response: Response, revision: &str) -> Self {
        let is_event_stream = response
            .headers()
            .get("content-type")
            .and_then(|value| value.to_str().ok())
            .is_some_and(|value| value.starts_with("text/event-stream"));
        EventStream {
            response: Some(response),
            is_event_stream,
            buffer: Vec::new(),
            revision: revision.to_owned(),
            raw: String::new(),
            ids: Vec::new(),
            retry: None,
        }
    }

    /// The next message, or `None` at the end of the body. Panics after
    /// [`RECEIVE_TIMEOUT`] without one.
    pub async fn next(&mut self) -> Option<Value> {
        tokio::time::timeout(RECEIVE_TIMEOUT, self.next_untimed())
            .await
            .expect("the server sent the next message in time")
    }

    /// Whether the body ends within `timeout` with no other message (keep-alive comments
    /// aside).
    pub async fn ends_within(&mut self, timeout: Duration) -> bool {
        match tokio::time::timeout(timeout, self.next_untimed()).await {
            Ok(None) => true,
            Ok(Some(message)) => panic!("expected the end of the stream, got {message}"),
            Err(_) => false,
        }
    }

    async fn next_untimed(&mut self) -> Option<Value> {
        if !self.is_event_stream {
            let response = self.response.take()?;
            let body = response.bytes().await.expect("the body");
            if body.is_empty() {
                return None;
            }
            let message: Value = serde_json::from_slice(&body)
                .unwrap_or_else(|error| panic!("a JSON body ({error}): {body:?}"));
            self.check(&message);
            return Some(message);
        }
        self.try_next()
            .await
            .unwrap_or_else(|error| panic!("{error}"))
    }

    /// The next message of an event stream, or `None` at its end, or `Err` when the
    /// connection broke or ended inside an event (a server that died). No timeout.
    pub async fn try_next(&mut self) -> Result<Option<Value>, String> {
        loop {
            if let Some(end) = find_event_end(&self.buffer) {
                let event: Vec<u8> = self.buffer.drain(..end).collect();
                let event = String::from_utf8(event).expect("UTF-8 events");
                if let Some(message) = self.parse_event(&event) {
                    return Ok(Some(message));
                }
                continue;
            }
            let Some(response) = self.response.as_mut() else {
                return Ok(None);
            };
            let chunk = response.chunk().await.map_err(|error| {
                self.response = None;
                format!("the stream broke: {error:?}")
            })?;
            match chunk {
                Some(chunk) => {
                    self.raw.push_str(&String::from_utf8_lossy(&chunk));
                    self.buffer.extend_from_slice(&chunk);
                }
                None => {
                    self.response = None;
                    if !self.buffer.iter().all(u8::is_ascii_whitespace) {
                        return Err(format!(
                            "the stream ended inside an event: {:?}",
                            String::from_utf8_lossy(&self.buffer)
                        ));
                    }
                    return Ok(None);
                }
            }
        }
    }

    /// One event's message; `None` for comments and events without data.
    fn parse_event(&mut self, event: &str) -> Option<Value> {
        let mut data = Vec::new();
        for line in event.lines() {
            if let Some(value) = line.strip_prefix("data:") {
                data.push(value.strip_prefix(' ').unwrap_or(value));
            } else if let Some(id) = line.strip_prefix("id:") {
                self.ids.push(id.trim_start().to_owned());
            } else if let Some(retry) = line.strip_prefix("retry:") {
                self.retry = Some(retry.trim().parse().expect("retry is milliseconds"));
            } else {
                assert!(
                    line.is_empty()
                        || line.starts_with(':')
                        || line.starts_with("event:")
                        || line.starts_with("id:")
                        || line.starts_with("retry:"),
                    "not an SSE field: {line:?}"
                );
            }
        }
        if data.iter().all(|line| line.is_empty()) {
            // A comment, or a priming event (an id and empty data).
            return None;
        }
        let message: Value = serde_json::from_str(&data.join("\n"))
            .unwrap_or_else(|error| panic!("an event that is not JSON ({error}): {event:?}"));
        self.check(&message);
        Some(message)
    }

    fn check(&self, message: &Value) {
        check_server_message(&self.revision, message);
    }
}

/// The end of the first complete event in `buffer` (after its blank line).
fn find_event_end(buffer: &[u8]) -> Option<usize> {
    buffer
        .windows(2)
        .position(|pair| pair == b"\n\n")
        .map(|start| start + 2)
}
