//! The Streamable HTTP transport end to end: a server on a real socket, a real HTTP client,
//! every message checked against the official schema of the revision in use.

use std::net::SocketAddr;
use std::time::Duration;

use mcp_http_tests::{HttpClient, progress_of};
use mcp_runtime::{
    AuthRejection, Context, Elicitation, LogLevel, Principal, ProtectedResource, SamplingRequest,
    Server, ToolError, ToolSet, bearer_token, mcp_tool,
};
use reqwest::StatusCode;
use reqwest::header::HeaderValue;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};
use tokio::sync::oneshot;

/// Echo the text back.
#[mcp_tool]
async fn echo(
    /// What to echo.
    text: String,
) -> String {
    text
}

/// Report progress `steps` times, logging each step.
#[mcp_tool]
async fn count(
    /// How many steps.
    steps: u32,
    ctx: Context,
) -> String {
    for step in 1..=steps {
        ctx.log(LogLevel::Info, format!("step {step}"));
        ctx.progress(f64::from(step), Some(f64::from(steps)), Some("counting"));
        tokio::time::sleep(Duration::from_millis(60)).await;
    }
    format!("counted to {steps}")
}

#[derive(Deserialize, JsonSchema)]
struct Name {
    /// Your name.
    name: String,
}

/// Ask the user for their name.
#[mcp_tool]
async fn greet(ctx: Context) -> Result<String, String> {
    match ctx.elicit::<Name>("Who are you?").await {
        Ok(Elicitation::Accepted(Name { name })) => Ok(format!("hello {name}")),
        Ok(_) => Ok("no name given".to_owned()),
        Err(error) => Err(format!("could not ask: {error}")),
    }
}

/// Ask the client's model for a summary: nothing to do without one.
#[mcp_tool]
async fn summarise(text: String, ctx: Context) -> Result<String, ToolError> {
    let summary = ctx
        .sample(SamplingRequest::new(50).user(format!("Summarise: {text}")))
        .await?;
    Ok(summary.text().unwrap_or_default().to_owned())
}

/// Log that it started, then take a while, then finish.
#[mcp_tool]
async fn slow(ctx: Context) -> String {
    ctx.log(LogLevel::Info, "started");
    tokio::time::sleep(Duration::from_millis(500)).await;
    if ctx.is_cancelled() {
        return "cancelled".to_owned();
    }
    "finished".to_owned()
}

/// A user, as the authentication hook of the auth test knows them.
struct User(String);

/// Say who the authenticated caller is.
#[mcp_tool]
async fn whoami(user: Principal<User>) -> String {
    let User(name) = &*user;
    name.clone()
}

/// A server on a loopback port, and the trigger of its graceful shutdown.
struct Running {
    address: SocketAddr,
    tools: ToolSet,
    shutdown: Option<oneshot::Sender<()>>,
    served: tokio::task::JoinHandle<Result<(), mcp_runtime::Error>>,
}

impl Running {
    async fn start() -> Running {
        Running::start_with(|http| http).await
    }

    async fn start_with(
        configure: impl FnOnce(mcp_runtime::HttpServer) -> mcp_runtime::HttpServer,
    ) -> Running {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("a loopback port");
        let address = listener.local_addr().expect("an address");
        let (shutdown, signal) = oneshot::channel::<()>();
        let server = Server::new("http-tests", "1.0.0")
            .max_message_size(64 * 1024)
            .client_request_timeout(Duration::from_secs(20));
        let tools = server.tool_set();
        let http = configure(server.http()).shutdown_on(async move {
            let _ = signal.await;
        });
        let served = tokio::spawn(http.serve_on(listener));
        Running {
            address,
            tools,
            shutdown: Some(shutdown),
            served,
        }
    }

    fn url(&self) -> String {
        format!("http://{}/mcp", self.address)
    }

    fn client(&self, revision: &str) -> HttpClient {
        HttpClient::new(self.url(), revision)
    }
}

