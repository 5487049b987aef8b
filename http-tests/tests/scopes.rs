//! Per-tool scopes over Streamable HTTP (`#[mcp_tool(scopes = [...])]`,
//! `Server::scopes_of`): a call the bearer token's principal lacks a scope for is refused
//! with `403` and the step-up challenge (`WWW-Authenticate: Bearer error="insufficient_scope",
//! scope="..."`) before the session sees it, `tools/list` leaves out what the caller may
//! not call, and the protected-resource metadata lists every scope the tools require. Each
//! in a 2025-11-25 session and as 2026-07-28 stateless requests.

use std::net::SocketAddr;
use std::sync::Mutex;

use mcp_http_tests::{HttpClient, Reply};
use mcp_runtime::{AuthRejection, ProtectedResource, Server, bearer_token, mcp_tool};
use mcp_tests::STATELESS_REVISION;
use reqwest::StatusCode;
use reqwest::header::{HeaderMap, HeaderValue};
use serde_json::{Value, json};

/// The revisions every test runs in: a session, and stateless requests.
const REVISIONS: [&str; 2] = ["2025-11-25", STATELESS_REVISION];

/// The texts `write_note` and `admin_only` were called with: a refused call must leave
/// none. Tests run in parallel, so each looks for a text of its own.
static RAN: Mutex<Vec<String>> = Mutex::new(Vec::new());

fn ran(text: &str) -> bool {
    RAN.lock()
        .expect("not poisoned")
        .iter()
        .any(|ran| ran == text)
}

/// Read the notes.
#[mcp_tool(scopes = ["notes:read"], read_only)]
async fn read_notes() -> String {
    "the notes".to_owned()
}

/// Write a note.
#[mcp_tool(scopes = ["notes:write"])]
async fn write_note(
    /// The note.
    text: String,
) -> String {
    RAN.lock().expect("not poisoned").push(text.clone());
    format!("wrote {text}")
}

/// Anyone may ping.
#[mcp_tool]
async fn ping() -> String {
    "pong".to_owned()
}

/// Needs two scopes.
#[mcp_tool(scopes = ["notes:write", "admin"])]
async fn admin_only(
    /// What to do.
    text: String,
) -> String {
    RAN.lock().expect("not poisoned").push(text.clone());
    format!("did {text}")
}

/// The principal the authentication hook returns.
struct User {
    scopes: Vec<String>,
}

/// A server on a loopback port: bearer tokens `reader` (notes:read), `writer`
/// (notes:read, notes:write) and `nobody` (no scopes), protected-resource metadata with the
/// scope `profile`.
struct Running {
    address: SocketAddr,
}

impl Running {
    async fn start() -> Running {
        Running::start_with(|server| server).await
    }

    async fn start_with(configure: impl FnOnce(Server) -> Server) -> Running {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("a loopback port");
        let address = listener.local_addr().expect("an address");
        let server =
            configure(Server::new("scopes", "1.0.0").scopes_of(|user: &User| user.scopes.clone()));
        let http = server
            .http()
            .authenticate(|headers: &_| {
                let scopes: &[&str] = match bearer_token(headers)? {
                    "reader" => &["notes:read"],
                    "writer" => &["notes:read", "notes:write"],
                    "nobody" => &[],
                    _ => return Err(AuthRejection::invalid_token("unknown token")),
                };
                Ok(User {
                    scopes: scopes.iter().map(|scope| (*scope).to_owned()).collect(),
                })
            })
            .protected_resource(
                ProtectedResource::new(format!("http://{address}/mcp"), "https://auth.example.com")
                    .scope("profile"),
            );
        tokio::spawn(http.serve_on(listener));
        Running { address }
    }

    fn metadata_url(&self) -> String {
        format!(
            "http://{}/.well-known/oauth-protected-resource/mcp",
            self.address
        )
    }

    /// A client of `revision` sending `token`; in a session (2025-11-25) it has
    /// initialized with that token.
    async fn caller(&self, revision: &str, token: &'static str) -> Caller {
        let mut caller = Caller {
            client: HttpClient::new(format!("http://{}/mcp", self.address), revision),
            token,
        };
        if revision != STATELESS_REVISION {
            caller.initialize().await;
        }
        caller
    }
}

/// An [`HttpClient`] whose every request carries `Authorization: Bearer <token>`.
struct Caller {
    client: HttpClient,
    token: &'static str,
}

