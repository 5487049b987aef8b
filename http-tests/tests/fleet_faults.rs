//! A fleet for real, when something fails: instances of the conformance example
//! (`target/debug/conformance`) or of the tasks fixture (`target/debug/tasks`), each started
//! with `--http 127.0.0.1:PORT --redis URL` against one `redis-server`, behind nginx round
//! robin with no stickiness (`mcp_http_tests::fleet::Fleet`). Every message is checked
//! against the 2025-11-25 schema (2026-07-28 for the stateless client).
//!
//! The faults: Redis restarted under load (session clients get their results or refusals
//! that say so, then a new session; a 2026-07-28 client is served throughout), an instance
//! killed (SIGKILL) and restarted under load (sessions and their log levels outlive it), and
//! Redis unreachable at start-up (an instance exits at once, saying why). A fleet where all
//! goes well is tested in `fleet.rs`.
//!
//! Needs nginx and redis-server, and the two binaries built (`cargo test --workspace`
//! builds them; `cargo build --bin conformance --bin tasks` otherwise).

use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use mcp_http_tests::fleet::calls::{call, is_response, logs_in};
use mcp_http_tests::fleet::{Fleet, conformance, tail, tasks};
use mcp_http_tests::{HttpClient, Reply};
use mcp_runtime::testing::free_loopback_port;
use reqwest::StatusCode;
use serde_json::{Value, json};
use tokio::sync::Mutex;

/// The session revision of these tests.
const REVISION: &str = "2025-11-25";

/// What became of one request in the load tests.
#[derive(Debug, Clone)]
enum Outcome {
    /// Its result, exactly once.
    Answered,
    /// HTTP 503 and a JSON-RPC error saying the store is unavailable.
    Unavailable,
    /// HTTP 404: the session is gone.
    Gone,
    /// Anything else: what happened.
    Failed(String),
}

#[derive(Debug, Clone)]
struct Record {
    /// When it was sent, since the test started.
    sent: Duration,
    /// When its answer (or failure) came.
    answered: Duration,
    client: String,
    method: String,
    outcome: Outcome,
}

/// A request's reply classified: one response to `id` (the body's messages are schema-checked
/// by `try_post_with`).
fn classify(reply: &Reply, id: &Value) -> Outcome {
    let responses: Vec<&Value> = reply.messages.iter().filter(|m| is_response(m)).collect();
    match reply.status {
        StatusCode::OK => match responses.as_slice() {
            [response] if response["id"] == *id && response.get("result").is_some() => {
                Outcome::Answered
            }
            _ => Outcome::Failed(format!(
                "200 without exactly one result for {id}: {:?}",
                reply.messages
            )),
        },
        StatusCode::SERVICE_UNAVAILABLE => match responses.as_slice() {
            [response]
                if (response["id"] == *id || response["id"].is_null())
                    && response["error"]["message"]
                        .as_str()
                        .is_some_and(|message| message.to_lowercase().contains("unavailable")) =>
            {
                Outcome::Unavailable
            }
            _ => Outcome::Failed(format!(
                "503 without one JSON-RPC error saying the store is unavailable: {:?}",
                reply.messages
            )),
        },
        StatusCode::NOT_FOUND => Outcome::Gone,
        status => Outcome::Failed(format!("{status}: {:?}", reply.messages)),
    }
}

/// POSTs the request `body` at `client.url` and classifies the reply; 10 s without one is a
/// failure.
async fn attempt(client: &HttpClient, body: &Value) -> Outcome {
    let headers = client.request_headers(body);
    match tokio::time::timeout(Duration::from_secs(10), client.try_post_with(headers, body)).await {
        Err(_) => Outcome::Failed("no answer within 10 s".to_owned()),
        Ok(Err(error)) => Outcome::Failed(error),
        Ok(Ok(reply)) => classify(&reply, &body["id"]),
    }
}

