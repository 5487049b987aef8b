//! A fleet while its Redis is away for 5 s, stalled (`SIGSTOP`) or restarted (with its
//! append-only file, so that it comes back with what it held), with work running on live
//! instances: two instances of the tasks fixture (`target/debug/tasks`), each started with
//! `--http 127.0.0.1:PORT --redis URL`, reached directly so that the test chooses which
//! instance runs the work and which one reads it.
//!
//! The promise tested: an instance that kept running is never taken for dead because the
//! store was away, and what it finished while the store was away is not lost. A task running
//! through the outage, or ending during it, completes with its real result, and a call whose
//! stream is held on another instance gets its real response there. And `kill -9` of a
//! task's runner, with Redis up, still ends in the documented failure (for a call's, see
//! `fleet.rs`).
//!
//! Needs nginx and redis-server, and the fixture built (`cargo build --bin tasks`).

use std::time::{Duration, Instant};

use mcp_http_tests::fleet::calls::{is_response_to, start_request};
use mcp_http_tests::fleet::{Fleet, tasks};
use mcp_http_tests::{EventStream, HttpClient, progress_of};
use mcp_runtime::testing::RedisServer;
use reqwest::StatusCode;
use serde_json::{Value, json};

/// The session revision of these tests.
const REVISION: &str = "2025-11-25";
/// How long Redis is away.
const OUTAGE: Duration = Duration::from_secs(5);

/// How Redis goes away.
#[derive(Clone, Copy, Debug)]
enum Outage {
    /// Frozen (`SIGSTOP`), then let run again: connections stay open, nothing is answered.
    Stall,
    /// Killed, then started again on its port with its append-only file.
    Restart,
}

impl Outage {
    fn fleet(self) -> Fleet {
        Fleet::start_on(RedisServer::start_durable(), tasks(), 2)
    }

    /// Takes Redis away for [`OUTAGE`], then brings it back.
    async fn run(self, fleet: &mut Fleet) {
        match self {
            Outage::Stall => {
                fleet.redis.pause();
                tokio::time::sleep(OUTAGE).await;
                fleet.redis.resume();
            }
            Outage::Restart => {
                fleet.redis.stop();
                tokio::time::sleep(OUTAGE).await;
                fleet.redis.start_again();
            }
        }
    }
}

/// A client of instance `index` in `client`'s session.
fn same_session(fleet: &Fleet, client: &HttpClient, index: usize) -> HttpClient {
    let mut other = HttpClient::new(fleet.instance_url(index), REVISION);
    other.session = client.session.clone();
    other
}

/// POSTs a request and returns its response, or `None` when the instance refused it
/// because the store is unavailable (503), or gave no answer within 10 s.
async fn try_request(client: &mut HttpClient, method: &str, params: Value) -> Option<Value> {
    let body = client.request_body(method, params);
    let headers = client.request_headers(&body);
    let reply = tokio::time::timeout(
        Duration::from_secs(10),
        client.try_post_with(headers, &body),
    )
    .await
    .ok()?
    .ok()?;
    match reply.status {
        StatusCode::SERVICE_UNAVAILABLE => None,
        // The session served from the instance's copy, the task store out of reach.
        StatusCode::OK if says_store_unavailable(reply.response()) => None,
        StatusCode::OK => Some(reply.response().clone()),
        status => panic!("{method}: {status} {:?}", reply.messages),
    }
}

/// Whether a response is the error of a request that needed a store out of reach.
fn says_store_unavailable(response: &Value) -> bool {
    response["error"]["code"] == -32603
        && response["error"]["message"]
            .as_str()
            .is_some_and(|message| message.contains("store is unavailable"))
}