const SESSION_REVISIONS: [&str; 3] = ["2025-03-26", "2025-06-18", "2025-11-25"];

#[tokio::test]
async fn a_session_lives_from_initialize_to_delete() {
    let server = Running::start().await;
    for revision in SESSION_REVISIONS {
        let mut client = server.client(revision);
        let init = client.initialize(json!({})).await;
        assert_eq!(init.response()["result"]["protocolVersion"], revision);
        let session = client.session.clone().expect("a session id");
        assert_eq!(session.len(), 32, "128 random bits in hex");

        let list = client.request("tools/list", json!({})).await;
        assert_eq!(list.status, StatusCode::OK);
        assert!(!list.event_stream, "a ready answer is plain JSON");
        assert!(list.response()["result"]["tools"].is_array());

        let call = client
            .request(
                "tools/call",
                json!({ "name": "echo", "arguments": { "text": "hi" } }),
            )
            .await;
        assert!(
            call.event_stream,
            "a tool call is answered on an SSE stream"
        );
        assert_eq!(call.headers["content-type"], "text/event-stream");
        assert_eq!(call.response()["result"]["content"][0]["text"], "hi");

        assert_eq!(client.delete().await, StatusCode::OK);
        let after = client.request("tools/list", json!({})).await;
        assert_eq!(after.status, StatusCode::NOT_FOUND, "{revision}");
        assert_eq!(client.delete().await, StatusCode::NOT_FOUND);

        client.session = Some("not-a-session".to_owned());
        let unknown = client.request("ping", Value::Null).await;
        assert_eq!(unknown.status, StatusCode::NOT_FOUND);
        client.session = None;
        let missing = client.request("ping", Value::Null).await;
        assert_eq!(missing.status, StatusCode::BAD_REQUEST);
    }
}

#[tokio::test]
async fn headers_and_bodies_are_checked() {
    let server = Running::start().await;
    let mut client = server.client("2025-11-25");
    client.initialize(json!({})).await;

    // An unsupported protocol version header is refused; a missing one means 2025-03-26.
    let ping = client.request_body("ping", Value::Null);
    let mut headers = client.base_headers();
    headers.insert(
        "mcp-protocol-version",
        HeaderValue::from_static("1999-01-01"),
    );
    let refused = client.post_with(headers, &ping).await;
    assert_eq!(refused.status, StatusCode::BAD_REQUEST);
    let mut headers = client.base_headers();
    headers.remove("mcp-protocol-version");
    let assumed = client.post_with(headers, &ping).await;
    assert_eq!(assumed.status, StatusCode::OK);
    assert_eq!(assumed.response()["result"], json!({}));

    // Notifications and responses are accepted with 202 and no body.
    let notification = client
        .post(&json!({ "jsonrpc": "2.0", "method": "notifications/whatever" }))
        .await;
    assert_eq!(notification.status, StatusCode::ACCEPTED);
    assert!(notification.messages.is_empty());

    // Not JSON: a parse error.
    let response = reqwest::Client::new()
        .post(server.url())
        .headers(client.base_headers())
        .body("{not json")
        .send()
        .await
        .expect("a response");
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
    let body: Value = response.json_body().await;
    assert_eq!(body["error"]["code"], -32700);

    // Too big for max_message_size.
    let big = json!({ "jsonrpc": "2.0", "id": 99, "method": "ping", "params": { "pad": "x".repeat(70_000) } });
    let too_big = client.post_raw(client.base_headers(), &big).await;
    assert_eq!(too_big.status(), StatusCode::PAYLOAD_TOO_LARGE);

    // Other methods of the endpoint.
    let put = reqwest::Client::new()
        .put(server.url())
        .send()
        .await
        .expect("a response");
    assert_eq!(put.status(), StatusCode::METHOD_NOT_ALLOWED);
    let mut sessionless = server.client("2025-11-25");
    sessionless.session = None;
    assert_eq!(
        sessionless.get().await.status(),
        StatusCode::METHOD_NOT_ALLOWED
    );
}

