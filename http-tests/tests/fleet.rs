//! A fleet for real, when all goes well: instances of the conformance example
//! (`target/debug/conformance`) or of the tasks fixture (`target/debug/tasks`), each started
//! with `--http 127.0.0.1:PORT --redis URL` against one `redis-server`, behind nginx round
//! robin with no stickiness (`mcp_http_tests::fleet::Fleet`). Every message is checked
//! against the 2025-11-25 schema.
//!
//! Some tests go through nginx, where round robin spreads a session's requests over every
//! instance (nginx's access log says which instance served each request); others talk to
//! the instances directly, to put a call on one instance and the client's next move on
//! another. What the instances must share: sessions (any instance serves any session; a
//! DELETE ends it everywhere; the log level holds everywhere), call streams (resumed on
//! another instance with `Last-Event-ID`, ended with an error response when the instance
//! running the call is killed with `kill -9`), a client's answers and cancellations
//! (reaching the call wherever it runs), tasks, and a session's GET stream (task status
//! notifications and the session's end reach it wherever it is held). The faults (Redis
//! restarted or unreachable, an instance killed under load) are in `fleet_faults.rs`.
//!
//! Needs nginx and redis-server, and the two binaries built (`cargo test --workspace`
//! builds them; `cargo build --bin conformance --bin tasks` otherwise).

use std::time::{Duration, Instant};

use mcp_http_tests::fleet::calls::{
    call, finish, is_response, is_response_to, logs_in, start_request,
};
use mcp_http_tests::fleet::{Fleet, conformance, tasks};
use mcp_http_tests::{EventStream, HttpClient, progress_of};
use reqwest::StatusCode;
use serde_json::{Value, json};

/// The session revision of these tests.
const REVISION: &str = "2025-11-25";