/// A task of `ms` runs on instance 0 while Redis is away for 5 s from its first second;
/// instance 1 polls it throughout. It must complete with its real result: never `failed`,
/// which is what instance 1 said when the runner's heartbeat key had lapsed during the
/// outage, and never `working` for good, which is what became of a task that ended while
/// Redis was away.
async fn a_task_outlives(outage: Outage, ms: u64) {
    let mut fleet = outage.fleet();
    let mut client = HttpClient::new(fleet.instance_url(0), REVISION);
    client.initialize(json!({})).await;
    let created = client
        .request(
            "tools/call",
            json!({ "name": "build", "arguments": { "ms": ms }, "task": {} }),
        )
        .await;
    let task = created.response()["result"]["task"]["taskId"]
        .as_str()
        .unwrap_or_else(|| panic!("a task: {:?}", created.messages))
        .to_owned();
    let mut reader = same_session(&fleet, &client, 1);
    let poller = tokio::spawn(async move {
        let deadline = Instant::now() + Duration::from_secs(40);
        let mut seen = Vec::new();
        loop {
            assert!(
                Instant::now() < deadline,
                "the task did not finish within 40 s: {seen:?}"
            );
            let got = try_request(&mut reader, "tasks/get", json!({ "taskId": task })).await;
            let status = got.map(|got| {
                got["result"]["status"]
                    .as_str()
                    .unwrap_or_else(|| panic!("tasks/get: {got}"))
                    .to_owned()
            });
            let status = status.unwrap_or_else(|| "unavailable".to_owned());
            if seen.last() != Some(&status) {
                seen.push(status.clone());
            }
            if !matches!(status.as_str(), "working" | "unavailable") {
                let result =
                    try_request(&mut reader, "tasks/result", json!({ "taskId": task })).await;
                return (seen, result);
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    });
    tokio::time::sleep(Duration::from_secs(1)).await;
    outage.run(&mut fleet).await;
    let (seen, result) = poller.await.expect("the poller");
    eprintln!("{outage:?}: the task's statuses through instance 1: {seen:?}");
    assert_eq!(
        seen.last().map(String::as_str),
        Some("completed"),
        "{outage:?}: statuses seen {seen:?}; tasks/result: {result:?}"
    );
    let result = result.expect("tasks/result once Redis is back");
    assert_eq!(
        result["result"]["content"][0]["text"],
        format!("built in {ms} ms"),
        "{result}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_task_outlives_a_redis_stall() {
    a_task_outlives(Outage::Stall, 9000).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_task_outlives_a_redis_restart() {
    a_task_outlives(Outage::Restart, 9000).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_task_that_ends_while_redis_is_stalled_keeps_its_result() {
    a_task_outlives(Outage::Stall, 3000).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_task_that_ends_while_redis_restarts_keeps_its_result() {
    a_task_outlives(Outage::Restart, 3000).await;
}

/// The runner of a task killed (`kill -9`) with Redis up: the grace period after an outage
/// does not apply, and the task still ends `failed` within a bound, as documented.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_task_whose_runner_is_killed_still_fails() {
    let mut fleet = Fleet::start(tasks(), 2);
    let mut client = HttpClient::new(fleet.instance_url(0), REVISION);
    client.initialize(json!({})).await;
    let created = client
        .request(
            "tools/call",
            json!({ "name": "build", "arguments": { "ms": 60_000 }, "task": {} }),
        )
        .await;
    let task = created.response()["result"]["task"]["taskId"]
        .as_str()
        .unwrap_or_else(|| panic!("a task: {:?}", created.messages))
        .to_owned();
    fleet.kill(0);
    let killed = Instant::now();
    let mut reader = same_session(&fleet, &client, 1);
    loop {
        let got = try_request(&mut reader, "tasks/get", json!({ "taskId": task }))
            .await
            .expect("Redis is up");
        if got["result"]["status"] == "failed" {
            assert_eq!(
                got["result"]["statusMessage"],
                "The server instance running the task stopped before it finished.",
                "{got}"
            );
            eprintln!("failed {:?} after kill -9", killed.elapsed());
            return;
        }
        assert_eq!(got["result"]["status"], "working", "{got}");
        assert!(
            killed.elapsed() < Duration::from_secs(15),
            "still working 15 s after kill -9: {got}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Reads `client`'s stream from event `last` on, resuming it (`Last-Event-ID`) whenever it
/// ends or breaks, and each 503 again after a pause, until the response to `id`, within
/// 40 s. Returns the messages, the response last.
async fn read_until_response(client: &HttpClient, mut last: String, id: &Value) -> Vec<Value> {
    let deadline = Instant::now() + Duration::from_secs(40);
    let mut messages = Vec::new();
    loop {
        assert!(
            Instant::now() < deadline,
            "no response to {id} within 40 s: {messages:?}"
        );
        let resumed = client.resume(&last).await;
        match resumed.status() {
            StatusCode::OK => {}
            StatusCode::SERVICE_UNAVAILABLE => {
                tokio::time::sleep(Duration::from_millis(250)).await;
                continue;
            }
            status => {
                let text = resumed.text().await.unwrap_or_default();
                panic!("resuming from {last}: {status} {text} (after {messages:?})");
            }
        }
        let mut stream = EventStream::new(resumed, REVISION);
        while let Ok(Ok(Some(message))) =
            tokio::time::timeout(Duration::from_secs(20), stream.try_next()).await
        {
            let done = is_response_to(&message, id);
            messages.push(message);
            if done {
                return messages;
            }
        }
        if let Some(id) = stream.ids.last() {
            last = id.clone();
        }
    }
}

/// A call of `steps` steps of `step_ms` runs on instance 0 while its stream is held on
/// instance 1 (resumed there with `Last-Event-ID` after the first step), and Redis is away
/// for 5 s from half a second later. The call sends an event only once a step, so that
/// instance 1 has time to wonder whether its runner still lives. The real response must
/// arrive there: not the error for a call whose instance stopped, which is what instance 1
/// sent when the runner's heartbeat key had lapsed during the outage, and not silence,
/// which is what became of a response that Redis did not take.
async fn a_call_outlives(outage: Outage, steps: u32, step_ms: u64) {
    let mut fleet = outage.fleet();
    let mut client = HttpClient::new(fleet.instance_url(0), REVISION);
    client.initialize(json!({})).await;
    let (id, mut stream) = start_request(
        &mut client,
        "tools/call",
        json!({
            "name": "report",
            "arguments": { "quarter": "Q3", "steps": steps, "step_ms": step_ms },
            "_meta": { "progressToken": "outage" },
        }),
    )
    .await;
    let mut seen = Vec::new();
    while progress_of(&seen).is_empty() {
        seen.push(stream.next().await.expect("progress"));
    }
    let last = stream.ids.last().expect("event ids").clone();
    drop(stream);
    let holder = same_session(&fleet, &client, 1);
    let reader = {
        let id = id.clone();
        tokio::spawn(async move { read_until_response(&holder, last, &id).await })
    };
    tokio::time::sleep(Duration::from_millis(500)).await;
    outage.run(&mut fleet).await;
    let messages = reader.await.expect("the stream's reader");
    let response = messages.last().expect("the response");
    eprintln!(
        "{outage:?}: {} messages on instance 1, then {response}",
        messages.len()
    );
    assert_eq!(
        response["result"]["structuredContent"],
        json!({ "quarter": "Q3", "revenue": 1_000_000 }),
        "{outage:?}: the call's real response: {response}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_call_resumed_elsewhere_outlives_a_redis_stall() {
    a_call_outlives(Outage::Stall, 4, 2500).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_call_resumed_elsewhere_outlives_a_redis_restart() {
    a_call_outlives(Outage::Restart, 4, 2500).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_call_that_ends_while_redis_is_stalled_keeps_its_response() {
    a_call_outlives(Outage::Stall, 2, 1500).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_call_that_ends_while_redis_restarts_keeps_its_response() {
    a_call_outlives(Outage::Restart, 2, 1500).await;
}