trait JsonBody {
    async fn json_body(self) -> Value;
}

impl JsonBody for reqwest::Response {
    async fn json_body(self) -> Value {
        serde_json::from_slice(&self.bytes().await.expect("a body")).expect("a JSON body")
    }
}

#[tokio::test]
async fn batches_are_answered_in_2025_03_26_only() {
    let server = Running::start().await;
    let mut client = server.client("2025-03-26");
    client.initialize(json!({})).await;
    let batch = json!([
        client.request_body("ping", Value::Null),
        { "jsonrpc": "2.0", "method": "notifications/whatever" },
        client.request_body("tools/call", json!({ "name": "echo", "arguments": { "text": "b" } })),
    ]);
    let reply = client.post(&batch).await;
    assert_eq!(reply.status, StatusCode::OK);
    let responses = reply.response().as_array().expect("an array of responses");
    assert_eq!(responses.len(), 2);
    assert_eq!(responses[1]["result"]["content"][0]["text"], "b");

    let mut later = server.client("2025-06-18");
    later.initialize(json!({})).await;
    let batch = json!([later.request_body("ping", Value::Null)]);
    let refused = later.post(&batch).await;
    assert_eq!(refused.response()["error"]["code"], -32600);
}

#[tokio::test]
async fn foreign_origins_and_hosts_are_refused() {
    let server = Running::start().await;
    let client = server.client("2025-11-25");
    let initialize = json!({
        "jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": { "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": { "name": "t", "version": "0" } },
    });
    let mut evil_origin = client.base_headers();
    evil_origin.insert(
        "origin",
        HeaderValue::from_static("http://evil.example.com"),
    );
    let refused = client.post_raw(evil_origin, &initialize).await;
    assert_eq!(refused.status(), StatusCode::FORBIDDEN);

    let mut evil_host = client.base_headers();
    evil_host.insert("host", HeaderValue::from_static("evil.example.com"));
    assert_eq!(
        client.post_raw(evil_host, &initialize).await.status(),
        StatusCode::FORBIDDEN
    );

    let mut local_origin = client.base_headers();
    local_origin.insert("origin", HeaderValue::from_static("http://localhost:5173"));
    assert_eq!(
        client.post_raw(local_origin, &initialize).await.status(),
        StatusCode::OK
    );

    let configured = Running::start_with(|http| {
        http.allow_host("mcp.example.com")
            .allow_origin("https://app.example.com")
    })
    .await;
    let client = configured.client("2025-11-25");
    let mut headers = client.base_headers();
    headers.insert("host", HeaderValue::from_static("mcp.example.com"));
    headers.insert(
        "origin",
        HeaderValue::from_static("https://app.example.com"),
    );
    assert_eq!(
        client.post_raw(headers, &initialize).await.status(),
        StatusCode::OK
    );
}

#[tokio::test]
async fn progress_and_logs_travel_on_the_call_stream() {
    let server = Running::start().await;
    for revision in SESSION_REVISIONS {
        let mut client = server.client(revision);
        client.initialize(json!({})).await;
        let mut stream = client
            .request_stream(
                "tools/call",
                json!({ "name": "count", "arguments": { "steps": 3 }, "_meta": { "progressToken": "p" } }),
            )
            .await;
        let mut progress = Vec::new();
        let mut logs = 0;
        let response = loop {
            let message = stream.next().await.expect("a message before the response");
            match message["method"].as_str() {
                Some("notifications/progress") => {
                    assert_eq!(message["params"]["progressToken"], "p");
                    progress.push(message["params"]["progress"].as_f64().expect("a number"));
                }
                Some("notifications/message") => logs += 1,
                _ => break message,
            }
        };
        assert_eq!(response["result"]["content"][0]["text"], "counted to 3");
        assert_eq!(progress.last(), Some(&3.0), "{revision}: {progress:?}");
        assert!(progress.windows(2).all(|pair| pair[0] < pair[1]));
        assert_eq!(logs, 3, "{revision}");
        assert!(stream.ends_within(Duration::from_secs(5)).await);
        assert!(
            stream.raw.contains("data: {"),
            "SSE framing: {}",
            stream.raw
        );
    }
}

