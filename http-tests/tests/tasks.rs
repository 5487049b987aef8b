//! Tasks over Streamable HTTP: a task belongs to the session that made it (2025-11-25) or to
//! the authenticated principal (2026-07-28, `Server::task_owner`), and another client's id
//! is as unknown as one that never existed; a session's task status notifications reach its
//! standalone stream. A 2026-07-28 `subscriptions/listen` stream hears of the caller's own
//! tasks only, wherever they run in a fleet (needs redis-server). Every message is checked
//! against the revision's schema.

use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use mcp_http_tests::{EventStream, HttpClient};
use mcp_runtime::testing::RedisServer;
use mcp_runtime::{AuthRejection, Server, bearer_token, mcp_tool};
use reqwest::header::HeaderValue;
use serde_json::{Value, json};

const EXTENSION: &str = "io.modelcontextprotocol/tasks";

/// Wait `ms` milliseconds, then say so.
#[mcp_tool(task = "optional")]
async fn wait_a_while(ms: u64) -> String {
    tokio::time::sleep(Duration::from_millis(ms)).await;
    format!("waited {ms} ms")
}

/// Set when `hold` is stopped by a cancel (its future dropped, as a cancelled call's is).
static HOLD_CANCELLED: AtomicBool = AtomicBool::new(false);

struct SetOnDrop;

impl Drop for SetOnDrop {
    fn drop(&mut self) {
        HOLD_CANCELLED.store(true, Ordering::SeqCst);
    }
}

/// Hold until stopped.
#[mcp_tool(task = "optional")]
async fn hold() -> String {
    let _stopped = SetOnDrop;
    std::future::pending::<()>().await;
    unreachable!("held until stopped")
}

/// Who the bearer token says the client is.
struct User(String);

fn check_token(headers: &mcp_runtime::HeaderMap) -> Result<User, AuthRejection> {
    match bearer_token(headers)? {
        "ada-token" => Ok(User("ada".to_owned())),
        "bob-token" => Ok(User("bob".to_owned())),
        _ => Err(AuthRejection::invalid_token("unknown token")),
    }
}

async fn start(authenticated: bool) -> SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("a loopback port");
    let address = listener.local_addr().expect("an address");
    let server = Server::new("tasks", "1.0.0")
        .task_poll_interval(Duration::from_millis(100))
        .task_owner(|user: &User| user.0.clone());
    let http = if authenticated {
        server.http().authenticate(check_token)
    } else {
        server.http()
    };
    tokio::spawn(http.serve_on(listener));
    address
}

fn client(address: SocketAddr, revision: &str) -> HttpClient {
    HttpClient::new(format!("http://{address}/mcp"), revision)
}

async fn next_matching(stream: &mut EventStream, wanted: impl Fn(&Value) -> bool) -> Value {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let remaining = deadline.saturating_duration_since(Instant::now());
        let message = tokio::time::timeout(remaining, stream.next())
            .await
            .expect("a message within 20 s")
            .expect("the stream stays open");
        if wanted(&message) {
            return message;
        }
    }
}