impl Caller {
    fn authorized(&self, mut headers: HeaderMap) -> HeaderMap {
        headers.insert(
            "authorization",
            HeaderValue::from_str(&format!("Bearer {}", self.token)).expect("ASCII"),
        );
        headers
    }

    async fn initialize(&mut self) {
        let body = json!({
            "jsonrpc": "2.0", "id": self.client.next_id(), "method": "initialize",
            "params": {
                "protocolVersion": self.client.revision,
                "capabilities": {},
                "clientInfo": { "name": "mcp-tests", "version": "0" },
            },
        });
        let mut headers = self.authorized(self.client.base_headers());
        headers.remove("mcp-protocol-version");
        let reply = self.client.post_with(headers, &body).await;
        assert_eq!(reply.status, StatusCode::OK, "{:?}", reply.messages);
        self.client.session = Some(
            reply.headers["mcp-session-id"]
                .to_str()
                .expect("ASCII")
                .to_owned(),
        );
        let initialized = json!({ "jsonrpc": "2.0", "method": "notifications/initialized" });
        let reply = self
            .client
            .post_with(self.authorized(self.client.base_headers()), &initialized)
            .await;
        assert_eq!(reply.status, StatusCode::ACCEPTED);
    }

    /// A request with its reply read and checked against the schema.
    async fn request(&mut self, method: &str, params: Value) -> Reply {
        let body = self.client.request_body(method, params);
        let headers = self.authorized(self.client.request_headers(&body));
        let reply = self.client.post_with(headers, &body).await;
        if let Some(result) = reply.messages.last().and_then(|last| last.get("result")) {
            mcp_tests::check_result(&self.client.revision, method, result);
        }
        reply
    }

    /// A `tools/call` answered with a result; its text.
    async fn call_ok(&mut self, name: &str, arguments: Value) -> String {
        let reply = self
            .request(
                "tools/call",
                json!({ "name": name, "arguments": arguments }),
            )
            .await;
        assert_eq!(reply.status, StatusCode::OK, "{name}: {:?}", reply.messages);
        let result = &reply.response()["result"];
        assert_ne!(result["isError"], json!(true), "{name}: {result}");
        result["content"][0]["text"]
            .as_str()
            .expect("a text block")
            .to_owned()
    }

    /// A `tools/call` sent raw, to read a refusal as it is: the request's id, and the
    /// reply's status, headers and JSON body.
    async fn call_raw(&mut self, name: &str, arguments: Value) -> (Value, Refusal) {
        let body = self.client.request_body(
            "tools/call",
            json!({ "name": name, "arguments": arguments }),
        );
        let headers = self.authorized(self.client.request_headers(&body));
        let response = self.client.post_raw(headers, &body).await;
        let status = response.status();
        let headers = response.headers().clone();
        let bytes = response.bytes().await.expect("a body");
        let message: Value = serde_json::from_slice(&bytes)
            .unwrap_or_else(|error| panic!("a JSON body ({error}): {bytes:?}"));
        (
            body["id"].clone(),
            Refusal {
                status,
                headers,
                message,
            },
        )
    }

    /// The names `tools/list` gives, sorted; but `add`, the unscoped tool of the
    /// `mcp-tests` library (`duplicate_across_crates`), which this binary links.
    async fn tool_names(&mut self) -> Vec<String> {
        let reply = self.request("tools/list", json!({})).await;
        assert_eq!(reply.status, StatusCode::OK, "{:?}", reply.messages);
        let result = &reply.response()["result"];
        assert!(result.get("nextCursor").is_none(), "one page: {result}");
        let mut names: Vec<String> = result["tools"]
            .as_array()
            .expect("a list of tools")
            .iter()
            .map(|tool| tool["name"].as_str().expect("a name").to_owned())
            .filter(|name| name != "add")
            .collect();
        names.sort();
        names
    }
}

struct Refusal {
    status: StatusCode,
    headers: HeaderMap,
    message: Value,
}

/// The parameters of a `WWW-Authenticate: Bearer k="v", ...` challenge, in order; panics
/// on anything else (another scheme, an unquoted value, a stray character).
fn bearer_parameters(challenge: &str) -> Vec<(String, String)> {
    let mut rest = challenge
        .strip_prefix("Bearer ")
        .unwrap_or_else(|| panic!("not a Bearer challenge: {challenge}"));
    let mut parameters = Vec::new();
    while !rest.is_empty() {
        let (key, after) = rest
            .split_once("=\"")
            .unwrap_or_else(|| panic!("a quoted parameter in {challenge}"));
        let end = after
            .find('"')
            .unwrap_or_else(|| panic!("a closing quote in {challenge}"));
        parameters.push((key.to_owned(), after[..end].to_owned()));
        rest = &after[end + 1..];
        if !rest.is_empty() {
            rest = rest
                .strip_prefix(", ")
                .unwrap_or_else(|| panic!("`, ` between parameters in {challenge}"));
        }
    }
    parameters
}

