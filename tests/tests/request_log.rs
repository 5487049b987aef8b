//! `RUST_LOG=mcp_runtime=debug`, what the README tells hosts to set, shows one line per
//! request: its method, the tool, prompt or resource it names, its id, its outcome (`ok`,
//! `error` and the JSON-RPC code, `isError`) and its duration, over stdio and over HTTP. At
//! the default level there is none.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::Duration;

use mcp_tests::{RECEIVE_TIMEOUT, stateless_meta};
use serde_json::{Value, json};

const FIXTURE: &str = env!("CARGO_BIN_EXE_fixture");
const PRIMITIVES: &str = env!("CARGO_BIN_EXE_primitives");

/// Runs `program` over stdio with `RUST_LOG` set to `filter` (unset: the default), sends
/// `messages` after the handshake, closes its input and returns what it wrote to stderr.
fn stdio_stderr(program: &str, filter: Option<&str>, messages: &[Value]) -> String {
    let mut command = Command::new(program);
    match filter {
        Some(filter) => command.env("RUST_LOG", filter),
        None => command.env_remove("RUST_LOG"),
    };
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the server starts");
    let mut stdin = child.stdin.take().unwrap();
    let initialize = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "request-log", "version": "0"},
    }});
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    for message in [&initialize, &initialized].into_iter().chain(messages) {
        writeln!(stdin, "{message}").unwrap();
    }
    // Every request is answered before the input's end is read, so each has its line.
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    for _ in 0..=messages.len() {
        line.clear();
        stdout.read_line(&mut line).unwrap();
    }
    drop(stdin);
    let output = child.wait_with_output().unwrap();
    String::from_utf8(output.stderr).unwrap()
}

/// The request lines in `stderr`.
fn request_lines(stderr: &str) -> Vec<&str> {
    // The event's own fields: with the `otel` feature the line starts with the request's
    // span, whose fields (`otel.name=...`, `gen_ai.tool.name=...`) would match too.
    stderr
        .lines()
        .filter_map(|line| {
            let (head, fields) = line.split_once("request answered")?;
            assert!(head.contains("DEBUG"), "{line}");
            Some(fields)
        })
        .collect()
}

/// The one request line with this id, which must show each of `parts`.
#[track_caller]
fn assert_line(stderr: &str, id: &str, parts: &[&str]) {
    let id = format!(" id={id} ");
    let lines: Vec<&str> = request_lines(stderr)
        .into_iter()
        .filter(|line| line.contains(&id))
        .collect();
    assert_eq!(lines.len(), 1, "{id}: {stderr}");
    let line = lines[0];
    assert!(line.contains(" duration="), "{line}");
    for part in parts {
        assert!(line.contains(part), "{part} not in {line}");
    }
}

fn request(id: i64, method: &str, params: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
}

