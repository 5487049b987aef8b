//! The HTTP example as a real process on a real socket, driven over HTTP: both protocol
//! eras, progress on a call's SSE stream, the Host/Origin guard and its options, bearer
//! tokens, and a graceful shutdown on SIGTERM. Every message the server sends is checked
//! against the official schema of the revision in use.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use mcp_http_tests::HttpClient;
use mcp_runtime::testing::assert_json_snapshot;
use reqwest::StatusCode;
use reqwest::header::{HeaderMap, HeaderValue};
use serde_json::{Value, json};

/// The example running on a free loopback port.
struct Served {
    child: Child,
    url: String,
}

impl Served {
    fn start(args: &[&str], tokens: Option<&str>) -> Served {
        let mut command = Command::new(env!("CARGO_BIN_EXE_http"));
        command
            .arg("127.0.0.1:0")
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .env_remove("MCP_HTTP_TOKENS");
        if let Some(tokens) = tokens {
            command.env("MCP_HTTP_TOKENS", tokens);
        }
        let mut child = command.spawn().expect("the http example starts");
        let mut stderr = BufReader::new(child.stderr.take().expect("piped stderr"));
        let url = loop {
            let mut line = String::new();
            let read = stderr.read_line(&mut line).expect("the server's stderr");
            assert!(read > 0, "the server exited before printing its endpoint");
            if let Some(url) = line.strip_prefix("MCP endpoint: ") {
                break url.trim().to_owned();
            }
            eprint!("{line}");
        };
        // Keep draining stderr, so the server never blocks writing its logs.
        std::thread::spawn(move || {
            for line in stderr.lines().map_while(Result::ok) {
                eprintln!("{line}");
            }
        });
        Served { child, url }
    }