/// The text of a tool's result: its first content block's.
fn text_of(response: &Value) -> &str {
    response["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or_else(|| panic!("a text result: {response}"))
}

/// Reads `stream` to its end, without a time limit of its own.
async fn read_all(stream: &mut EventStream) -> Vec<Value> {
    let mut messages = Vec::new();
    while let Some(message) = stream.next().await {
        messages.push(message);
    }
    messages
}

/// The next message on `stream` that `wanted` accepts, within `within`.
async fn next_matching(
    stream: &mut EventStream,
    within: Duration,
    wanted: impl Fn(&Value) -> bool,
) -> Value {
    let deadline = Instant::now() + within;
    let mut skipped = Vec::new();
    loop {
        let remaining = deadline.saturating_duration_since(Instant::now());
        let message = tokio::time::timeout(remaining, stream.next())
            .await
            .unwrap_or_else(|_| panic!("nothing wanted within {within:?}; got {skipped:?}"))
            .unwrap_or_else(|| panic!("the stream ended; got {skipped:?}"));
        if wanted(&message) {
            return message;
        }
        skipped.push(message);
    }
}

/// Whether `stream` ends within `within`, whatever it carries before its end.
async fn drains_within(stream: &mut EventStream, within: Duration) -> bool {
    let deadline = Instant::now() + within;
    loop {
        let remaining = deadline.saturating_duration_since(Instant::now());
        match tokio::time::timeout(remaining, stream.try_next()).await {
            Ok(Ok(Some(_))) => {}
            Ok(Ok(None) | Err(_)) => return true,
            Err(_) => return false,
        }
    }
}

/// The instances that served requests with `method` through nginx; waits up to 2 s for all
/// of them (nginx logs a request once it is over, which may be just after its client read
/// the answer).
async fn instances_reached(fleet: &Fleet, method: &str) -> std::collections::BTreeSet<usize> {
    let deadline = Instant::now() + Duration::from_secs(2);
    loop {
        let reached = fleet.instances_reached(method);
        if reached.len() == fleet.len() || Instant::now() > deadline {
            return reached;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// A 2025-11-25 session through nginx is served by all three instances: twelve calls, calls
/// whose streams SSE polling closes (resumed through nginx), `tools/list`, a log level set
/// through one instance holding on the others, and a DELETE that ends the session on every
/// instance.
#[tokio::test]
async fn a_session_through_nginx_is_served_by_every_instance() {
    let fleet = Fleet::start(conformance(), 3);
    let mut client = HttpClient::new(fleet.url(), REVISION);
    client.initialize(json!({})).await;
    for number in 1..=12 {
        let messages = call(&mut client, "test_simple_text", json!({})).await;
        assert_eq!(
            text_of(messages.last().expect("a response")),
            "This is a simple text response for testing.",
            "call {number}"
        );
    }
    let list = client.request("tools/list", json!({})).await;
    assert_eq!(list.status, StatusCode::OK, "{:?}", list.messages);
    let tools = list.response()["result"]["tools"]
        .as_array()
        .unwrap_or_else(|| panic!("tools: {:?}", list.messages))
        .len();
    // Every tool of the example, as its checked-in listing has them.
    let listing = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../examples/conformance/tests/snapshots/conformance.tools.json"
    ))
    .expect("the conformance example's listing");
    let listed: Vec<serde_json::Value> = serde_json::from_str(&listing).expect("a JSON list");
    assert_eq!(tools, listed.len(), "{:?}", list.messages);
    // SSE polling closes a `test_reconnection` call's stream after 300 ms, the call taking
    // 450 ms: the client resumes it through nginx, on another instance than the one running
    // it, and gets the response there.
    for number in 1..=3 {
        let messages = call(&mut client, "test_reconnection", json!({})).await;
        assert_eq!(
            text_of(messages.last().expect("a response")),
            "Reconnection test completed successfully",
            "reconnection {number}"
        );
    }
    // nginx logs a request once it is over: the last stream's may take a moment.
    let deadline = Instant::now() + Duration::from_secs(2);
    let resumptions = loop {
        let gets: Vec<_> = fleet
            .access_log()
            .into_iter()
            .filter(|(method, _, _)| method == "GET")
            .collect();
        if gets.len() >= 3 || Instant::now() > deadline {
            break gets;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert!(
        resumptions.len() >= 3 && resumptions.iter().all(|(_, _, status)| *status == 200),
        "each call resumed through nginx (GET + Last-Event-ID), answered 200: {resumptions:?}"
    );
    // Round robin spread the session's POSTs over every instance.
    let reached = instances_reached(&fleet, "POST").await;
    assert_eq!(
        reached.len(),
        3,
        "the session's POSTs reached instances {reached:?} only: {:?}",
        fleet.access_log()
    );

    // A log level set through nginx (one instance) holds on every instance.
    let set = client
        .request("logging/setLevel", json!({ "level": "error" }))
        .await;
    assert_eq!(set.status, StatusCode::OK, "{:?}", set.messages);
    assert!(set.response()["result"].is_object(), "{:?}", set.messages);
    for index in 0..3 {
        client.url = fleet.instance_url(index);
        let messages = call(&mut client, "test_tool_with_logging", json!({})).await;
        assert_eq!(
            logs_in(&messages),
            0,
            "level error (set through nginx), the call on instance {index}: {messages:?}"
        );
    }
    // And one set on instance 2 directly, on instances 0 and 1 too.
    client.url = fleet.instance_url(2);
    let set = client
        .request("logging/setLevel", json!({ "level": "debug" }))
        .await;
    assert_eq!(set.status, StatusCode::OK, "{:?}", set.messages);
    for index in 0..3 {
        client.url = fleet.instance_url(index);
        let messages = call(&mut client, "test_tool_with_logging", json!({})).await;
        assert_eq!(
            logs_in(&messages),
            3,
            "level debug (set on instance 2), the call on instance {index}: {messages:?}"
        );
    }

    // DELETE through nginx ends the session on every instance.
    client.url = fleet.url();
    assert_eq!(client.delete().await, StatusCode::OK);
    for index in 0..3 {
        client.url = fleet.instance_url(index);
        let after = client.request("tools/list", json!({})).await;
        assert_eq!(
            after.status,
            StatusCode::NOT_FOUND,
            "tools/list on the ended session at instance {index}: {:?}",
            after.messages
        );
    }
}

/// The client's answers to a tool's requests reach the call wherever they are POSTed: an
/// elicitation asked on instance 0 answered through instance 1, a sampling request asked on
/// instance 1 answered through instance 2.
#[tokio::test]
async fn answers_posted_to_another_instance_reach_the_call() {
    let fleet = Fleet::start(conformance(), 3);
    let mut client = HttpClient::new(fleet.instance_url(0), REVISION);
    client
        .initialize(json!({ "elicitation": {}, "sampling": {} }))
        .await;

    let cases = [
        (
            0,
            1,
            "test_elicitation",
            json!({ "message": "Who are you?" }),
            "elicitation/create",
            json!({ "action": "accept", "content": { "username": "ada", "email": "ada@example.com" } }),
            r#"User response: action=accept, content={"username":"ada","email":"ada@example.com"}"#,
        ),
        (
            1,
            2,
            "test_sampling",
            json!({ "prompt": "Say hello" }),
            "sampling/createMessage",
            json!({
                "role": "assistant",
                "content": { "type": "text", "text": "Hello from the client" },
                "model": "test-model",
                "stopReason": "endTurn",
            }),
            "LLM response: Hello from the client",
        ),
    ];
    for (asked_on, answered_on, tool, arguments, method, answer, expected) in cases {
        client.url = fleet.instance_url(asked_on);
        let (id, mut stream) = start_request(
            &mut client,
            "tools/call",
            json!({ "name": tool, "arguments": arguments }),
        )
        .await;
        let request = next_matching(&mut stream, Duration::from_secs(10), |message| {
            message["method"] == method
        })
        .await;
        client.url = fleet.instance_url(answered_on);
        let posted = client
            .post(&json!({ "jsonrpc": "2.0", "id": request["id"], "result": answer }))
            .await;
        assert_eq!(
            posted.status,
            StatusCode::ACCEPTED,
            "{tool}: the answer POSTed to instance {answered_on}: {:?}",
            posted.messages
        );
        // The response comes on the call's stream on the instance that runs it (resumed
        // there if SSE polling closed it meanwhile).
        client.url = fleet.instance_url(asked_on);
        let messages = finish(&client, stream, &id).await;
        assert_eq!(
            text_of(messages.last().expect("the response")),
            expected,
            "{tool}: asked on instance {asked_on}, answered through instance {answered_on}"
        );
    }
}

/// Starts the `tasks` fixture's `report` (`steps` steps of `step_ms`, a progress
/// notification and a log line each) at `client.url`: its id and its response stream.
async fn start_report(
    client: &mut HttpClient,
    quarter: &str,
    steps: u64,
    step_ms: u64,
) -> (Value, EventStream) {
    let arguments = json!({ "quarter": quarter, "steps": steps, "step_ms": step_ms });
    start_request(
        client,
        "tools/call",
        json!({ "name": "report", "arguments": arguments, "_meta": { "progressToken": "p" } }),
    )
    .await
}

/// A `notifications/cancelled` POSTed to another instance stops the call: no more progress,
/// no response; the session goes on.
#[tokio::test]
async fn a_cancellation_posted_to_another_instance_stops_the_call() {
    let fleet = Fleet::start(tasks(), 2);
    let mut client = HttpClient::new(fleet.instance_url(0), REVISION);
    client.initialize(json!({})).await;
    let (id, mut stream) = start_report(&mut client, "Q1", 40, 100).await;
    next_matching(&mut stream, Duration::from_secs(10), |message| {
        message["method"] == "notifications/progress"
    })
    .await;
    client.url = fleet.instance_url(1);
    let cancelled = client
        .post(&json!({
            "jsonrpc": "2.0",
            "method": "notifications/cancelled",
            "params": { "requestId": id, "reason": "changed my mind" },
        }))
        .await;
    assert_eq!(cancelled.status, StatusCode::ACCEPTED);
    // Uncancelled, the call would report progress every 100 ms for 4 s more.
    let mut after = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(2);
    while let Ok(Some(message)) = tokio::time::timeout(
        deadline.saturating_duration_since(Instant::now()),
        stream.next(),
    )
    .await
    {
        after.push(message);
    }
    let more = progress_of(&after).len();
    assert!(
        more <= 3,
        "the call on instance 0 went on after its cancellation was POSTed to instance 1: \
         {more} more progress notifications in 2 s: {after:?}"
    );
    assert!(
        !after.iter().any(|message| is_response_to(message, &id)),
        "a cancelled call is not answered: {after:?}"
    );
    drop(stream);
    for index in 0..2 {
        client.url = fleet.instance_url(index);
        let messages = call(&mut client, "echo", json!({ "text": "still here" })).await;
        assert_eq!(text_of(messages.last().expect("a response")), "still here");
    }
}

/// Checks that every id is `N-SEQ` with one `N` and increasing `SEQ`s.
fn assert_one_stream(ids: &[String]) {
    let parsed: Vec<(u64, u64)> = ids
        .iter()
        .map(|id| {
            let (stream, seq) = id
                .split_once('-')
                .unwrap_or_else(|| panic!("an event id N-SEQ: {id} (all: {ids:?})"));
            (
                stream.parse().expect("N is a number"),
                seq.parse().expect("SEQ is a number"),
            )
        })
        .collect();
    assert!(
        parsed
            .windows(2)
            .all(|pair| pair[0].0 == pair[1].0 && pair[0].1 < pair[1].1),
        "the ids of one stream, each once, in order: {ids:?}"
    );
}

/// A call's stream dropped on the instance that runs the call is resumed on another
/// (`Last-Event-ID`): the events it missed, then the rest live, each exactly once, then the
/// response; resuming from the response's id then says there is nothing more (204).
#[tokio::test]
async fn a_call_stream_dropped_on_one_instance_resumes_on_another() {
    let fleet = Fleet::start(tasks(), 3);
    let mut client = HttpClient::new(fleet.instance_url(0), REVISION);
    client.initialize(json!({})).await;
    let (id, mut stream) = start_report(&mut client, "Q2", 8, 200).await;
    let mut seen = Vec::new();
    while progress_of(&seen).len() < 2 {
        seen.push(stream.next().await.expect("progress"));
    }
    let ids = stream.ids.clone();
    let last = ids.last().expect("event ids").clone();
    drop(stream);
    // The call goes on while nobody listens (a step every 200 ms).
    tokio::time::sleep(Duration::from_millis(300)).await;
    client.url = fleet.instance_url(1);
    let resumed = client.resume(&last).await;
    let status = resumed.status();
    if status != StatusCode::OK {
        let text = resumed.text().await.unwrap_or_default();
        panic!("resuming {last} on instance 1: {status} {text}");
    }
    let mut resumed = EventStream::new(resumed, REVISION);
    let rest = read_all(&mut resumed).await;
    let response = rest
        .last()
        .unwrap_or_else(|| panic!("the resumed stream carried nothing: {}", resumed.raw));
    assert!(is_response_to(response, &id), "{rest:?}");
    assert_eq!(
        response["result"]["structuredContent"]["quarter"], "Q2",
        "{response}"
    );
    let all: Vec<Value> = seen.iter().chain(&rest).cloned().collect();
    assert_eq!(
        progress_of(&all),
        [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0],
        "each progress exactly once across the two connections: {all:?}"
    );
    assert_eq!(logs_in(&all), 8, "each log exactly once: {all:?}");
    let mut all_ids = ids.clone();
    all_ids.extend(resumed.ids.iter().cloned());
    assert_one_stream(&all_ids);
    // After the response there is nothing more, on any instance.
    let end = resumed.ids.last().expect("ids").clone();
    client.url = fleet.instance_url(2);
    assert_eq!(
        client.resume(&end).await.status(),
        StatusCode::NO_CONTENT,
        "resuming from the response's id {end} on instance 2"
    );
}

/// A stream resumed on one instance, then again on another: the second resumption takes it
/// over and gets the response, and the first connection ends without it, as a resumption
/// replaces the one before in memory (rather than both reading the store until their
/// clients are found gone).
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_stream_resumed_again_elsewhere_ends_the_earlier_resumption() {
    let fleet = Fleet::start(tasks(), 3);
    let mut client = HttpClient::new(fleet.instance_url(0), REVISION);
    client.initialize(json!({})).await;
    let (id, mut stream) = start_report(&mut client, "Q3", 10, 200).await;
    let mut seen = Vec::new();
    while progress_of(&seen).is_empty() {
        seen.push(stream.next().await.expect("progress"));
    }
    let last = stream.ids.last().expect("event ids").clone();
    drop(stream);
    client.url = fleet.instance_url(1);
    let first = client.resume(&last).await;
    assert_eq!(
        first.status(),
        StatusCode::OK,
        "resuming {last} on instance 1"
    );
    let mut first = EventStream::new(first, REVISION);
    let event = first
        .next()
        .await
        .expect("an event on the first resumption");
    assert!(!is_response(&event), "{event}");
    let last = first.ids.last().expect("event ids").clone();
    client.url = fleet.instance_url(2);
    let (_, response, _) = resume_until_response(&client, &last, Duration::from_secs(5)).await;
    assert!(is_response_to(&response, &id), "{response}");
    let rest = tokio::time::timeout(Duration::from_secs(5), read_all(&mut first))
        .await
        .expect("the first resumption ends");
    assert!(!rest.iter().any(is_response), "{rest:?}");
}

/// Resumes a stream from `last` at `client.url` and reads it until a response comes, within
/// `within` per message (silence, or the stream's end before a response, fails). Returns the
/// messages before the response, the response, and the stream.
async fn resume_until_response(
    client: &HttpClient,
    last: &str,
    within: Duration,
) -> (Vec<Value>, Value, EventStream) {
    let resumed = client.resume(last).await;
    let status = resumed.status();
    if status != StatusCode::OK {
        let text = resumed.text().await.unwrap_or_default();
        panic!("resuming {last} at {}: {status} {text}", client.url);
    }
    let mut resumed = EventStream::new(resumed, REVISION);
    let mut before = Vec::new();
    loop {
        let message = tokio::time::timeout(within, resumed.next())
            .await
            .unwrap_or_else(|_| {
                panic!("{within:?} of silence on the stream resumed from {last} (got {before:?})")
            })
            .unwrap_or_else(|| {
                panic!("the stream resumed from {last} ended without a response (got {before:?})")
            });
        if is_response(&message) {
            return (before, message, resumed);
        }
        before.push(message);
    }
}

/// Checks the error response for a call whose instance died.
fn assert_died(response: &Value, id: &Value) {
    assert_eq!(response["id"], *id, "{response}");
    assert_eq!(response["error"]["code"], -32603, "{response}");
    let message = response["error"]["message"].as_str().unwrap_or_default();
    assert!(
        message.contains("instance"),
        "the error says the instance running the call stopped: {response}"
    );
}

/// The instance running two calls is killed (SIGKILL) while the client holds the calls'
/// streams. The first, resumed on another instance at once, ends with a JSON-RPC error
/// response for that call within a few seconds (the instance's heartbeat lapses), never
/// silence; the second, resumed on a third instance once that is known, ends with its own
/// error at once. No event comes twice, and the session goes on through the other instances.
#[tokio::test]
async fn a_call_whose_instance_dies_ends_with_an_error_on_the_resumed_stream() {
    let mut fleet = Fleet::start(tasks(), 3);
    let mut client = HttpClient::new(fleet.instance_url(1), REVISION);
    client.initialize(json!({})).await;
    client.url = fleet.instance_url(0);
    let mut calls = Vec::new();
    for (quarter, token) in [("Q4", "p1"), ("Q1", "p2")] {
        let (id, mut stream) = start_request(
            &mut client,
            "tools/call",
            json!({
                "name": "report",
                "arguments": { "quarter": quarter, "steps": 40, "step_ms": 250 },
                "_meta": { "progressToken": token },
            }),
        )
        .await;
        let mut seen = Vec::new();
        while progress_of(&seen).len() < 2 {
            seen.push(stream.next().await.expect("progress"));
        }
        calls.push((id, stream, seen));
    }
    fleet.kill(0);
    let killed = Instant::now();
    let mut resumable = Vec::new();
    for (id, mut stream, mut seen) in calls {
        // The connection to the dead instance ends (or breaks) at once.
        let ended = tokio::time::timeout(Duration::from_secs(5), async {
            // `Err`: the connection broke; `Ok(None)`: it ended.
            while let Ok(Some(message)) = stream.try_next().await {
                seen.push(message);
            }
        })
        .await;
        assert!(
            ended.is_ok(),
            "the stream of {id} from the killed instance stays open"
        );
        let last = stream.ids.last().expect("event ids").clone();
        resumable.push((id, last, seen));
    }

    let (first, last, seen) = &resumable[0];
    client.url = fleet.instance_url(1);
    let (rest, response, mut resumed) =
        resume_until_response(&client, last, Duration::from_secs(10)).await;
    let after = killed.elapsed();
    eprintln!("the call's error came {after:?} after kill -9: {response}");
    assert_died(&response, first);
    assert!(
        after <= Duration::from_secs(8),
        "the error came {after:?} after the death (about 3-5 s expected)"
    );
    let all: Vec<Value> = seen.iter().chain(&rest).cloned().collect();
    let progress = progress_of(&all);
    assert!(
        progress.windows(2).all(|pair| pair[0] < pair[1]),
        "no progress twice: {progress:?}"
    );
    assert!(
        drains_within(&mut resumed, Duration::from_secs(5)).await,
        "the stream ends after the error response"
    );

    // The death is known now: the other call's stream, resumed on instance 2, ends with its
    // error at once.
    let (second, last, seen) = &resumable[1];
    client.url = fleet.instance_url(2);
    let (rest, response, _) = resume_until_response(&client, last, Duration::from_secs(2)).await;
    assert_died(&response, second);
    let all: Vec<Value> = seen.iter().chain(&rest).cloned().collect();
    let progress = progress_of(&all);
    assert!(
        progress.windows(2).all(|pair| pair[0] < pair[1]),
        "no progress twice: {progress:?}"
    );

    // The session lives on, through the other instances.
    for index in [1, 2] {
        client.url = fleet.instance_url(index);
        let messages = call(&mut client, "echo", json!({ "text": "alive" })).await;
        assert_eq!(text_of(messages.last().expect("a response")), "alive");
    }
}

/// A task started through nginx is polled (`tasks/get`), fetched (`tasks/result`) and listed
/// through other instances; its status notifications reach the session's GET stream, held
/// by yet another instance; a task started on one instance is cancelled through a second
/// and seen cancelled through a third; and the session's DELETE ends its GET stream.
#[tokio::test]
async fn tasks_live_in_redis_and_any_instance_serves_them() {
    let fleet = Fleet::start(tasks(), 3);
    let mut client = HttpClient::new(fleet.url(), REVISION);
    client.initialize(json!({})).await;
    // The session's standalone stream, on instance 2.
    let mut watcher = HttpClient::new(fleet.instance_url(2), REVISION);
    watcher.session = client.session.clone();
    let standalone = watcher.get().await;
    assert_eq!(standalone.status(), StatusCode::OK);
    let mut standalone = EventStream::new(standalone, REVISION);

    let created = client
        .request(
            "tools/call",
            json!({
                "name": "report",
                "arguments": { "quarter": "Q3", "steps": 3, "step_ms": 200 },
                "task": {},
            }),
        )
        .await;
    assert_eq!(created.status, StatusCode::OK, "{:?}", created.messages);
    let task_id = created.response()["result"]["task"]["taskId"]
        .as_str()
        .unwrap_or_else(|| panic!("a task: {:?}", created.messages))
        .to_owned();
    let deadline = Instant::now() + Duration::from_secs(15);
    let mut polls = 0;
    loop {
        polls += 1;
        let got = client
            .request("tasks/get", json!({ "taskId": task_id }))
            .await;
        assert_eq!(
            got.status,
            StatusCode::OK,
            "poll {polls}: {:?}",
            got.messages
        );
        let status = &got.response()["result"]["status"];
        if status == "completed" {
            break;
        }
        assert_eq!(status, "working", "poll {polls}: {:?}", got.messages);
        assert!(Instant::now() < deadline, "the task never completed");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(
        polls >= 2,
        "the task took 600 ms: it was polled while working"
    );
    let result = client
        .request("tasks/result", json!({ "taskId": task_id }))
        .await;
    assert_eq!(result.status, StatusCode::OK, "{:?}", result.messages);
    assert_eq!(
        result.response()["result"]["structuredContent"],
        json!({ "quarter": "Q3", "revenue": 1_000_000 }),
        "{:?}",
        result.messages
    );
    let reached = instances_reached(&fleet, "POST").await;
    assert_eq!(
        reached.len(),
        3,
        "the task's requests reached instances {reached:?} only: {:?}",
        fleet.access_log()
    );
    for index in 0..3 {
        client.url = fleet.instance_url(index);
        let listed = client.request("tasks/list", json!({})).await;
        let tasks = listed.response()["result"]["tasks"]
            .as_array()
            .unwrap_or_else(|| panic!("tasks/list on instance {index}: {:?}", listed.messages))
            .clone();
        assert!(
            tasks.iter().any(|task| task["taskId"] == task_id.as_str()),
            "tasks/list on instance {index} lists {task_id}: {tasks:?}"
        );
    }
    let completed = next_matching(&mut standalone, Duration::from_secs(10), |message| {
        message["method"] == "notifications/tasks/status"
            && message["params"]["taskId"] == task_id.as_str()
            && message["params"]["status"] == "completed"
    })
    .await;
    assert_eq!(completed["params"]["taskId"], task_id.as_str());

    // Started on instance 0, cancelled through instance 1, seen through instance 2.
    client.url = fleet.instance_url(0);
    let created = client
        .request(
            "tools/call",
            json!({ "name": "build", "arguments": { "ms": 30_000 }, "task": {} }),
        )
        .await;
    let building = created.response()["result"]["task"]["taskId"]
        .as_str()
        .unwrap_or_else(|| panic!("a task: {:?}", created.messages))
        .to_owned();
    client.url = fleet.instance_url(1);
    let cancelled = client
        .request("tasks/cancel", json!({ "taskId": building }))
        .await;
    assert_eq!(
        cancelled.response()["result"]["status"],
        "cancelled",
        "tasks/cancel through instance 1: {:?}",
        cancelled.messages
    );
    client.url = fleet.instance_url(2);
    let got = client
        .request("tasks/get", json!({ "taskId": building }))
        .await;
    assert_eq!(
        got.response()["result"]["status"],
        "cancelled",
        "tasks/get through instance 2: {:?}",
        got.messages
    );

    // DELETE through instance 0 ends the GET stream held by instance 2.
    client.url = fleet.instance_url(0);
    assert_eq!(client.delete().await, StatusCode::OK);
    assert!(
        drains_within(&mut standalone, Duration::from_secs(5)).await,
        "the session ended on instance 0; its GET stream on instance 2 stays open"
    );
}