/// Checks the `403` of a call that lacks `missing` (each scope the tool needs and the
/// caller lacks, in the order the tool lists them, space-separated).
fn assert_insufficient_scope(
    server: &Running,
    revision: &str,
    refusal: &Refusal,
    description: &str,
    missing: &str,
) {
    assert_eq!(
        refusal.status,
        StatusCode::FORBIDDEN,
        "{revision}: {}",
        refusal.message
    );
    let challenge = refusal.headers["www-authenticate"]
        .to_str()
        .expect("an ASCII challenge");
    let parameters = bearer_parameters(challenge);
    let expected = [
        ("resource_metadata", server.metadata_url()),
        ("error", "insufficient_scope".to_owned()),
        ("scope", missing.to_owned()),
        ("error_description", description.to_owned()),
    ]
    .map(|(key, value)| (key.to_owned(), value));
    assert_eq!(parameters, expected, "{revision}: {challenge}");

    assert_eq!(
        refusal.headers["content-type"], "application/json",
        "{revision}"
    );
    let message = &refusal.message;
    mcp_tests::check_server_message(revision, message);
    assert_eq!(message["jsonrpc"], "2.0", "{revision}: {message}");
    assert_eq!(
        message["error"]["code"],
        json!(-32600),
        "{revision}: {message}"
    );
    assert_eq!(
        message["error"]["message"],
        format!("Forbidden: {description}").as_str(),
        "{revision}"
    );
}

#[tokio::test]
async fn a_call_lacking_a_scope_is_refused_with_403_and_the_step_up_challenge() {
    let server = Running::start().await;
    for revision in REVISIONS {
        let mut reader = server.caller(revision, "reader").await;
        let text = format!("refused note ({revision})");
        let (_, refusal) = reader.call_raw("write_note", json!({ "text": text })).await;
        assert_insufficient_scope(
            &server,
            revision,
            &refusal,
            "Tool `write_note` needs the scope `notes:write`, which the caller does not hold.",
            "notes:write",
        );
        assert!(!ran(&text), "{revision}: the refused tool did not run");

        // The same session (or client) goes on: a call it may make is served.
        assert_eq!(reader.call_ok("read_notes", json!({})).await, "the notes");
        assert_eq!(reader.call_ok("ping", json!({})).await, "pong");
    }
}

#[tokio::test]
async fn the_challenge_names_only_the_scopes_the_caller_lacks() {
    let server = Running::start().await;
    for revision in REVISIONS {
        // The reader lacks both of admin_only's scopes, in the order the tool lists them.
        let mut reader = server.caller(revision, "reader").await;
        let text = format!("reader's admin ({revision})");
        let (_, refusal) = reader.call_raw("admin_only", json!({ "text": text })).await;
        assert_insufficient_scope(
            &server,
            revision,
            &refusal,
            "Tool `admin_only` needs the scopes `notes:write`, `admin`, which the caller does not hold.",
            "notes:write admin",
        );

        // The writer holds notes:write, so only admin is missing.
        let mut writer = server.caller(revision, "writer").await;
        let text_of_writer = format!("writer's admin ({revision})");
        let (_, refusal) = writer
            .call_raw("admin_only", json!({ "text": text_of_writer }))
            .await;
        assert_insufficient_scope(
            &server,
            revision,
            &refusal,
            "Tool `admin_only` needs the scope `admin`, which the caller does not hold.",
            "admin",
        );

        // A principal with no scopes at all.
        let mut nobody = server.caller(revision, "nobody").await;
        let (_, refusal) = nobody.call_raw("read_notes", json!({})).await;
        assert_insufficient_scope(
            &server,
            revision,
            &refusal,
            "Tool `read_notes` needs the scope `notes:read`, which the caller does not hold.",
            "notes:read",
        );
        assert_eq!(nobody.call_ok("ping", json!({})).await, "pong");

        assert!(!ran(&text) && !ran(&text_of_writer), "{revision}");
        assert_eq!(writer.call_ok("ping", json!({})).await, "pong");
    }
}