#[tokio::test]
async fn a_sessions_tasks_are_its_own_and_its_stream_hears_of_them() {
    let address = start(false).await;
    let mut ada = client(address, "2025-11-25");
    let initialized = ada.initialize(json!({})).await;
    assert!(initialized.response()["result"]["capabilities"]["tasks"].is_object());
    let standalone = ada.get().await;
    assert_eq!(standalone.status(), reqwest::StatusCode::OK);
    let mut standalone = EventStream::new(standalone, "2025-11-25");

    let created = ada
        .request(
            "tools/call",
            json!({ "name": "wait_a_while", "arguments": { "ms": 100 }, "task": {} }),
        )
        .await;
    mcp_tests::check_result("2025-11-25", "tools/call", &created.response()["result"]);
    let id = created.response()["result"]["task"]["taskId"]
        .as_str()
        .expect("a task id")
        .to_owned();

    // Status changes go on the session's standalone stream, the POST's having ended.
    let completed = next_matching(&mut standalone, |message| {
        message["method"] == "notifications/tasks/status"
            && message["params"]["status"] == "completed"
    })
    .await;
    assert_eq!(completed["params"]["taskId"], id.as_str());

    // Another session cannot see, fetch, list or cancel it.
    let mut bob = client(address, "2025-11-25");
    bob.initialize(json!({})).await;
    for method in ["tasks/get", "tasks/result", "tasks/cancel"] {
        let refused = bob.request(method, json!({ "taskId": id })).await;
        assert_eq!(
            refused.error_code(),
            Some(-32602),
            "{method}: {:?}",
            refused.messages
        );
    }
    let listed = bob.request("tasks/list", json!({})).await;
    assert_eq!(listed.response()["result"]["tasks"], json!([]));

    let result = ada.request("tasks/result", json!({ "taskId": id })).await;
    assert_eq!(
        result.response()["result"]["content"][0]["text"],
        "waited 100 ms",
        "{:?}",
        result.messages
    );
    let listed = ada.request("tasks/list", json!({})).await;
    assert_eq!(
        listed.response()["result"]["tasks"][0]["taskId"],
        id.as_str()
    );
}

/// A 2026-07-28 request by the user with this token, from a client that declared the tasks
/// extension.
async fn stateless_request(
    client: &mut HttpClient,
    token: &str,
    method: &str,
    params: Value,
) -> mcp_http_tests::Reply {
    let (body, headers) = declaring_request(client, token, method, params);
    client.post_with(headers, &body).await
}

/// The body and headers of a 2026-07-28 request by the user with this token, declaring the
/// tasks extension.
fn declaring_request(
    client: &mut HttpClient,
    token: &str,
    method: &str,
    params: Value,
) -> (Value, reqwest::header::HeaderMap) {
    let mut body = client.request_body(method, params);
    body["params"]["_meta"]["io.modelcontextprotocol/clientCapabilities"] =
        json!({ "extensions": { EXTENSION: {} } });
    let mut headers = client.request_headers(&body);
    headers.insert(
        "authorization",
        HeaderValue::from_str(&format!("Bearer {token}")).expect("ASCII"),
    );
    (body, headers)
}