#[tokio::test]
async fn an_elicitation_goes_out_on_the_call_stream_and_its_answer_comes_back_as_a_post() {
    let server = Running::start().await;
    for revision in ["2025-06-18", "2025-11-25"] {
        let mut client = server.client(revision);
        client.initialize(json!({ "elicitation": {} })).await;
        let mut stream = client
            .request_stream("tools/call", json!({ "name": "greet", "arguments": {} }))
            .await;
        let request = stream.next().await.expect("the elicitation request");
        assert_eq!(request["method"], "elicitation/create");
        let answer = client
            .post(&json!({
                "jsonrpc": "2.0",
                "id": request["id"],
                "result": { "action": "accept", "content": { "name": "Ada" } },
            }))
            .await;
        assert_eq!(answer.status, StatusCode::ACCEPTED);
        let response = stream.next().await.expect("the call's response");
        assert_eq!(
            response["result"]["content"][0]["text"], "hello Ada",
            "{revision}"
        );
        assert!(stream.ends_within(Duration::from_secs(5)).await);
    }
}

#[tokio::test]
async fn stateless_requests_stand_alone_and_their_headers_must_match() {
    let server = Running::start().await;
    let mut client = server.client("2026-07-28");

    let discover = client.request("server/discover", json!({})).await;
    assert_eq!(discover.status, StatusCode::OK);
    assert!(discover.headers.get("mcp-session-id").is_none());
    assert_eq!(discover.response()["result"]["resultType"], "complete");

    let call = client
        .request(
            "tools/call",
            json!({ "name": "echo", "arguments": { "text": "alone" } }),
        )
        .await;
    assert_eq!(call.response()["result"]["content"][0]["text"], "alone");

    let body = client.request_body(
        "tools/call",
        json!({ "name": "echo", "arguments": { "text": "x" } }),
    );
    let mismatches = [
        ("mcp-method", Some("tools/list")),
        ("mcp-method", None),
        ("mcp-name", Some("count")),
        ("mcp-name", None),
        ("mcp-protocol-version", Some("2025-11-25")),
    ];
    for (header, value) in mismatches {
        let mut headers = client.request_headers(&body);
        match value {
            Some(value) => headers.insert(header, HeaderValue::from_static(value)),
            None => headers.remove(header),
        };
        let reply = client.post_with(headers, &body).await;
        assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{header}: {value:?}");
        assert_eq!(reply.error_code(), Some(-32020), "{header}: {value:?}");
    }

    let unknown = client.request("resources/list", json!({})).await;
    assert_eq!(unknown.status, StatusCode::NOT_FOUND);
    assert_eq!(unknown.error_code(), Some(-32601));
    // Methods 2026-07-28 removed are unknown there too (SEP-2575), `initialize` included:
    // its `_meta` names the stateless revision, which has no handshake.
    for removed in [
        "initialize",
        "ping",
        "logging/setLevel",
        "resources/subscribe",
        "resources/unsubscribe",
    ] {
        let reply = client.request(removed, json!({})).await;
        assert_eq!(reply.status, StatusCode::NOT_FOUND, "{removed}");
        assert_eq!(reply.error_code(), Some(-32601), "{removed}");
    }

    // A call that needs a capability the request did not declare: 400 + -32021.
    let needs_sampling = client
        .request(
            "tools/call",
            json!({ "name": "summarise", "arguments": { "text": "x" } }),
        )
        .await;
    assert_eq!(needs_sampling.status, StatusCode::BAD_REQUEST);
    assert_eq!(needs_sampling.error_code(), Some(-32021));
    assert_eq!(
        needs_sampling.response()["error"]["data"]["requiredCapabilities"],
        json!({ "sampling": {} })
    );

    let mut no_meta = json!({ "jsonrpc": "2.0", "id": 5, "method": "tools/list", "params": {} });
    let reply = client
        .post_with(client.request_headers(&no_meta), &no_meta)
        .await;
    assert_eq!(reply.status, StatusCode::BAD_REQUEST);
    assert_eq!(reply.error_code(), Some(-32602));

    no_meta["params"]["_meta"] = json!({
        "io.modelcontextprotocol/protocolVersion": "2099-01-01",
        "io.modelcontextprotocol/clientCapabilities": {},
    });
    let mut headers = client.request_headers(&no_meta);
    headers.insert(
        "mcp-protocol-version",
        HeaderValue::from_static("2099-01-01"),
    );
    let reply = client.post_with(headers, &no_meta).await;
    assert_eq!(reply.status, StatusCode::BAD_REQUEST);
    assert_eq!(reply.error_code(), Some(-32022));

    assert_eq!(client.get().await.status(), StatusCode::METHOD_NOT_ALLOWED);
    assert_eq!(client.delete().await, StatusCode::METHOD_NOT_ALLOWED);
}

