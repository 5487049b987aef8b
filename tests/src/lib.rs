//! Test harness: a stdio MCP client that drives a real server process and checks every
//! message the server sends against the official `schema.json` of the protocol revision
//! in use (`tests/spec/<revision>/schema.json`, vendored from the specification).

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

pub mod examples;
pub mod general_path;
pub mod process;
pub mod tasks;

/// How long to wait for any single message before failing the test.
pub const RECEIVE_TIMEOUT: Duration = Duration::from_secs(20);

/// Every protocol revision, oldest first.
pub const REVISIONS: [&str; 5] = [
    "2024-11-05",
    "2025-03-26",
    "2025-06-18",
    "2025-11-25",
    "2026-07-28",
];

/// The revisions negotiated with `initialize`.
pub const HANDSHAKE_REVISIONS: [&str; 4] = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"];

/// The stateless revision.
pub const STATELESS_REVISION: &str = "2026-07-28";

/// Where the official schemas live: vendored into `tests/spec`, so a clone alone runs the
/// tests.
pub fn spec_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("spec")
}

/// The official schema of one revision, with a validator per definition, built on demand.
pub struct SpecSchema {
    revision: String,
    document: Value,
    definitions_key: &'static str,
    validators: std::sync::Mutex<HashMap<String, Arc<jsonschema::Validator>>>,
}

impl SpecSchema {
    /// Loads (once per process) the schema of `revision`.
    pub fn of(revision: &str) -> &'static SpecSchema {
        static LOADED: OnceLock<HashMap<&'static str, SpecSchema>> = OnceLock::new();
        let all = LOADED.get_or_init(|| {
            REVISIONS
                .iter()
                .map(|revision| {
                    let path = spec_dir().join(revision).join("schema.json");
                    let text = std::fs::read_to_string(&path)
                        .unwrap_or_else(|error| panic!("cannot read {}: {error}", path.display()));
                    let document: Value = serde_json::from_str(&text).expect("schema.json is JSON");
                    let definitions_key = if document.get("$defs").is_some() {
                        "$defs"
                    } else {
                        "definitions"
                    };
                    (
                        *revision,
                        SpecSchema {
                            revision: (*revision).to_owned(),
                            document,
                            definitions_key,
                            validators: Default::default(),
                        },
                    )
                })
                .collect()
        });
        all.get(revision)
            .unwrap_or_else(|| panic!("no schema for revision {revision}"))
    }

    /// Whether the revision defines `definition`.
    pub fn has(&self, definition: &str) -> bool {
        self.document[self.definitions_key]
            .get(definition)
            .is_some()
    }

    fn validator(&self, definition: &str) -> Arc<jsonschema::Validator> {
        let mut validators = self.validators.lock().unwrap();
        validators
            .entry(definition.to_owned())
            .or_insert_with(|| {
                assert!(
                    self.has(definition),
                    "{} has no definition {definition}",
                    self.revision
                );
                let mut schema = self.document.clone();
                schema["$ref"] = json!(format!("#/{}/{definition}", self.definitions_key));
                Arc::new(jsonschema::validator_for(&schema).unwrap_or_else(|error| {
                    panic!("{} schema does not compile: {error}", self.revision)
                }))
            })
            .clone()
    }

    /// Panics, naming every violation, unless `instance` is a valid `definition`.
    pub fn assert_valid(&self, definition: &str, instance: &Value) {
        let validator = self.validator(definition);
        let problems: Vec<String> = validator
            .iter_errors(instance)
            .map(|error| format!("  at {}: {error}", error.instance_path()))
            .collect();
        assert!(
            problems.is_empty(),
            "not a valid {definition} of revision {}:\n{}\nmessage: {instance}",
            self.revision,
            problems.join("\n")
        );
    }
}

/// The result definition that answers `method` in the official schemas.
fn result_definition(method: &str) -> Option<&'static str> {
    Some(match method {
        "initialize" => "InitializeResult",
        "tools/list" => "ListToolsResult",
        "tools/call" => "CallToolResult",
        "server/discover" => "DiscoverResult",
        "ping" | "resources/subscribe" | "resources/unsubscribe" => "EmptyResult",
        "resources/list" => "ListResourcesResult",
        "resources/templates/list" => "ListResourceTemplatesResult",
        "resources/read" => "ReadResourceResult",
        "prompts/list" => "ListPromptsResult",
        "prompts/get" => "GetPromptResult",
        "completion/complete" => "CompleteResult",
        "tasks/get" => "GetTaskResult",
        "tasks/list" => "ListTasksResult",
        "tasks/cancel" => "CancelTaskResult",
        "tasks/result" => "GetTaskPayloadResult",
        _ => return None,
    })
}