/// `initialize` + `notifications/initialized`, failing softly; keeps the session on success.
async fn try_initialize(client: &mut HttpClient) -> Outcome {
    client.session = None;
    let body = json!({
        "jsonrpc": "2.0", "id": client.next_id(), "method": "initialize",
        "params": {
            "protocolVersion": REVISION,
            "capabilities": {},
            "clientInfo": { "name": "mcp-fleet-tests", "version": "0" },
        },
    });
    let mut headers = client.base_headers();
    headers.remove("mcp-protocol-version");
    let reply = match tokio::time::timeout(
        Duration::from_secs(10),
        client.try_post_with(headers, &body),
    )
    .await
    {
        Err(_) => return Outcome::Failed("initialize: no answer within 10 s".to_owned()),
        Ok(Err(error)) => return Outcome::Failed(format!("initialize: {error}")),
        Ok(Ok(reply)) => reply,
    };
    let outcome = classify(&reply, &body["id"]);
    if !matches!(outcome, Outcome::Answered) {
        return outcome;
    }
    let Some(session) = reply.headers.get("mcp-session-id") else {
        return Outcome::Failed("initialize answered without Mcp-Session-Id".to_owned());
    };
    client.session = Some(session.to_str().expect("ASCII").to_owned());
    let initialized = json!({ "jsonrpc": "2.0", "method": "notifications/initialized" });
    match client
        .try_post_with(client.base_headers(), &initialized)
        .await
    {
        Ok(reply) if reply.status == StatusCode::ACCEPTED => Outcome::Answered,
        Ok(reply) if reply.status == StatusCode::SERVICE_UNAVAILABLE => {
            client.session = None;
            Outcome::Unavailable
        }
        Ok(reply) if reply.status == StatusCode::NOT_FOUND => {
            client.session = None;
            Outcome::Gone
        }
        Ok(reply) => Outcome::Failed(format!(
            "notifications/initialized: {} {:?}",
            reply.status, reply.messages
        )),
        Err(error) => Outcome::Failed(format!("notifications/initialized: {error}")),
    }
}