#[tokio::test]
async fn a_listen_stream_carries_tool_list_changes_until_shutdown() {
    let mut server = Running::start().await;
    let mut client = server.client("2026-07-28");
    let mut stream = client
        .request_stream(
            "subscriptions/listen",
            json!({ "notifications": { "toolsListChanged": true } }),
        )
        .await;
    let acknowledged = stream.next().await.expect("the acknowledgement");
    assert_eq!(
        acknowledged["method"],
        "notifications/subscriptions/acknowledged"
    );
    let subscription =
        acknowledged["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"].clone();

    assert!(server.tools.disable("count"));
    let changed = stream.next().await.expect("a change notification");
    assert_eq!(changed["method"], "notifications/tools/list_changed");
    assert_eq!(
        changed["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"],
        subscription
    );

    // Shutting down ends the stream with the request's result.
    let _ = server.shutdown.take().expect("running").send(());
    let result = stream.next().await.expect("the listen result");
    assert_eq!(result["result"]["resultType"], "complete");
    assert!(stream.ends_within(Duration::from_secs(5)).await);
    server
        .served
        .await
        .expect("joined")
        .expect("a clean shutdown");
}

#[tokio::test]
async fn closing_a_stateless_stream_cancels_its_call() {
    let server = Running::start().await;
    let mut client = server.client("2026-07-28");
    let mut stream = client
        .request_stream(
            "tools/call",
            json!({
                "name": "count",
                "arguments": { "steps": 1000 },
                "_meta": { "progressToken": 1 },
            }),
        )
        .await;
    let first = stream.next().await.expect("progress");
    assert_eq!(first["method"], "notifications/progress");
    drop(stream);
    // The server stays healthy, and the abandoned call does not hold up shutdown.
    let again = client.request("tools/list", json!({})).await;
    assert_eq!(again.status, StatusCode::OK);
}

#[tokio::test]
async fn a_session_stream_carries_tool_list_changes() {
    let server = Running::start().await;
    let mut client = server.client("2025-11-25");
    client.initialize(json!({})).await;
    let response = client.get().await;
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(client.get().await.status(), StatusCode::CONFLICT);
    let mut stream = mcp_http_tests::EventStream::new(response, "2025-11-25");
    assert!(server.tools.disable("slow"));
    let changed = stream.next().await.expect("a change notification");
    assert_eq!(changed["method"], "notifications/tools/list_changed");
    assert_eq!(client.delete().await, StatusCode::OK);
    assert!(stream.ends_within(Duration::from_secs(5)).await);
}