/// The schema definition `result` of `method` is checked against under `revision`: an
/// `input_required` result has its own; a call answered with a task, 2025-11-25's
/// `CreateTaskResult`. `None` where the revision's schema has no definition for it: the
/// 2026-07-28 tasks extension is not in the core schema (its shapes are checked by
/// `tests/tests/tasks.rs` and by the extension's own client in `interop/`).
fn result_definition_for(revision: &str, method: &str, result: &Value) -> Option<&'static str> {
    let definition = match result.get("resultType").and_then(Value::as_str) {
        Some("input_required") => "InputRequiredResult",
        Some("task") => return None,
        _ if method == "tools/call" && result.get("task").is_some() => "CreateTaskResult",
        _ => result_definition(method)?,
    };
    SpecSchema::of(revision)
        .has(definition)
        .then_some(definition)
}

/// The schema definition of a notification the server sends (those the checks single out;
/// every message is checked as a JSON-RPC message of its revision too).
fn server_notification_definition(method: &str) -> Option<&'static str> {
    Some(match method {
        "notifications/resources/updated" => "ResourceUpdatedNotification",
        "notifications/resources/list_changed" => "ResourceListChangedNotification",
        "notifications/prompts/list_changed" => "PromptListChangedNotification",
        "notifications/tools/list_changed" => "ToolListChangedNotification",
        "notifications/progress" => "ProgressNotification",
        "notifications/message" => "LoggingMessageNotification",
        "notifications/tasks/status" => "TaskStatusNotification",
        _ => return None,
    })
}

/// The schema definition of a request the server sends to the client.
fn server_request_definition(method: &str) -> Option<&'static str> {
    Some(match method {
        "elicitation/create" => "ElicitRequest",
        "sampling/createMessage" => "CreateMessageRequest",
        "roots/list" => "ListRootsRequest",
        _ => return None,
    })
}

/// A server process spoken to over its stdin/stdout.
pub struct StdioClient {
    child: Child,
    stdin: Option<ChildStdin>,
    received: Receiver<Vec<u8>>,
    next_id: i64,
    /// The revision whose schema every received message is checked against, if any.
    revision: Option<String>,
    /// Every message the server sent, in order.
    pub transcript: Vec<Value>,
}

