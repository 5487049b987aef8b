//! What both targets share: one server connection over in-memory pipes, fed a whole input
//! at once (then end of input), and checks on what it wrote.

use std::collections::HashMap;
use std::sync::OnceLock;
use std::time::Duration;

use mcp_runtime::Server;
use serde_json::Value;
use tokio::io::AsyncReadExt as _;

/// A single-threaded runtime on a paused clock, reused by every input.
fn runtime() -> &'static tokio::runtime::Runtime {
    static RUNTIME: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
    RUNTIME.get_or_init(|| {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .start_paused(true)
            .build()
            .expect("a runtime")
    })
}

/// Serves `input` on a fresh connection until it ends and every call is answered; returns
/// every line the server wrote, each checked to be a JSON-RPC 2.0 message.
pub fn serve(input: &[u8]) -> Vec<Value> {
    let server = Server::new("fuzz", "0.0.0")
        .max_message_size(64 * 1024)
        .call_timeout(Duration::from_millis(200))
        .shutdown_grace(Duration::from_millis(500))
        .client_request_timeout(Duration::from_millis(100));
    let input = std::io::Cursor::new(input.to_vec());
    let output = runtime().block_on(async move {
        let (writer, mut reader) = tokio::io::duplex(64 * 1024);
        let reading = async move {
            let mut output = Vec::new();
            reader.read_to_end(&mut output).await.expect("in-memory pipe");
            output
        };
        let (served, output) = tokio::join!(server.serve_io(input, writer), reading);
        served.expect("the server ends cleanly when its input ends");
        output
    });
    if !output.is_empty() {
        assert!(output.ends_with(b"\n"), "the last line has no newline");
    }
    output
        .split(|byte| *byte == b'\n')
        .filter(|line| !line.is_empty())
        .map(checked_message)
        .collect()
}

/// One output line: UTF-8, one JSON object, a JSON-RPC 2.0 request, notification or
/// response of the right shape.
fn checked_message(line: &[u8]) -> Value {
    let text = std::str::from_utf8(line).expect("the server writes UTF-8");
    let message: Value = serde_json::from_str(text).expect("every line is JSON");
    let fields = message.as_object().expect("every message is an object");
    assert_eq!(fields.get("jsonrpc"), Some(&Value::from("2.0")), "{text}");
    let id_ok = |id: &Value| id.is_string() || id.is_i64() || id.is_u64();
    if let Some(method) = fields.get("method") {
        assert!(method.is_string(), "{text}");
        assert!(!fields.contains_key("result") && !fields.contains_key("error"), "{text}");
        if let Some(id) = fields.get("id") {
            assert!(id_ok(id), "a request from the server with a bad id: {text}");
        }
    } else {
        match (fields.get("result"), fields.get("error")) {
            (Some(result), None) => {
                assert!(result.is_object(), "{text}");
                assert!(fields.get("id").is_some_and(id_ok), "a result needs the request's id: {text}");
            }
            (None, Some(error)) => {
                assert!(error["code"].is_i64(), "{text}");
                assert!(error["message"].is_string(), "{text}");
                if let Some(id) = fields.get("id") {
                    assert!(id.is_null() || id_ok(id), "{text}");
                }
            }
            _ => panic!("a response needs exactly one of `result` and `error`: {text}"),
        }
    }
    message
}

/// How many times each id (as JSON text) appears on a message of `input`, batches included.
/// A request is answered at most that many times.
pub fn ids_sent(input: &[u8]) -> HashMap<String, usize> {
    let mut ids = HashMap::new();
    let mut count = |message: &Value| {
        if let Some(id) = message.get("id").filter(|id| !id.is_null()) {
            *ids.entry(id.to_string()).or_insert(0) += 1;
        }
    };
    for line in input.split(|byte| *byte == b'\n') {
        match serde_json::from_slice::<Value>(line) {
            Ok(Value::Array(batch)) => batch.iter().for_each(&mut count),
            Ok(message) => count(&message),
            Err(_) => {}
        }
    }
    ids
}

/// The server's responses (not its own requests or notifications) by id.
pub fn responses_by_id(messages: &[Value]) -> HashMap<String, usize> {
    let mut answered = HashMap::new();
    for message in messages.iter().filter(|message| message.get("method").is_none()) {
        if let Some(id) = message.get("id").filter(|id| !id.is_null()) {
            *answered.entry(id.to_string()).or_insert(0) += 1;
        }
    }
    answered
}
