//! What both targets share: one server connection over in-memory pipes, fed a whole input
//! at once (then end of input), and checks on what it wrote.

#![allow(dead_code)] // Each target uses part of it.

use std::collections::HashMap;
use std::sync::OnceLock;
use std::time::Duration;

use mcp_runtime::Server;
use serde_json::Value;
use tokio::io::AsyncReadExt as _;

/// The largest message the fuzzed servers accept; longer lines are refused unread.
pub const MAX_MESSAGE: usize = 64 * 1024;

/// A single-threaded runtime on a paused clock, reused by every input: tools' sleeps,
/// timeouts, rate limits and the shutdown grace take no real time.
pub fn runtime() -> &'static tokio::runtime::Runtime {
    static RUNTIME: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
    RUNTIME.get_or_init(|| {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .start_paused(true)
            .build()
            .expect("a runtime")
    })
}

/// Serves `input` on a fresh connection of `server` until the input ends and every call is
/// answered; returns every message the server wrote (the responses of a batch one by one),
/// each checked to be a well-formed JSON-RPC 2.0 message.
pub fn serve(server: Server, input: &[u8]) -> Vec<Value> {
    let input = std::io::Cursor::new(input.to_vec());
    let output = runtime().block_on(async move {
        let (writer, mut reader) = tokio::io::duplex(64 * 1024);
        let reading = async move {
            let mut output = Vec::new();
            reader
                .read_to_end(&mut output)
                .await
                .expect("in-memory pipe");
            output
        };
        let (served, output) = tokio::join!(server.serve_io(input, writer), reading);
        served.expect("the server ends cleanly when its input ends");
        output
    });
    if !output.is_empty() {
        assert!(output.ends_with(b"\n"), "the last line has no newline");
    }
    let mut messages = Vec::new();
    for line in output
        .split(|byte| *byte == b'\n')
        .filter(|line| !line.is_empty())
    {
        let text = std::str::from_utf8(line).expect("the server writes UTF-8");
        match serde_json::from_str(text).expect("every line is JSON") {
            Value::Array(batch) => {
                assert!(!batch.is_empty(), "an empty batch answer");
                for response in batch {
                    check_message(&response, text);
                    assert!(
                        response.get("method").is_none(),
                        "a batch answer holds responses only: {text}"
                    );
                    messages.push(response);
                }
            }
            message => {
                check_message(&message, text);
                messages.push(message);
            }
        }
    }
    messages
}

fn id_ok(id: &Value) -> bool {
    id.is_string() || id.is_i64() || id.is_u64()
}

/// One message the server wrote: a JSON-RPC 2.0 request, notification or response of the
/// right shape.
fn check_message(message: &Value, line: &str) {
    let fields = message.as_object().expect("every message is an object");
    assert_eq!(fields.get("jsonrpc"), Some(&Value::from("2.0")), "{line}");
    if let Some(method) = fields.get("method") {
        assert!(method.is_string(), "{line}");
        assert!(
            !fields.contains_key("result") && !fields.contains_key("error"),
            "{line}"
        );
        if let Some(id) = fields.get("id") {
            assert!(id_ok(id), "a request from the server with a bad id: {line}");
        }
        if let Some(params) = fields.get("params") {
            assert!(params.is_object(), "{line}");
        }
        return;
    }
    match (fields.get("result"), fields.get("error")) {
        (Some(result), None) => {
            assert!(result.is_object(), "{line}");
            assert!(
                fields.get("id").is_some_and(id_ok),
                "a result needs the request's id: {line}"
            );
        }
        (None, Some(error)) => {
            assert!(error["code"].is_i64(), "{line}");
            assert!(error["message"].is_string(), "{line}");
            if let Some(id) = fields.get("id") {
                assert!(id.is_null() || id_ok(id), "{line}");
            }
        }
        _ => panic!("a response needs exactly one of `result` and `error`: {line}"),
    }
}

/// The lines of `input` as the server frames them: split at `\n`, without a trailing `\r`,
/// only those it reads (UTF-8, within the size limit), parsed as JSON.
fn parsed_lines(input: &[u8]) -> impl Iterator<Item = Value> + '_ {
    input
        .split(|byte| *byte == b'\n')
        .filter(|line| line.len() < MAX_MESSAGE / 2)
        .filter_map(|line| std::str::from_utf8(line).ok())
        .filter_map(|line| serde_json::from_str::<Value>(line).ok())
}

/// An upper bound on answers: how many times each id (as JSON text) appears on a message
/// of `input`, batches included. No id may be answered more often.
pub fn ids_sent(input: &[u8]) -> HashMap<String, usize> {
    let mut ids = HashMap::new();
    let mut count = |message: &Value| {
        if let Some(id) = message.get("id").filter(|id| id_ok(id)) {
            *ids.entry(id.to_string()).or_insert(0) += 1;
        }
    };
    for message in parsed_lines(input) {
        match message {
            Value::Array(batch) => batch.iter().for_each(&mut count),
            message => count(&message),
        }
    }
    ids
}

/// The ids (as JSON text) that must be answered: every request on a line of its own — a
/// JSON object with `"jsonrpc": "2.0"`, a string `method`, a string or integer `id`, and
/// no `params` or object `params` — except those a `notifications/cancelled` anywhere in
/// the input may have cancelled (a cancelled request is not answered).
pub fn ids_owed(input: &[u8]) -> Vec<String> {
    let mut owed = Vec::new();
    let mut cancelled = Vec::new();
    for message in parsed_lines(input) {
        let Value::Object(fields) = message else {
            continue;
        };
        let is_message = fields.get("jsonrpc") == Some(&Value::from("2.0"))
            && fields.get("params").is_none_or(Value::is_object);
        match (
            fields.get("method").and_then(Value::as_str),
            fields.get("id"),
        ) {
            (Some("notifications/cancelled"), None) => {
                if let Some(id) = fields
                    .get("params")
                    .and_then(|params| params.get("requestId"))
                {
                    cancelled.push(id.to_string());
                }
            }
            (Some(_), Some(id)) if is_message && id_ok(id) => owed.push(id.to_string()),
            _ => {}
        }
    }
    owed.retain(|id| !cancelled.contains(id));
    owed
}

/// How many responses (not the server's own requests or notifications) each id got.
pub fn answers_by_id(messages: &[Value]) -> HashMap<String, usize> {
    let mut answered = HashMap::new();
    for message in messages
        .iter()
        .filter(|message| message.get("method").is_none())
    {
        if let Some(id) = message.get("id").filter(|id| !id.is_null()) {
            *answered.entry(id.to_string()).or_insert(0) += 1;
        }
    }
    answered
}

/// The server every input of a target is served by: small limits and short timeouts, so
/// runs stay fast and bounded.
pub fn server() -> Server {
    Server::new("fuzz", "0.0.0")
        .max_message_size(MAX_MESSAGE)
        .call_timeout(Duration::from_millis(200))
        .shutdown_grace(Duration::from_millis(500))
        .client_request_timeout(Duration::from_millis(100))
}