impl StdioClient {
    /// Starts `program` with `args`; its stderr is inherited so failures show the logs.
    pub fn spawn(program: &str, args: &[&str]) -> StdioClient {
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap_or_else(|error| panic!("cannot start {program}: {error}"));
        let stdout = child.stdout.take().expect("piped stdout");
        let (sender, received) = mpsc::channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            loop {
                let mut line = Vec::new();
                match reader.read_until(b'\n', &mut line) {
                    Ok(0) | Err(_) => return,
                    Ok(_) => {
                        if sender.send(line).is_err() {
                            return;
                        }
                    }
                }
            }
        });
        StdioClient {
            stdin: child.stdin.take(),
            child,
            received,
            next_id: 1,
            revision: None,
            transcript: Vec::new(),
        }
    }

    /// Checks every later message against this revision's schema.
    pub fn check_against(&mut self, revision: &str) {
        self.revision = Some(revision.to_owned());
    }

    /// Writes raw bytes to the server's stdin.
    pub fn send_raw(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin is open");
        stdin.write_all(bytes).expect("write to server");
        stdin.flush().expect("flush to server");
    }

    /// Sends one JSON message as a line.
    pub fn send(&mut self, message: &Value) {
        let mut line = serde_json::to_vec(message).unwrap();
        line.push(b'\n');
        self.send_raw(&line);
    }

    /// Closes the server's stdin (end of input).
    pub fn close_stdin(&mut self) {
        self.stdin = None;
    }

    /// The next message from the server. Each must be exactly one JSON value on one line,
    /// and — when a revision is set — a valid JSON-RPC message of that revision.
    pub fn receive(&mut self) -> Value {
        self.try_receive(RECEIVE_TIMEOUT)
            .unwrap_or_else(|| panic!("no message from the server within {RECEIVE_TIMEOUT:?}"))
    }

    /// The next message, or `None` if none arrives within `timeout` (or stdout closed).
    pub fn try_receive(&mut self, timeout: Duration) -> Option<Value> {
        let line = match self.received.recv_timeout(timeout) {
            Ok(line) => line,
            Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => return None,
        };
        assert!(
            line.ends_with(b"\n"),
            "the server's last line has no newline: {line:?}"
        );
        let text = std::str::from_utf8(&line).expect("the server wrote UTF-8");
        let message: Value =
            serde_json::from_str(text.trim_end_matches('\n')).unwrap_or_else(|error| {
                panic!("the server wrote a line that is not JSON ({error}): {text:?}")
            });
        if let Some(revision) = &self.revision {
            check_server_message(revision, &message);
        }
        self.transcript.push(message.clone());
        Some(message)
    }

    /// Whether stdout has ended, waiting up to `timeout` for it (any message received in
    /// the meantime fails the check).
    pub fn stdout_closed_within(&mut self, timeout: Duration) -> bool {
        match self.received.recv_timeout(timeout) {
            Err(RecvTimeoutError::Disconnected) => true,
            Err(RecvTimeoutError::Timeout) => false,
            Ok(line) => panic!("unexpected message: {}", String::from_utf8_lossy(&line)),
        }
    }

    /// A fresh integer request id.
    pub fn next_id(&mut self) -> i64 {
        let id = self.next_id;
        self.next_id += 1;
        id
    }

    /// Sends a request and returns its response, checking the result against the
    /// method's result definition when a revision is set. Notifications that arrive first
    /// are kept in the transcript.
    pub fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id();
        let mut request = json!({ "jsonrpc": "2.0", "id": id, "method": method });
        if !params.is_null() {
            request["params"] = params;
        }
        self.send(&request);
        let response = self.response_to(&json!(id));
        if let (Some(revision), Some(result)) = (&self.revision, response.get("result"))
            && let Some(definition) = result_definition_for(revision, method, result)
        {
            SpecSchema::of(revision).assert_valid(definition, result);
        }
        response
    }

    /// Waits for the response with this id.
    pub fn response_to(&mut self, id: &Value) -> Value {
        let deadline = Instant::now() + RECEIVE_TIMEOUT;
        loop {
            let remaining = deadline.saturating_duration_since(Instant::now());
            let message = self
                .try_receive(remaining)
                .unwrap_or_else(|| panic!("no response to request {id}"));
            if message.get("id") == Some(id) && message.get("method").is_none() {
                return message;
            }
        }
    }

    /// The next request the server sends to the client (notifications that arrive first
    /// are kept in the transcript; a response fails the test).
    pub fn request_from_server(&mut self) -> Value {
        loop {
            let message = self.receive();
            match (message.get("method"), message.get("id")) {
                (Some(_), Some(_)) => return message,
                (Some(_), None) => continue,
                _ => panic!("expected a request from the server, got {message}"),
            }
        }
    }

    /// Answers a request from the server with `result`.
    pub fn respond(&mut self, request: &Value, result: Value) {
        self.send(&json!({ "jsonrpc": "2.0", "id": request["id"], "result": result }));
    }

    /// `initialize` + `notifications/initialized` at `revision`; returns the result and
    /// checks every later message against the negotiated revision.
    pub fn initialize(&mut self, revision: &str) -> Value {
        self.initialize_with(revision, json!({}))
    }

    /// [`initialize`](Self::initialize), declaring these client capabilities.
    pub fn initialize_with(&mut self, revision: &str, capabilities: Value) -> Value {
        self.check_against(revision);
        let response = self.request(
            "initialize",
            json!({
                "protocolVersion": revision,
                "capabilities": capabilities,
                "clientInfo": { "name": "mcp-tests", "version": "0" },
            }),
        );
        let result = response["result"].clone();
        assert_eq!(result["protocolVersion"], revision, "{response}");
        self.send(&json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }));
        result
    }

    /// A 2026-07-28 request: `_meta` carries the version and (empty) client capabilities.
    pub fn stateless_request(&mut self, method: &str, mut params: Value) -> Value {
        if params.is_null() {
            params = json!({});
        }
        params["_meta"] = stateless_meta();
        self.request(method, params)
    }

    /// The server's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// A `kB` figure of the server's `/proc/<pid>/status` (`VmRSS`, `VmHWM`, ...).
    pub fn memory_kb(&self, field: &str) -> u64 {
        status_kb(self.pid(), field).unwrap_or_else(|| panic!("no {field} for the server"))
    }

    /// Waits up to `timeout` for the process to exit.
    pub fn wait_for_exit(&mut self, timeout: Duration) -> Option<ExitStatus> {
        let deadline = Instant::now() + timeout;
        while Instant::now() < deadline {
            if let Some(status) = self.child.try_wait().expect("try_wait") {
                return Some(status);
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        None
    }
}

impl Drop for StdioClient {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// JSON-RPC 2.0 answers a request whose id could not be read with `"id": null`, which the
/// schemas before 2025-11-25 cannot express (they require a string or integer id). Such a
/// message is checked in every other respect: its null id is swapped for 0.
fn comparable_id(message: &Value) -> Value {
    let mut message = message.clone();
    if message.get("id") == Some(&Value::Null) && message.get("error").is_some() {
        message["id"] = json!(0);
    }
    message
}

/// A `kB` figure (`VmRSS`, `VmHWM`, ...) from `/proc/<pid>/status`; `None` once the process
/// has gone (or off Linux).
pub fn status_kb(pid: u32, field: &str) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status.lines().find_map(|line| {
        let value = line.strip_prefix(field)?.strip_prefix(':')?;
        value.trim().strip_suffix("kB")?.trim().parse().ok()
    })
}

/// Panics unless `message`, sent by the server, is a valid JSON-RPC message of `revision`
/// (and, for a request to the client, a valid request of its kind).
pub fn check_server_message(revision: &str, message: &Value) {
    let schema = SpecSchema::of(revision);
    schema.assert_valid("JSONRPCMessage", &comparable_id(message));
    let Some(method) = message.get("method").and_then(Value::as_str) else {
        return;
    };
    // A request from the server is checked against its own definition, and so is a
    // notification of a kind the revision defines.
    let definition = if message.get("id").is_some() {
        server_request_definition(method)
    } else {
        server_notification_definition(method).filter(|definition| schema.has(definition))
    };
    if let Some(definition) = definition {
        schema.assert_valid(definition, message);
    }
}

/// Panics unless `result` is a valid result of `method` under `revision` (methods the
/// schemas know; others pass).
pub fn check_result(revision: &str, method: &str, result: &Value) {
    if let Some(definition) = result_definition_for(revision, method, result) {
        SpecSchema::of(revision).assert_valid(definition, result);
    }
}

/// The `_meta` of a 2026-07-28 request.
pub fn stateless_meta() -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": STATELESS_REVISION,
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": { "name": "mcp-tests", "version": "0" },
    })
}

/// The text of a call result's first content block.
pub fn first_text(result: &Value) -> &str {
    result["content"][0]["text"]
        .as_str()
        .unwrap_or_else(|| panic!("no text block in {result}"))
}

/// A tool named `add` in this library, for the `duplicate_names` fixture, which defines
/// another `add`: within one crate that would not compile, across crates the server refuses
/// to start.
#[doc(hidden)]
pub mod duplicate_across_crates {
    /// Adds, from the library.
    #[mcp_runtime::mcp_tool]
    pub async fn add(a: i64, b: i64) -> i64 {
        a + b
    }
}

/// An in-process [`TestClient`](mcp_runtime::testing::TestClient) speaking `revision`,
/// every message from the server checked against that revision's official schema (a
/// violation panics in the client's reader, which then fails the request in flight).
pub fn checked_client(revision: &str) -> mcp_runtime::testing::TestClientBuilder {
    let version = mcp_runtime::ProtocolVersion::parse(revision).expect("a known revision");
    let schema = SpecSchema::of(revision);
    mcp_runtime::testing::TestClient::builder()
        .revision(version)
        .observe(move |message| schema.assert_valid("JSONRPCMessage", &comparable_id(message)))
}