/// A session client looping calls of `tool` through `url` until `until`: (re-)initializes
/// when it has no session or its session is gone (404); pauses 50 ms after a failure.
async fn session_loop(
    name: String,
    url: String,
    tool: &'static str,
    started: Instant,
    until: Instant,
) -> Vec<Record> {
    let mut client = HttpClient::new(url, REVISION);
    let mut records = Vec::new();
    while Instant::now() < until {
        let sent = started.elapsed();
        let (method, outcome) = if client.session.is_none() {
            ("initialize", try_initialize(&mut client).await)
        } else {
            let body = client.request_body("tools/call", json!({ "name": tool, "arguments": {} }));
            let outcome = attempt(&client, &body).await;
            if matches!(outcome, Outcome::Gone) {
                client.session = None;
            }
            ("tools/call", outcome)
        };
        let failed = !matches!(outcome, Outcome::Answered);
        records.push(Record {
            sent,
            answered: started.elapsed(),
            client: name.clone(),
            method: method.to_owned(),
            outcome,
        });
        if failed {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
    records
}

/// A 2026-07-28 client (no session) looping calls through `url` until `until`.
async fn stateless_loop(url: String, started: Instant, until: Instant) -> Vec<Record> {
    let mut client = HttpClient::new(url, "2026-07-28");
    let mut records = Vec::new();
    while Instant::now() < until {
        let sent = started.elapsed();
        let body = client.request_body(
            "tools/call",
            json!({ "name": "test_simple_text", "arguments": {} }),
        );
        let outcome = attempt(&client, &body).await;
        records.push(Record {
            sent,
            answered: started.elapsed(),
            client: "stateless".to_owned(),
            method: "tools/call".to_owned(),
            outcome,
        });
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    records
}

fn show(records: &[&Record]) -> String {
    records
        .iter()
        .map(|record| {
            format!(
                "\n  {:>6.2}s..{:.2}s {} {} -> {:?}",
                record.sent.as_secs_f64(),
                record.answered.as_secs_f64(),
                record.client,
                record.method,
                record.outcome
            )
        })
        .collect()
}

/// Redis stopped for 2 s and started again (empty: it keeps nothing, `--save ""`) while four
/// session clients and a 2026-07-28 client loop calls through nginx for 8 s.
///
/// Asserted: every request gets exactly one answer within 10 s: its result, or HTTP 503 with
/// a JSON-RPC error saying the store is unavailable, or (only once Redis is back, since the
/// restarted Redis no longer knows the session) 404, after which the client initializes a
/// new session; nothing else (no hang, no other status, no response twice). While Redis is
/// down, `initialize` is refused with 503, every session client sees 503s, and the stateless
/// client is served throughout. From 2.5 s after Redis is back, every request is served.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn redis_restarted_under_load_costs_only_refusals_that_say_so() {
    let mut fleet = Fleet::start(conformance(), 3);
    let started = Instant::now();
    let until = started + Duration::from_secs(8);
    let mut loops = Vec::new();
    for number in 0..4 {
        loops.push(tokio::spawn(session_loop(
            format!("session-client-{number}"),
            fleet.url(),
            "test_simple_text",
            started,
            until,
        )));
    }
    let stateless = tokio::spawn(stateless_loop(fleet.url(), started, until));

    tokio::time::sleep_until((started + Duration::from_secs(2)).into()).await;
    fleet.redis.stop();
    let down = started.elapsed();
    tokio::time::sleep(Duration::from_millis(700)).await;
    let mut probe = HttpClient::new(fleet.url(), REVISION);
    let probe_sent = started.elapsed();
    let refused = try_initialize(&mut probe).await;
    tokio::time::sleep_until((started + Duration::from_secs(4)).into()).await;
    // Requests sent from here on may find Redis back (and empty).
    let restarting = started.elapsed();
    fleet.redis.start_again();
    let up = started.elapsed();

    let mut records = Vec::new();
    for handle in loops {
        records.extend(handle.await.expect("a session client"));
    }
    let stateless = stateless.await.expect("the stateless client");
    eprintln!(
        "Redis down at {:.2}s, up at {:.2}s; {} session requests, {} stateless",
        down.as_secs_f64(),
        up.as_secs_f64(),
        records.len(),
        stateless.len()
    );

    assert!(
        matches!(refused, Outcome::Unavailable),
        "initialize at {:.2}s, while Redis was down: {refused:?}",
        probe_sent.as_secs_f64()
    );
    let failed: Vec<&Record> = records
        .iter()
        .chain(&stateless)
        .filter(|record| matches!(record.outcome, Outcome::Failed(_)))
        .collect();
    assert!(
        failed.is_empty(),
        "answers that are neither a result nor a refusal:{}",
        show(&failed)
    );
    let stateless_refused: Vec<&Record> = stateless
        .iter()
        .filter(|record| !matches!(record.outcome, Outcome::Answered))
        .collect();
    assert!(
        stateless_refused.is_empty(),
        "2026-07-28 requests need no Redis:{}",
        show(&stateless_refused)
    );
    let gone_while_down: Vec<&Record> = records
        .iter()
        .filter(|record| {
            matches!(record.outcome, Outcome::Gone)
                && record.answered > down
                && record.answered < restarting
        })
        .collect();
    assert!(
        gone_while_down.is_empty(),
        "404 answered while Redis was down (the session's fate is unknown then: 503):{}",
        show(&gone_while_down)
    );
    let recovered = up + Duration::from_millis(2500);
    for number in 0..4 {
        let name = format!("session-client-{number}");
        let mine: Vec<&Record> = records
            .iter()
            .filter(|record| record.client == name)
            .collect();
        assert!(
            mine.iter()
                .any(|record| matches!(record.outcome, Outcome::Unavailable)),
            "{name} never saw the outage:{}",
            show(&mine)
        );
        let late: Vec<&Record> = mine
            .iter()
            .copied()
            .filter(|record| record.sent >= recovered)
            .collect();
        assert!(!late.is_empty(), "{name} sent nothing after recovery");
        let refused_late: Vec<&Record> = late
            .iter()
            .copied()
            .filter(|record| !matches!(record.outcome, Outcome::Answered))
            .collect();
        assert!(
            refused_late.is_empty(),
            "{name}: refused {:.1}s after Redis was back:{}",
            (recovered - up).as_secs_f64(),
            show(&refused_late)
        );
        assert!(
            matches!(mine.last().expect("records").outcome, Outcome::Answered),
            "{name} ends served:{}",
            show(&mine[mine.len().saturating_sub(10)..])
        );
    }
}

/// An instance killed (SIGKILL) and restarted on its port while three sessions loop calls
/// through nginx. nginx passes a request that could not be sent to a dead instance on to the
/// next one (a connect error, even for a POST: nothing reached the dead instance), so only a
/// call in flight on the instance when it died fails (502, or a broken stream), and then a
/// retry of that call through nginx must succeed. The retry waits until the instance is gone
/// (killed and reaped): while a killed process's sockets are being closed, its listener may
/// still complete a connection (the kernel's backlog) that then fails, which nginx reports as
/// 502 for a POST it already sent, and a retry sent in that instant is the same case as the
/// call it retries. No session is ever unknown (404) and each
/// keeps its log level: afterwards, every session works on every instance directly, the
/// restarted one included, and its `error` level still holds there.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn sessions_outlive_an_instance_killed_and_restarted() {
    let mut fleet = Fleet::start(conformance(), 3);
    let started = Instant::now();
    let until = started + Duration::from_secs(6);
    let failures = Arc::new(Mutex::new(Vec::<String>::new()));
    // Every call that failed and was retried, for the message when there are too many.
    let retried_calls = Arc::new(Mutex::new(Vec::<String>::new()));
    let (gone, gone_seen) = tokio::sync::watch::channel(false);
    let mut loops = Vec::new();
    for number in 0..3 {
        let url = fleet.url();
        let failures = failures.clone();
        let retried_calls = retried_calls.clone();
        let mut gone_seen = gone_seen.clone();
        loops.push(tokio::spawn(async move {
            let mut client = HttpClient::new(url, REVISION);
            client.initialize(json!({})).await;
            let set = client
                .request("logging/setLevel", json!({ "level": "error" }))
                .await;
            assert_eq!(set.status, StatusCode::OK, "{:?}", set.messages);
            let mut calls = 0;
            let mut retried = 0;
            while Instant::now() < until {
                calls += 1;
                let body = client.request_body(
                    "tools/call",
                    json!({ "name": "test_tool_with_logging", "arguments": {} }),
                );
                let at = started.elapsed().as_secs_f64();
                match attempt(&client, &body).await {
                    Outcome::Answered => continue,
                    Outcome::Failed(error) => {
                        // In flight on the killed instance: retried once, when it is gone.
                        retried += 1;
                        retried_calls
                            .lock()
                            .await
                            .push(format!("session {number} at {at:.2}s: {error}"));
                        let _ = tokio::time::timeout(
                            Duration::from_secs(5),
                            gone_seen.wait_for(|gone| *gone),
                        )
                        .await;
                        let again = client.request_body(
                            "tools/call",
                            json!({ "name": "test_tool_with_logging", "arguments": {} }),
                        );
                        let outcome = attempt(&client, &again).await;
                        if !matches!(outcome, Outcome::Answered) {
                            failures.lock().await.push(format!(
                                "session {number} at {at:.2}s: {error}; its retry: {outcome:?}"
                            ));
                        }
                    }
                    outcome => failures
                        .lock()
                        .await
                        .push(format!("session {number} at {at:.2}s: {outcome:?}")),
                }
            }
            (client, calls, retried)
        }));
    }
    tokio::time::sleep_until((started + Duration::from_millis(1500)).into()).await;
    fleet.kill(1);
    gone.send_replace(true);
    let killed = started.elapsed();
    tokio::time::sleep(Duration::from_millis(1500)).await;
    fleet.restart(1);
    let restarted = started.elapsed();
    let mut clients = Vec::new();
    let mut retries = 0;
    for handle in loops {
        let (client, calls, retried) = handle.await.expect("a session client");
        eprintln!("{calls} calls, {retried} retried");
        retries += retried;
        clients.push(client);
    }
    eprintln!(
        "instance 1 killed at {:.2}s, restarted at {:.2}s",
        killed.as_secs_f64(),
        restarted.as_secs_f64()
    );
    let failures = failures.lock().await.clone();
    assert!(failures.is_empty(), "{failures:#?}");
    assert!(
        retries <= 3,
        "{retries} calls failed; only those in flight on the dead instance (one per session at \
         most) may: {:#?}",
        retried_calls.lock().await
    );
    for (number, client) in clients.iter_mut().enumerate() {
        for index in 0..3 {
            client.url = fleet.instance_url(index);
            let messages = call(client, "test_tool_with_logging", json!({})).await;
            assert_eq!(
                logs_in(&messages),
                0,
                "session {number} on instance {index}: its level (error) holds: {messages:?}"
            );
        }
    }
}

/// An instance that cannot reach Redis refuses to start: it exits non-zero at once, saying
/// so.
#[test]
fn an_instance_that_cannot_reach_redis_exits_at_once() {
    for binary in [conformance(), tasks()] {
        let nowhere = format!("redis://127.0.0.1:{}/", free_loopback_port());
        let started = Instant::now();
        let mut child = Command::new(&binary)
            .arg("--http")
            .arg(format!("127.0.0.1:{}", free_loopback_port()))
            .arg("--redis")
            .arg(&nowhere)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the instance starts");
        let status = loop {
            if let Some(status) = child.try_wait().expect("a status") {
                break status;
            }
            if started.elapsed() > Duration::from_secs(5) {
                let _ = child.kill();
                let output = child.wait_with_output().expect("its output");
                panic!(
                    "{} with {nowhere} still runs after 5 s; stderr: {}",
                    binary.display(),
                    String::from_utf8_lossy(&output.stderr)
                );
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        let output = child.wait_with_output().expect("its output");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(
            !status.success(),
            "{} exited with {status}: {stderr}",
            binary.display()
        );
        assert!(
            stderr.contains("cannot reach Redis"),
            "{} says why it exits: {}",
            binary.display(),
            tail(&stderr, 2000)
        );
        eprintln!(
            "{} exited ({status}) after {:?}: {}",
            binary.display(),
            started.elapsed(),
            stderr.trim()
        );
    }
}