#[test]
fn over_stdio_each_request_has_one_debug_line() {
    let stderr = stdio_stderr(
        FIXTURE,
        Some("mcp_runtime=debug"),
        &[
            request(
                1,
                "tools/call",
                json!({"name": "echo", "arguments": {"text": "hi"}}),
            ),
            request(
                2,
                "tools/call",
                json!({"name": "fails", "arguments": {"message": "no"}}),
            ),
            request(3, "tools/call", json!({"name": "echo", "arguments": {}})),
            request(4, "no/such/method", json!({})),
            request(5, "tools/list", json!({})),
            request(
                6,
                "tools/call",
                json!({"name": "sleep", "arguments": {"ms": 20}}),
            ),
        ],
    );
    assert_line(&stderr, "0", &[r#"method="initialize""#, r#"outcome="ok""#]);
    assert_line(
        &stderr,
        "1",
        &[
            r#"method="tools/call""#,
            r#"name="echo""#,
            r#"outcome="ok""#,
        ],
    );
    assert_line(&stderr, "2", &[r#"name="fails""#, r#"outcome="isError""#]);
    // Invalid arguments are the tool's `isError`, as the spec has them.
    assert_line(&stderr, "3", &[r#"name="echo""#, r#"outcome="isError""#]);
    assert_line(
        &stderr,
        "4",
        &[r#"method="no/such/method""#, r#"outcome="error -32601""#],
    );
    assert_line(&stderr, "5", &[r#"method="tools/list""#, r#"outcome="ok""#]);
    assert!(!request_lines(&stderr)[5].contains("name="), "{stderr}");
    // A call that waits is logged when it is done, with how long it took.
    assert_line(&stderr, "6", &[r#"name="sleep""#, r#"outcome="ok""#]);
    assert_eq!(request_lines(&stderr).len(), 7, "{stderr}");
}

#[test]
fn prompts_and_resources_are_named_in_their_lines() {
    let stderr = stdio_stderr(
        PRIMITIVES,
        Some("mcp_runtime=debug"),
        &[
            request(1, "resources/read", json!({"uri": "fixed://text"})),
            request(2, "prompts/get", json!({"name": "greet"})),
            request(3, "resources/read", json!({"uri": "fixed://nowhere"})),
        ],
    );
    assert_line(
        &stderr,
        "1",
        &[
            r#"method="resources/read""#,
            r#"name="fixed://text""#,
            r#"outcome="ok""#,
        ],
    );
    assert_line(
        &stderr,
        "2",
        &[
            r#"method="prompts/get""#,
            r#"name="greet""#,
            r#"outcome="ok""#,
        ],
    );
    assert_line(
        &stderr,
        "3",
        &[r#"name="fixed://nowhere""#, "outcome=\"error -3"],
    );
}

#[test]
fn at_the_default_level_no_request_is_logged() {
    let messages = [request(
        1,
        "tools/call",
        json!({"name": "echo", "arguments": {"text": "hi"}}),
    )];
    assert_eq!(stdio_stderr(FIXTURE, None, &messages), "");
    let info = stdio_stderr(FIXTURE, Some("mcp_runtime=info"), &messages);
    assert!(request_lines(&info).is_empty(), "{info}");
}

/// Lines of `child`'s stderr as they come.
fn stderr_lines(child: &mut Child) -> Receiver<String> {
    let (sender, receiver) = mpsc::channel();
    let stderr = child.stderr.take().unwrap();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            if sender.send(line).is_err() {
                break;
            }
        }
    });
    receiver
}

/// POSTs the `tools/call` of `tool` in `body` to the server at `address` as a 2026-07-28
/// request, with the headers that revision asks for, and returns the response.
fn post(address: &str, tool: &str, body: &Value) -> String {
    let body = body.to_string();
    let mut stream = TcpStream::connect(address).unwrap();
    stream.set_read_timeout(Some(RECEIVE_TIMEOUT)).unwrap();
    write!(
        stream,
        "POST /mcp HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\n\
         Mcp-Method: tools/call\r\nMcp-Name: {tool}\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    response
}

#[test]
fn over_http_each_request_has_one_debug_line() {
    let mut child = Command::new(FIXTURE)
        .args(["--http", "127.0.0.1:0"])
        .env("RUST_LOG", "mcp_runtime=debug")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the server starts");
    let lines = stderr_lines(&mut child);
    let listening = loop {
        let line = lines
            .recv_timeout(RECEIVE_TIMEOUT)
            .expect("the server says where it listens");
        if let Some(rest) = line.strip_prefix("MCP server listening on http://") {
            break rest.strip_suffix("/mcp").expect("the /mcp path").to_owned();
        }
    };
    let call = |id: i64, name: &str, arguments: Value| {
        request(
            id,
            "tools/call",
            json!({"name": name, "arguments": arguments, "_meta": stateless_meta()}),
        )
    };
    let ok = post(
        &listening,
        "echo",
        &call(41, "echo", json!({"text": "over http"})),
    );
    assert!(ok.contains("over http"), "{ok}");
    let failed = post(
        &listening,
        "fails",
        &call(42, "fails", json!({"message": "no"})),
    );
    assert!(failed.contains("\"isError\":true"), "{failed}");
    let mut seen = Vec::new();
    while seen
        .iter()
        .filter(|line: &&String| line.contains("request answered"))
        .count()
        < 2
    {
        match lines.recv_timeout(Duration::from_secs(10)) {
            Ok(line) => seen.push(line),
            Err(_) => break,
        }
    }
    let _ = child.kill();
    let _ = child.wait();
    let stderr = seen.join("\n");
    assert_line(
        &stderr,
        "41",
        &[
            r#"method="tools/call""#,
            r#"name="echo""#,
            r#"outcome="ok""#,
        ],
    );
    assert_line(&stderr, "42", &[r#"name="fails""#, r#"outcome="isError""#]);
}