    /// Sends SIGTERM and waits for the process to exit.
    fn terminate(&mut self) -> ExitStatus {
        let sent = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status()
            .expect("kill runs");
        assert!(sent.success());
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            if let Some(status) = self.child.try_wait().expect("try_wait") {
                return status;
            }
            assert!(Instant::now() < deadline, "the server did not exit");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A 2026-07-28 `tools/call` of `whoami`, ready to send with extra headers.
fn whoami_request(client: &mut HttpClient) -> (Value, HeaderMap) {
    let body = client.request_body("tools/call", json!({"name": "whoami", "arguments": {}}));
    let headers = client.request_headers(&body);
    (body, headers)
}

#[tokio::test]
async fn tools_over_http_in_both_eras() {
    let served = Served::start(&[], None);
    let mut client = HttpClient::new(&served.url, "2025-11-25");
    let init = client.initialize(json!({})).await;
    assert_eq!(init.response()["result"]["serverInfo"]["name"], "http");

    let tools = client.request("tools/list", json!({})).await.response()["result"]["tools"].clone();
    let snapshot = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots/http.tools.json");
    assert_json_snapshot(snapshot, &tools);

    let counted = client
        .request(
            "tools/call",
            json!({"name": "word_count", "arguments": {"text": "one two\nthree ✓"}}),
        )
        .await;
    assert!(counted.event_stream, "a tools/call is answered with SSE");
    assert_eq!(
        counted.response()["result"]["structuredContent"],
        json!({"lines": 2, "words": 4, "characters": 15})
    );

    // Progress travels on the call's stream, before the result.
    let countdown = client
        .request(
            "tools/call",
            json!({"name": "countdown", "arguments": {"from": 3, "step_ms": 100},
                   "_meta": {"progressToken": "launch"}}),
        )
        .await;
    let (progress, rest) = countdown.messages.split_at(countdown.messages.len() - 1);
    assert!(!progress.is_empty());
    assert!(
        progress
            .iter()
            .all(|message| message["method"] == "notifications/progress")
    );
    assert_eq!(
        progress.last().unwrap()["params"],
        json!({"progressToken": "launch", "progress": 3.0, "total": 3.0, "message": "0"})
    );
    assert_eq!(rest[0]["result"]["content"][0]["text"], "liftoff");

    let whoami = client
        .request("tools/call", json!({"name": "whoami", "arguments": {}}))
        .await;
    assert!(
        whoami.response()["result"]["content"][0]["text"]
            .as_str()
            .unwrap()
            .starts_with("anonymous")
    );
    assert_eq!(client.delete().await, StatusCode::OK);

    // 2026-07-28: no session, every request stands alone.
    let mut stateless = HttpClient::new(&served.url, "2026-07-28");
    let listed = stateless.request("tools/list", json!({})).await;
    assert_eq!(listed.response()["result"]["tools"], tools);
    let counted = stateless
        .request(
            "tools/call",
            json!({"name": "word_count", "arguments": {"text": "a b"}}),
        )
        .await;
    assert_eq!(
        counted.response()["result"]["structuredContent"]["words"],
        2
    );
}

#[tokio::test]
async fn foreign_hosts_and_origins_are_refused_unless_allowed() {
    let defaults = Served::start(&[], None);
    let mut client = HttpClient::new(&defaults.url, "2026-07-28");
    let (body, headers) = whoami_request(&mut client);
    let status = |headers: HeaderMap| {
        let client = &client;
        let body = &body;
        async move { client.post_raw(headers, body).await.status() }
    };
    assert_eq!(status(headers.clone()).await, StatusCode::OK);
    let with = |name: &'static str, value: &'static str| {
        let mut headers = headers.clone();
        headers.insert(name, HeaderValue::from_static(value));
        headers
    };
    assert_eq!(
        status(with("host", "evil.example.com")).await,
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        status(with("origin", "https://evil.example.com")).await,
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        status(with("origin", "http://localhost:5173")).await,
        StatusCode::OK
    );
    assert_eq!(
        status(with("host", "mcp.example.com")).await,
        StatusCode::FORBIDDEN
    );

    let allowing = Served::start(
        &[
            "--allow-host",
            "mcp.example.com",
            "--allow-origin",
            "https://app.example.com",
        ],
        None,
    );
    let mut client = HttpClient::new(&allowing.url, "2026-07-28");
    let (body, headers) = whoami_request(&mut client);
    for (name, value, expected) in [
        ("host", "mcp.example.com", StatusCode::OK),
        ("origin", "https://app.example.com", StatusCode::OK),
        ("host", "evil.example.com", StatusCode::FORBIDDEN),
        ("origin", "https://evil.example.com", StatusCode::FORBIDDEN),
    ] {
        let mut headers = headers.clone();
        headers.insert(name, HeaderValue::from_static(value));
        assert_eq!(
            client.post_raw(headers, &body).await.status(),
            expected,
            "{name}: {value}"
        );
    }
}

#[tokio::test]
async fn bearer_tokens_name_the_caller() {
    let served = Served::start(&[], Some("ada=token-of-ada, grace=token-of-grace"));
    let mut client = HttpClient::new(&served.url, "2026-07-28");
    let (body, headers) = whoami_request(&mut client);

    let anonymous = client.post_raw(headers.clone(), &body).await;
    assert_eq!(anonymous.status(), StatusCode::UNAUTHORIZED);
    assert_eq!(anonymous.headers()["www-authenticate"], "Bearer");

    let mut wrong = headers.clone();
    wrong.insert(
        "authorization",
        HeaderValue::from_static("Bearer token-of-eve"),
    );
    let refused = client.post_raw(wrong, &body).await;
    assert_eq!(refused.status(), StatusCode::UNAUTHORIZED);
    let challenge = refused.headers()["www-authenticate"].to_str().unwrap();
    assert!(challenge.contains("error=\"invalid_token\""), "{challenge}");

    for (token, user) in [("token-of-ada", "ada"), ("token-of-grace", "grace")] {
        let mut headers = headers.clone();
        headers.insert(
            "authorization",
            HeaderValue::from_str(&format!("Bearer {token}")).unwrap(),
        );
        let reply = client.post_with(headers, &body).await;
        assert_eq!(reply.response()["result"]["content"][0]["text"], user);
    }
}

#[tokio::test]
async fn sigterm_lets_the_call_in_flight_finish_then_exits_0() {
    let mut served = Served::start(&[], None);
    let mut client = HttpClient::new(&served.url, "2026-07-28");
    let mut stream = client
        .request_stream(
            "tools/call",
            json!({"name": "countdown", "arguments": {"from": 3, "step_ms": 300}}),
        )
        .await;
    let status = tokio::task::spawn_blocking(move || served.terminate());
    let mut last = None;
    while let Some(message) = stream.next().await {
        last = Some(message);
    }
    assert_eq!(
        last.expect("the response")["result"]["content"][0]["text"],
        "liftoff"
    );
    assert!(status.await.unwrap().success());
}

#[test]
fn bad_command_lines_and_token_lists_are_refused() {
    let run = |args: &[&str], tokens: Option<&str>| {
        let mut command = Command::new(env!("CARGO_BIN_EXE_http"));
        command.args(args).env_remove("MCP_HTTP_TOKENS");
        if let Some(tokens) = tokens {
            command.env("MCP_HTTP_TOKENS", tokens);
        }
        let output = command.output().unwrap();
        (
            output.status.code(),
            String::from_utf8_lossy(&output.stderr).into_owned(),
        )
    };
    let (code, stderr) = run(&["--bogus"], None);
    assert_eq!(code, Some(2));
    assert!(stderr.contains("usage: http [ADDRESS]"), "{stderr}");
    let (code, stderr) = run(&["127.0.0.1:0"], Some("ada"));
    assert_eq!(code, Some(2));
    assert!(stderr.contains("is not `name=token`"), "{stderr}");
}