#[tokio::test]
async fn a_call_with_the_scopes_runs_the_tool() {
    let server = Running::start().await;
    for revision in REVISIONS {
        let mut writer = server.caller(revision, "writer").await;
        let text = format!("allowed note ({revision})");
        assert_eq!(
            writer.call_ok("write_note", json!({ "text": text })).await,
            format!("wrote {text}")
        );
        assert!(ran(&text), "{revision}");
        assert_eq!(writer.call_ok("read_notes", json!({})).await, "the notes");

        let mut reader = server.caller(revision, "reader").await;
        assert_eq!(reader.call_ok("read_notes", json!({})).await, "the notes");
    }
}

#[tokio::test]
async fn tools_list_leaves_out_what_the_caller_may_not_call() {
    let server = Running::start().await;
    for revision in REVISIONS {
        let mut reader = server.caller(revision, "reader").await;
        assert_eq!(
            reader.tool_names().await,
            ["ping", "read_notes"],
            "{revision}"
        );
        let mut writer = server.caller(revision, "writer").await;
        assert_eq!(
            writer.tool_names().await,
            ["ping", "read_notes", "write_note"],
            "{revision}"
        );
        let mut nobody = server.caller(revision, "nobody").await;
        assert_eq!(nobody.tool_names().await, ["ping"], "{revision}");
    }
}

#[tokio::test]
async fn in_a_session_each_request_lists_for_its_own_token() {
    // Credentials are per request: a session opened by the reader lists the writer's tools
    // for a request that carries the writer's token.
    let server = Running::start().await;
    let mut caller = server.caller("2025-11-25", "reader").await;
    assert_eq!(caller.tool_names().await, ["ping", "read_notes"]);
    caller.token = "writer";
    assert_eq!(
        caller.tool_names().await,
        ["ping", "read_notes", "write_note"]
    );
    caller.token = "reader";
    assert_eq!(caller.tool_names().await, ["ping", "read_notes"]);
}

#[tokio::test]
async fn without_hiding_everyone_sees_every_tool_and_calls_are_still_refused() {
    let server = Running::start_with(|server| server.hide_forbidden_tools(false)).await;
    for revision in REVISIONS {
        for token in ["reader", "writer", "nobody"] {
            let mut caller = server.caller(revision, token).await;
            assert_eq!(
                caller.tool_names().await,
                ["admin_only", "ping", "read_notes", "write_note"],
                "{revision} {token}"
            );
        }
        let mut nobody = server.caller(revision, "nobody").await;
        let text = format!("shown but refused ({revision})");
        let (_, refusal) = nobody.call_raw("write_note", json!({ "text": text })).await;
        assert_insufficient_scope(
            &server,
            revision,
            &refusal,
            "Tool `write_note` needs the scope `notes:write`, which the caller does not hold.",
            "notes:write",
        );
        assert!(!ran(&text), "{revision}");
    }
}

#[tokio::test]
async fn the_metadata_lists_its_own_scopes_and_every_scope_a_tool_requires() {
    let server = Running::start().await;
    for url in [
        server.metadata_url(),
        format!(
            "http://{}/.well-known/oauth-protected-resource",
            server.address
        ),
    ] {
        let response = reqwest::get(&url).await.expect("the metadata");
        assert_eq!(response.status(), StatusCode::OK, "{url}");
        let metadata: Value =
            serde_json::from_slice(&response.bytes().await.expect("a body")).expect("JSON");
        assert_eq!(
            metadata["resource"],
            format!("http://{}/mcp", server.address).as_str()
        );
        // Its own first, then the tools' (sorted), each once: notes:write is required by
        // two tools.
        assert_eq!(
            metadata["scopes_supported"],
            json!(["profile", "admin", "notes:read", "notes:write"]),
            "{url}"
        );
    }
}

#[tokio::test]
async fn the_refusal_answers_the_request_it_refuses() {
    // JSON-RPC 2.0: a response carries the id of its request (null only when the id could
    // not be read); the request was parsed before it was refused, so its id is known.
    let server = Running::start().await;
    for revision in REVISIONS {
        let mut reader = server.caller(revision, "reader").await;
        let (id, refusal) = reader
            .call_raw("write_note", json!({ "text": format!("id ({revision})") }))
            .await;
        assert_eq!(refusal.status, StatusCode::FORBIDDEN, "{revision}");
        assert_eq!(
            refusal.message.get("id"),
            Some(&id),
            "{revision}: {}",
            refusal.message
        );
    }
}
