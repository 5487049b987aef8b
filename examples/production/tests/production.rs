//! The production example as a real process on a real socket: scopes per user (403 with a
//! step-up challenge, listings per user), the middleware (the cache cleared by writes, the
//! audit record on stderr, the maintenance guard on the `admin` tools) and the Prometheus
//! endpoint scraped and parsed. Every message is checked against the 2026-07-28 schema.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};

use mcp_http_tests::HttpClient;
use reqwest::StatusCode;
use reqwest::header::HeaderValue;
use serde_json::{Value, json};

const TOKENS: &str =
    "ada=token-of-ada:notes:read+notes:write+notes:admin,bob=token-of-bob:notes:read";

/// The example running on a free loopback port, its stderr kept.
struct Served {
    child: Child,
    url: String,
    base: String,
    stderr: Arc<Mutex<Vec<String>>>,
}

impl Served {
    fn start(maintenance: bool) -> Served {
        let mut command = Command::new(env!("CARGO_BIN_EXE_production"));
        command
            .arg("127.0.0.1:0")
            .env("MCP_TOKENS", TOKENS)
            .env("RUST_LOG", "mcp_runtime::audit=info")
            .env_remove("OTEL_EXPORTER_OTLP_ENDPOINT")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped());
        if maintenance {
            command.env("MCP_MAINTENANCE", "1");
        }
        let mut child = command.spawn().expect("the example starts");
        let mut stderr = BufReader::new(child.stderr.take().expect("piped stderr"));
        let url = loop {
            let mut line = String::new();
            let read = stderr.read_line(&mut line).expect("the server's stderr");
            assert!(read > 0, "the server exited before printing its endpoint");
            if let Some(url) = line.trim().strip_prefix("MCP server listening on ") {
                break url.to_owned();
            }
        };
        let lines = Arc::new(Mutex::new(Vec::new()));
        let kept = Arc::clone(&lines);
        std::thread::spawn(move || {
            for line in stderr.lines().map_while(Result::ok) {
                kept.lock().unwrap().push(line);
            }
        });
        let base = url.trim_end_matches("/mcp").to_owned();
        Served {
            child,
            url,
            base,
            stderr: lines,
        }
    }

    fn client(&self) -> HttpClient {
        HttpClient::new(self.url.clone(), "2026-07-28")
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Sends a 2026-07-28 request as `token`'s user; the status and the response.
async fn request(
    client: &mut HttpClient,
    token: &str,
    method: &str,
    params: Value,
) -> (StatusCode, Value, reqwest::header::HeaderMap) {
    let body = client.request_body(method, params);
    let mut headers = client.request_headers(&body);
    headers.insert(
        "authorization",
        HeaderValue::from_str(&format!("Bearer {token}")).unwrap(),
    );
    let reply = client.post_with(headers, &body).await;
    (reply.status, reply.response().clone(), reply.headers)
}

async fn call(client: &mut HttpClient, token: &str, tool: &str, arguments: Value) -> Value {
    let (status, response, _) = request(
        client,
        token,
        "tools/call",
        json!({ "name": tool, "arguments": arguments }),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{response}");
    response["result"].clone()
}

fn text(result: &Value) -> &str {
    result["content"][0]["text"].as_str().unwrap_or_default()
}

#[tokio::test]
async fn each_user_may_do_what_their_scopes_allow() {
    let served = Served::start(false);
    let mut client = served.client();
    // bob reads, but may not write: a step-up challenge naming the scope.
    let (status, response, headers) = request(
        &mut client,
        "token-of-bob",
        "tools/call",
        json!({ "name": "add_note", "arguments": { "text": "from bob" } }),
    )
    .await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{response}");
    let challenge = headers["www-authenticate"].to_str().unwrap();
    assert!(
        challenge.contains(r#"error="insufficient_scope""#)
            && challenge.contains(r#"scope="notes:write""#),
        "{challenge}"
    );
    let added = call(
        &mut client,
        "token-of-ada",
        "add_note",
        json!({ "text": "Ship it" }),
    )
    .await;
    assert_eq!(added["structuredContent"]["author"], "ada", "{added}");
    let found = call(
        &mut client,
        "token-of-bob",
        "search_notes",
        json!({ "word": "ship" }),
    )
    .await;
    assert_eq!(
        found["structuredContent"]["result"][0]["text"], "Ship it",
        "{found}"
    );
    // Listings per user: bob does not see the tools he may not call.
    let (_, bobs, _) = request(&mut client, "token-of-bob", "tools/list", json!({})).await;
    let names: Vec<&str> = bobs["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|tool| tool["name"].as_str())
        .collect();
    assert_eq!(names, ["search_notes", "whoami"]);
    let (_, adas, _) = request(&mut client, "token-of-ada", "tools/list", json!({})).await;
    assert_eq!(adas["result"]["tools"].as_array().unwrap().len(), 4);
    // A resource needs its scope too; an unknown token is 401.
    let (status, _, _) = request(
        &mut client,
        "token-of-nobody",
        "resources/read",
        json!({ "uri": "notes://1" }),
    )
    .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn writes_clear_the_search_cache_and_every_request_is_audited() {
    let served = Served::start(false);
    let mut client = served.client();
    call(
        &mut client,
        "token-of-ada",
        "add_note",
        json!({ "text": "alpha" }),
    )
    .await;
    let first = call(
        &mut client,
        "token-of-ada",
        "search_notes",
        json!({ "word": "a" }),
    )
    .await;
    assert_eq!(
        first["structuredContent"]["result"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
    call(
        &mut client,
        "token-of-ada",
        "add_note",
        json!({ "text": "beta" }),
    )
    .await;
    let second = call(
        &mut client,
        "token-of-ada",
        "search_notes",
        json!({ "word": "a" }),
    )
    .await;
    assert_eq!(
        second["structuredContent"]["result"]
            .as_array()
            .unwrap()
            .len(),
        2,
        "the cache was cleared by the write: {second}"
    );
    // The audit records reach stderr a moment after each answer.
    let audited = || {
        served
            .stderr
            .lock()
            .unwrap()
            .iter()
            .filter(|line| line.contains("mcp_runtime::audit") && line.contains("caller=ada"))
            .count()
    };
    for _ in 0..50 {
        if audited() >= 4 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert_eq!(audited(), 4, "{:?}", served.stderr.lock().unwrap());
}

#[tokio::test]
async fn admin_tools_are_refused_in_maintenance() {
    let served = Served::start(true);
    let mut client = served.client();
    let refused = call(
        &mut client,
        "token-of-ada",
        "delete_note",
        json!({ "id": 1 }),
    )
    .await;
    assert_eq!(refused["isError"], true);
    assert_eq!(
        text(&refused),
        "`delete_note` is unavailable while the server is in maintenance; try again later."
    );
    let allowed = call(&mut client, "token-of-ada", "whoami", json!({})).await;
    assert_eq!(text(&allowed), "ada (notes:read, notes:write, notes:admin)");
}

#[tokio::test]
async fn prometheus_scrapes_the_request_metrics() {
    let served = Served::start(false);
    let mut client = served.client();
    call(&mut client, "token-of-bob", "whoami", json!({})).await;
    call(
        &mut client,
        "token-of-bob",
        "search_notes",
        json!({ "word": "x" }),
    )
    .await;
    let metrics = format!("{}/metrics", served.base);
    // Behind the MCP endpoint's tokens: a scraper carries one.
    let anonymous = reqwest::get(&metrics).await.unwrap();
    assert_eq!(anonymous.status(), StatusCode::UNAUTHORIZED);
    let scraped = reqwest::Client::new()
        .get(&metrics)
        .bearer_auth("token-of-bob")
        .send()
        .await
        .unwrap();
    assert_eq!(scraped.status(), StatusCode::OK);
    let text = scraped.text().await.unwrap();
    assert!(
        text.contains("# TYPE mcp_server_operation_duration_seconds histogram"),
        "{text}"
    );
    let whoami_count = text
        .lines()
        .find(|line| {
            line.starts_with("mcp_server_operation_duration_seconds_count")
                && line.contains(r#"gen_ai_tool_name="whoami""#)
        })
        .unwrap_or_else(|| panic!("no whoami series: {text}"));
    assert!(whoami_count.ends_with(" 1"), "{whoami_count}");
}