#[tokio::test]
async fn a_stateless_task_belongs_to_its_principal() {
    let address = start(true).await;
    let mut http = client(address, "2026-07-28");
    let created = stateless_request(
        &mut http,
        "ada-token",
        "tools/call",
        json!({ "name": "wait_a_while", "arguments": { "ms": 50 } }),
    )
    .await;
    let result = &created.response()["result"];
    assert_eq!(result["resultType"], "task", "{:?}", created.messages);
    let id = result["taskId"].as_str().expect("a task id").to_owned();

    let refused =
        stateless_request(&mut http, "bob-token", "tasks/get", json!({ "taskId": id })).await;
    assert_eq!(refused.error_code(), Some(-32602), "{:?}", refused.messages);
    let refused = stateless_request(
        &mut http,
        "bob-token",
        "tasks/cancel",
        json!({ "taskId": id }),
    )
    .await;
    assert_eq!(refused.error_code(), Some(-32602), "{:?}", refused.messages);

    // `Mcp-Name` must name the task (the extension routes on it).
    let mut body = http.request_body("tasks/get", json!({ "taskId": id }));
    body["params"]["_meta"]["io.modelcontextprotocol/clientCapabilities"] =
        json!({ "extensions": { EXTENSION: {} } });
    let mut headers = http.request_headers(&body);
    headers.insert("mcp-name", HeaderValue::from_static("another-task"));
    headers.insert(
        "authorization",
        HeaderValue::from_static("Bearer ada-token"),
    );
    let mismatched = http.post_with(headers, &body).await;
    assert_eq!(mismatched.status, reqwest::StatusCode::BAD_REQUEST);
    assert_eq!(
        mismatched.error_code(),
        Some(-32020),
        "{:?}",
        mismatched.messages
    );
    // A client that did not declare the extension is told it must.
    let mut undeclared = http.request_body("tasks/get", json!({ "taskId": id }));
    undeclared["params"]["_meta"]["io.modelcontextprotocol/clientCapabilities"] = json!({});
    let mut headers = http.request_headers(&undeclared);
    headers.insert(
        "authorization",
        HeaderValue::from_static("Bearer ada-token"),
    );
    let refused = http.post_with(headers, &undeclared).await;
    assert_eq!(refused.status, reqwest::StatusCode::BAD_REQUEST);
    assert_eq!(refused.error_code(), Some(-32021), "{:?}", refused.messages);

    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let got =
            stateless_request(&mut http, "ada-token", "tasks/get", json!({ "taskId": id })).await;
        let task = got.response()["result"].clone();
        assert_eq!(task["resultType"], "complete", "{task}");
        if task["status"] == "completed" {
            assert_eq!(
                task["result"]["content"][0]["text"], "waited 50 ms",
                "{task}"
            );
            break;
        }
        assert!(Instant::now() < deadline, "stuck: {task}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test]
async fn ending_a_session_cancels_the_tasks_only_it_could_reach() {
    let address = start(false).await;
    let mut ada = client(address, "2025-11-25");
    ada.initialize(json!({})).await;
    let created = ada
        .request(
            "tools/call",
            json!({ "name": "hold", "arguments": {}, "task": {} }),
        )
        .await;
    assert_eq!(
        created.response()["result"]["task"]["status"],
        "working",
        "{:?}",
        created.messages
    );
    assert_eq!(ada.delete().await, reqwest::StatusCode::OK);
    let deadline = Instant::now() + Duration::from_secs(10);
    while !HOLD_CANCELLED.load(Ordering::SeqCst) {
        assert!(
            Instant::now() < deadline,
            "the ended session's task still runs"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Ada's 2026-07-28 `subscriptions/listen` for `task_ids`, as a stream of its events.
async fn listen_for_tasks(client: &mut HttpClient, token: &str, task_ids: &[&str]) -> EventStream {
    let (body, headers) = declaring_request(
        client,
        token,
        "subscriptions/listen",
        json!({ "notifications": { "taskIds": task_ids } }),
    );
    let response = client.post_raw(headers, &body).await;
    assert_eq!(response.status(), reqwest::StatusCode::OK);
    EventStream::new(response, "2026-07-28")
}

/// A task as `tasks/get` gives it now, without what every 2026-07-28 result carries.
async fn task_now(client: &mut HttpClient, token: &str, id: &str) -> Value {
    let got = stateless_request(client, token, "tasks/get", json!({ "taskId": id })).await;
    let mut task = got.response()["result"].clone();
    let members = task.as_object_mut().expect("a task");
    members.remove("resultType");
    members.remove("_meta");
    task
}

/// Calls `wait_a_while` for `ms` milliseconds as a 2026-07-28 task of `token`'s principal;
/// the task's id.
async fn start_waiting_task(http: &mut HttpClient, token: &str, ms: u64) -> String {
    let call = json!({ "name": "wait_a_while", "arguments": { "ms": ms } });
    let created = stateless_request(http, token, "tools/call", call).await;
    created.response()["result"]["taskId"]
        .as_str()
        .unwrap_or_else(|| panic!("a task: {:?}", created.messages))
        .to_owned()
}

#[tokio::test]
async fn a_listen_stream_hears_of_its_callers_tasks_only() {
    let address = start(true).await;
    let mut http = client(address, "2026-07-28");
    let ada_task = start_waiting_task(&mut http, "ada-token", 600).await;
    let bob_task = start_waiting_task(&mut http, "bob-token", 600).await;

    let mut stream = listen_for_tasks(&mut http, "ada-token", &[&ada_task, &bob_task]).await;
    let acknowledged = stream.next().await.expect("the acknowledgement");
    assert_eq!(
        acknowledged["method"], "notifications/subscriptions/acknowledged",
        "{acknowledged}"
    );
    // Bob's task is left out as an unknown one would be.
    assert_eq!(
        acknowledged["params"]["notifications"],
        json!({ "taskIds": [ada_task] }),
        "{acknowledged}"
    );
    let subscription =
        acknowledged["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"].clone();
    let mut statuses = Vec::new();
    let last = loop {
        let notification = next_matching(&mut stream, |message| {
            message["method"] == "notifications/tasks"
        })
        .await;
        assert_eq!(
            notification["params"]["taskId"],
            ada_task.as_str(),
            "{notification}"
        );
        assert_eq!(
            notification["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"], subscription,
            "{notification}"
        );
        let status = notification["params"]["status"].as_str().expect("a status");
        statuses.push(status.to_owned());
        if status != "working" {
            break notification;
        }
    };
    assert_eq!(statuses, ["working", "completed"]);
    let mut notified = last["params"].clone();
    notified.as_object_mut().expect("a task").remove("_meta");
    assert_eq!(
        notified["result"]["content"][0]["text"], "waited 600 ms",
        "{notified}"
    );
    assert_eq!(notified, task_now(&mut http, "ada-token", &ada_task).await);
    assert!(
        !stream.ends_within(Duration::from_millis(300)).await,
        "the listen stream stays open, silent about the finished task"
    );

    // Bob hears of his own task, finished by now: its state as it ended, just once.
    let mut stream = listen_for_tasks(&mut http, "bob-token", &[&bob_task, &ada_task]).await;
    let acknowledged = stream.next().await.expect("the acknowledgement");
    assert_eq!(
        acknowledged["params"]["notifications"],
        json!({ "taskIds": [bob_task] }),
        "{acknowledged}"
    );
    let completed = stream.next().await.expect("the task as it ended");
    assert_eq!(completed["method"], "notifications/tasks", "{completed}");
    assert_eq!(completed["params"]["status"], "completed", "{completed}");
    assert_eq!(
        completed["params"]["taskId"],
        bob_task.as_str(),
        "{completed}"
    );
    assert!(!stream.ends_within(Duration::from_millis(300)).await);
}

/// One instance of a fleet sharing `redis`: tasks live there.
async fn fleet_instance(redis: &RedisServer) -> SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("a loopback port");
    let address = listener.local_addr().expect("an address");
    let server = Server::new("tasks", "1.0.0").task_poll_interval(Duration::from_millis(100));
    let http = server
        .http()
        .redis(redis.url())
        .redis_key_prefix("listen-fleet:");
    tokio::spawn(http.serve_on(listener));
    // `serve_on` joins the fleet (a first heartbeat) before it serves.
    let deadline = Instant::now() + Duration::from_secs(10);
    while reqwest::get(format!("http://{address}/mcp")).await.is_err() {
        assert!(Instant::now() < deadline, "the instance does not serve");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    address
}

#[tokio::test]
async fn a_listen_stream_hears_of_a_task_running_on_another_instance() {
    let redis = RedisServer::start();
    let running = fleet_instance(&redis).await;
    let listening = fleet_instance(&redis).await;
    let mut on_running = client(running, "2026-07-28");
    let id = start_waiting_task(&mut on_running, "anyone", 600).await;

    let mut on_listening = client(listening, "2026-07-28");
    let mut stream = listen_for_tasks(&mut on_listening, "anyone", &[&id]).await;
    let acknowledged = stream.next().await.expect("the acknowledgement");
    assert_eq!(
        acknowledged["params"]["notifications"],
        json!({ "taskIds": [id] }),
        "{acknowledged}"
    );
    let working = next_matching(&mut stream, |message| {
        message["method"] == "notifications/tasks"
    })
    .await;
    assert_eq!(working["params"]["status"], "working", "{working}");
    let completed = next_matching(&mut stream, |message| {
        message["method"] == "notifications/tasks"
    })
    .await;
    assert_eq!(completed["params"]["status"], "completed", "{completed}");
    let mut notified = completed["params"].clone();
    notified.as_object_mut().expect("a task").remove("_meta");
    assert_eq!(notified, task_now(&mut on_listening, "anyone", &id).await);
}