#[tokio::test]
async fn shutdown_lets_calls_in_flight_finish() {
    let mut server = Running::start().await;
    let mut client = server.client("2025-11-25");
    client.initialize(json!({})).await;
    let mut stream = client
        .request_stream("tools/call", json!({ "name": "slow", "arguments": {} }))
        .await;
    let started = stream.next().await.expect("the tool's log message");
    assert_eq!(started["params"]["data"], "started");

    let _ = server.shutdown.take().expect("running").send(());
    let response = stream.next().await.expect("the call's response");
    assert_eq!(response["result"]["content"][0]["text"], "finished");
    assert_eq!(response["result"]["isError"], Value::Null);
    server
        .served
        .await
        .expect("joined")
        .expect("a clean shutdown");
    assert!(
        tokio::net::TcpStream::connect(server.address)
            .await
            .is_err(),
        "the listener is closed"
    );
}

#[tokio::test]
async fn the_authentication_hook_admits_requests_and_its_principal_reaches_tools() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("a loopback port");
    let address = listener.local_addr().expect("an address");
    let resource = format!("http://{address}/mcp");
    let http = Server::new("http-tests", "1.0.0")
        .http()
        .authenticate(|headers: &_| match bearer_token(headers)? {
            "token-of-ada" => Ok(User("ada".to_owned())),
            "token-of-grace" => Ok(User("grace".to_owned())),
            _ => Err(AuthRejection::invalid_token("unknown token")),
        })
        .protected_resource(ProtectedResource::new(
            resource.clone(),
            "https://auth.example.com",
        ));
    tokio::spawn(http.serve_on(listener));
    let metadata_url = format!("http://{address}/.well-known/oauth-protected-resource/mcp");

    let mut client = HttpClient::new(resource.clone(), "2026-07-28");
    let body = client.request_body("tools/call", json!({ "name": "whoami", "arguments": {} }));
    let anonymous = client.post_raw(client.request_headers(&body), &body).await;
    assert_eq!(anonymous.status(), StatusCode::UNAUTHORIZED);
    assert_eq!(
        anonymous.headers()["www-authenticate"],
        format!("Bearer resource_metadata=\"{metadata_url}\"").as_str()
    );

    let mut wrong = client.request_headers(&body);
    wrong.insert("authorization", HeaderValue::from_static("Bearer nope"));
    let refused = client.post_raw(wrong, &body).await;
    assert_eq!(refused.status(), StatusCode::UNAUTHORIZED);
    let challenge = refused.headers()["www-authenticate"]
        .to_str()
        .expect("ASCII");
    assert!(challenge.contains("error=\"invalid_token\""), "{challenge}");

    let metadata: Value = reqwest::get(&metadata_url)
        .await
        .expect("the metadata")
        .json_body()
        .await;
    assert_eq!(metadata["resource"], resource.as_str());
    assert_eq!(
        metadata["authorization_servers"][0],
        "https://auth.example.com"
    );

    let mut headers = client.request_headers(&body);
    headers.insert(
        "authorization",
        HeaderValue::from_static("Bearer token-of-ada"),
    );
    let call = client.post_with(headers, &body).await;
    assert_eq!(call.response()["result"]["content"][0]["text"], "ada");

    // Over a session, each request's own credentials count.
    let mut session = HttpClient::new(resource, "2025-11-25");
    let mut headers = session.base_headers();
    headers.insert(
        "authorization",
        HeaderValue::from_static("Bearer token-of-ada"),
    );
    let initialize = json!({
        "jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": { "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": { "name": "t", "version": "0" } },
    });
    let init = session.post_with(headers, &initialize).await;
    assert_eq!(init.status, StatusCode::OK);
    session.session = Some(
        init.headers["mcp-session-id"]
            .to_str()
            .expect("ASCII")
            .to_owned(),
    );
    let body = session.request_body("tools/call", json!({ "name": "whoami", "arguments": {} }));
    let mut headers = session.request_headers(&body);
    assert_eq!(
        session.post_raw(headers.clone(), &body).await.status(),
        StatusCode::UNAUTHORIZED
    );
    headers.insert(
        "authorization",
        HeaderValue::from_static("Bearer token-of-ada"),
    );
    let call = session.post_with(headers.clone(), &body).await;
    assert_eq!(call.response()["result"]["content"][0]["text"], "ada");
    // Another principal on the same session, then the first again: its tools see each
    // request's own (what a session's requests share about their caller is made again).
    for (token, user) in [
        ("Bearer token-of-grace", "grace"),
        ("Bearer token-of-ada", "ada"),
    ] {
        headers.insert("authorization", HeaderValue::from_static(token));
        let body = session.request_body("tools/call", json!({ "name": "whoami", "arguments": {} }));
        let call = session.post_with(headers.clone(), &body).await;
        assert_eq!(call.response()["result"]["content"][0]["text"], user);
    }
}

/// Reads `stream` to its end.
async fn read_all(stream: &mut mcp_http_tests::EventStream) -> Vec<Value> {
    let mut messages = Vec::new();
    while let Some(message) = stream.next().await {
        messages.push(message);
    }
    messages
}

#[tokio::test]
async fn a_dropped_call_stream_resumes_with_last_event_id() {
    let server = Running::start().await;
    for revision in SESSION_REVISIONS {
        let mut client = server.client(revision);
        client.initialize(json!({})).await;
        let mut stream = client
            .request_stream(
                "tools/call",
                json!({ "name": "count", "arguments": { "steps": 6 }, "_meta": { "progressToken": "p" } }),
            )
            .await;
        // From 2025-11-25 the stream opens with a priming event: an id, `retry`, no data.
        let primed = revision >= "2025-11-25";
        let mut seen = Vec::new();
        while progress_of(&seen).len() < 2 {
            seen.push(stream.next().await.expect("progress"));
        }
        assert_eq!(
            stream.retry,
            primed.then_some(1000),
            "{revision}: {}",
            stream.raw
        );
        if primed {
            assert!(
                stream.raw.starts_with("id: ") && stream.raw.contains("\ndata: \n\n"),
                "{revision}: the priming event comes first: {}",
                stream.raw
            );
        }
        // Every event has an id, in order.
        let ids = stream.ids.clone();
        assert_eq!(ids.len(), seen.len() + usize::from(primed), "{revision}");
        let last = ids.last().expect("an id").clone();
        drop(stream);
        // The call goes on while nobody reads; what it sends waits in the buffer.
        tokio::time::sleep(Duration::from_millis(150)).await;
        let resumed = client.resume(&last).await;
        assert_eq!(resumed.status(), StatusCode::OK, "{revision}");
        let mut resumed = mcp_http_tests::EventStream::new(resumed, revision);
        let rest = read_all(&mut resumed).await;
        let response = rest.last().expect("the response");
        assert_eq!(
            response["result"]["content"][0]["text"], "counted to 6",
            "{revision}"
        );
        // Each event exactly once across both connections: progress 1..=6, logs 6.
        let all: Vec<Value> = seen.iter().chain(&rest).cloned().collect();
        assert_eq!(
            progress_of(&all),
            [1.0, 2.0, 3.0, 4.0, 5.0, 6.0],
            "{revision}"
        );
        let logs = all
            .iter()
            .filter(|message| message["method"] == "notifications/message")
            .count();
        assert_eq!(logs, 6, "{revision}");
        let mut all_ids = ids.clone();
        all_ids.extend(resumed.ids.iter().cloned());
        let mut unique = all_ids.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), all_ids.len(), "{revision}: ids are unique");
        // Resuming from the response's id: nothing more will come, so 204 (which tells a
        // client to stop reconnecting).
        let end = resumed.ids.last().expect("ids").clone();
        assert_eq!(
            client.resume(&end).await.status(),
            StatusCode::NO_CONTENT,
            "{revision}"
        );
        // Ids that are not this server's, or of no stream, are refused.
        assert_eq!(
            client.resume("nonsense").await.status(),
            StatusCode::BAD_REQUEST
        );
        assert_eq!(
            client.resume("999-0").await.status(),
            StatusCode::BAD_REQUEST
        );
        assert_eq!(client.delete().await, StatusCode::OK);
    }
}

#[tokio::test]
async fn sse_polling_closes_call_streams_and_clients_resume_them() {
    let server = Running::start_with(|http| {
        http.sse_polling(Duration::from_millis(150))
            .sse_retry(Duration::from_millis(50))
    })
    .await;
    let mut client = server.client("2025-11-25");
    client.initialize(json!({})).await;
    let mut stream = client
        .request_stream(
            "tools/call",
            json!({ "name": "count", "arguments": { "steps": 10 }, "_meta": { "progressToken": 7 } }),
        )
        .await;
    let mut messages = read_all(&mut stream).await;
    assert_eq!(stream.retry, Some(50));
    assert!(
        messages.last().is_none_or(|last| last.get("id").is_none()),
        "the server closed the stream before the response (the call takes 600 ms)"
    );
    let mut last = stream.ids.last().expect("the priming event's id").clone();
    let mut reconnections = 0;
    let response = loop {
        reconnections += 1;
        assert!(reconnections < 50, "the response never came");
        let mut resumed =
            mcp_http_tests::EventStream::new(client.resume(&last).await, "2025-11-25");
        let more = read_all(&mut resumed).await;
        if let Some(id) = resumed.ids.last() {
            last = id.clone();
        }
        messages.extend(more);
        if let Some(response) = messages.last().filter(|last| last.get("id").is_some()) {
            break response.clone();
        }
    };
    assert!(reconnections >= 2, "polling closed the resumed streams too");
    assert_eq!(response["result"]["content"][0]["text"], "counted to 10");
    assert_eq!(
        progress_of(&messages),
        (1..=10).map(f64::from).collect::<Vec<_>>()
    );
    // Older revisions keep their streams open.
    let mut old = server.client("2025-06-18");
    old.initialize(json!({})).await;
    let reply = old
        .request(
            "tools/call",
            json!({ "name": "count", "arguments": { "steps": 4 } }),
        )
        .await;
    assert_eq!(
        reply.response()["result"]["content"][0]["text"],
        "counted to 4"
    );
}

#[tokio::test]
async fn a_session_stream_resumes_with_what_it_missed() {
    let server = Running::start().await;
    let mut client = server.client("2025-11-25");
    client.initialize(json!({})).await;
    let mut stream = mcp_http_tests::EventStream::new(client.get().await, "2025-11-25");
    assert!(!stream.ends_within(Duration::from_millis(300)).await);
    let primed = stream.ids.last().expect("a priming event").clone();
    drop(stream);
    // Changes while no GET stream is open wait in its buffer.
    assert!(server.tools.disable("slow"));
    tokio::time::sleep(Duration::from_millis(100)).await;
    let mut resumed = mcp_http_tests::EventStream::new(client.resume(&primed).await, "2025-11-25");
    let changed = resumed.next().await.expect("the missed notification");
    assert_eq!(changed["method"], "notifications/tools/list_changed");
    // The resumed stream is the session's stream now: a second plain GET conflicts.
    assert_eq!(client.get().await.status(), StatusCode::CONFLICT);
    assert!(server.tools.enable("slow"));
    let again = resumed.next().await.expect("a live notification");
    assert_eq!(again["method"], "notifications/tools/list_changed");
    assert_eq!(client.delete().await, StatusCode::OK);
    assert!(resumed.ends_within(Duration::from_secs(5)).await);
}
