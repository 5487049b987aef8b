//! Bad input, tried systematically: one table of every kind of malformed or
//! unexpected input, each sent over stdio to the fixture server in every revision — the four
//! handshake revisions after `initialize`, and 2026-07-28 (stateless, `_meta` on every
//! request, never initialized). For each input the test checks the exact answer (code, id,
//! and the message where the manual documents it) or that nothing at all is sent, and then
//! that the next request is still served: a `tools/call` probe whose response must be the
//! very next message. The manual's "Errors" table (`mcp-runtime/docs/protocol.md`) documents every row.

use mcp_tests::{HANDSHAKE_REVISIONS, STATELESS_REVISION, StdioClient, first_text, stateless_meta};
use serde_json::{Value, json};

/// 2^53 − 1, the bound 64-bit integer arguments publish: what a JavaScript client holds.
const MAX_SAFE_INTEGER: i64 = (1 << 53) - 1;

/// The revision a table row is sent under.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Era {
    /// After `initialize` negotiated this revision.
    Handshake(&'static str),
    /// 2026-07-28: `_meta` on every request, no `initialize` ever sent.
    Stateless,
}

impl Era {
    fn is(self, revision: &'static str) -> bool {
        self == Era::Handshake(revision)
    }

    /// Whether an error whose request id could not be read leaves `id` out (2025-11-25 and
    /// later) rather than sending `"id": null`.
    fn omits_unknown_ids(self) -> bool {
        !matches!(
            self,
            Era::Handshake("2024-11-05" | "2025-03-26" | "2025-06-18")
        )
    }
}

/// What the server must answer to one input.
enum Expect {
    /// Nothing at all: the probe's response is the next message.
    Nothing,
    /// A JSON-RPC error: `id` is `None` when the request's id could not be read.
    Error {
        id: Option<Value>,
        code: i64,
        message: Message,
        data: Option<Value>,
    },
    /// A `tools/call` result with `isError: true` whose text names each of these.
    ToolError(&'static [&'static str]),
    /// A `tools/call` result with `isError: true` and exactly this text.
    ToolErrorText(&'static str),
    /// A result, checked by the function.
    Result(Value, fn(&Value)),
    /// A batch response (an array), checked by the function.
    Batch(fn(&Value)),
}

/// How an error's message is checked.
enum Message {
    Exact(String),
    /// Worded by serde_json: only the prefix is ours.
    Prefix(&'static str),
}

fn error(id: Option<Value>, code: i64, message: &str) -> Expect {
    Expect::Error {
        id,
        code,
        message: Message::Exact(message.to_owned()),
        data: None,
    }
}

fn unknown_id(code: i64, message: &str) -> Expect {
    error(None, code, message)
}

fn not_an_object() -> Expect {
    unknown_id(
        -32600,
        "Invalid request: a JSON-RPC message must be a JSON object.",
    )
}

fn bad_id() -> Expect {
    unknown_id(
        -32600,
        "Invalid request: `id` must be a string or an integer.",
    )
}

fn bad_params() -> Expect {
    error(
        Some(json!(1)),
        -32602,
        "Invalid params: `params` must be an object.",
    )
}

fn bad_arguments() -> Expect {
    error(
        Some(json!(1)),
        -32602,
        "Invalid params: `arguments` must be an object.",
    )
}

fn line(value: &Value) -> Vec<u8> {
    let mut line = serde_json::to_vec(value).unwrap();
    line.push(b'\n');
    line
}

/// `params`, with the era's `_meta` added when stateless.
fn params_in(era: Era, mut params: Value) -> Value {
    if era == Era::Stateless {
        params["_meta"] = stateless_meta();
    }
    params
}

/// A request line with id 1.
fn request(era: Era, method: &str, params: Value) -> Vec<u8> {
    line(&json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params_in(era, params)}))
}

/// A `tools/call` line with id 1.
fn call(era: Era, name: &str, arguments: Value) -> Vec<u8> {
    request(
        era,
        "tools/call",
        json!({"name": name, "arguments": arguments}),
    )
}

/// A `tools/call` of `echo` whose raw text (inside the quotes) is `text`.
fn echo_raw(era: Era, id: &str, text: &[u8]) -> Vec<u8> {
    let meta = match era {
        Era::Stateless => format!(",\"_meta\":{}", stateless_meta()),
        Era::Handshake(_) => String::new(),
    };
    let mut line = format!(
        "{{\"jsonrpc\":\"2.0\",\"id\":{id},\"method\":\"tools/call\",\"params\":{{\"name\":\"echo\"{meta},\"arguments\":{{\"text\":\""
    )
    .into_bytes();
    line.extend_from_slice(text);
    line.extend_from_slice(b"\"}}}\n");
    line
}

fn needs_version(method: &str) -> String {
    format!(
        "Invalid params: `{method}` needs a protocol version: send `initialize` first, or name the \
         version in params._meta[\"io.modelcontextprotocol/protocolVersion\"] (2026-07-28)."
    )
}

/// One row: what is sent and what must come back, by era. `heavy` rows (megabytes of input)
/// run in two eras only, 2025-11-25 and 2026-07-28. A `pre_initialize` row gets a
/// handshake-era answer even in the stateless session (which never initialized), so its
/// answer is checked against the 2025-11-25 schema there.
struct Case {
    what: &'static str,
    input: fn(Era) -> Vec<u8>,
    expect: fn(Era) -> Expect,
    heavy: bool,
    pre_initialize: bool,
}

const fn case(what: &'static str, input: fn(Era) -> Vec<u8>, expect: fn(Era) -> Expect) -> Case {
    Case {
        what,
        input,
        expect,
        heavy: false,
        pre_initialize: false,
    }
}

/// 100 MB: far past the 8 MiB limit.
const HUGE_LINE: usize = 100 * 1000 * 1000;
/// 5 MB: under the limit, so answered in full.
const BIG_STRING: usize = 5 * 1000 * 1000;
/// The server's peak memory after the 100 MB line must stay below this.
const PEAK_AFTER_HUGE_LINE_KB: u64 = 48 * 1024;

fn table() -> Vec<Case> {
    vec![
        // --- Framing ---------------------------------------------------------------------
        case("an empty line", |_| b"\n".to_vec(), |_| Expect::Nothing),
        case(
            "whitespace only",
            |_| b" \t  \r\n".to_vec(),
            |_| Expect::Nothing,
        ),
        case(
            "invalid UTF-8",
            |_| b"\xff\xfe\n".to_vec(),
            |_| unknown_id(-32700, "Parse error: the message is not valid UTF-8."),
        ),
        case(
            "invalid UTF-8 inside an otherwise valid request",
            |era| echo_raw(era, "1", b"caf\xe9"),
            |_| unknown_id(-32700, "Parse error: the message is not valid UTF-8."),
        ),
        case(
            "not JSON",
            |_| b"{not json\n".to_vec(),
            |_| Expect::Error {
                id: None,
                code: -32700,
                message: Message::Prefix("Parse error: "),
                data: None,
            },
        ),
        case(
            "truncated JSON",
            |_| b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"pi\n".to_vec(),
            |_| Expect::Error {
                id: None,
                code: -32700,
                message: Message::Prefix("Parse error: "),
                data: None,
            },
        ),
        case(
            "a number literal beyond f64 (1e400)",
            |era| {
                let text = String::from_utf8(call(
                    era,
                    "numbers",
                    json!({"small": 1, "count": 1, "ratio": 0}),
                ))
                .unwrap();
                text.replace("\"ratio\":0", "\"ratio\":1e400").into_bytes()
            },
            |_| Expect::Error {
                id: None,
                code: -32700,
                message: Message::Prefix("Parse error: "),
                data: None,
            },
        ),
        case(
            "JSON nested 10,000 deep",
            |era| {
                let deep = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
                echo_raw(era, "1", format!("\",\"x\":{deep},\"y\":\"").as_bytes())
            },
            |_| {
                unknown_id(
                    -32700,
                    "Parse error: the message is nested more than 128 levels deep.",
                )
            },
        ),
        case(
            "JSON nested 100 deep (within the limit): an ordinary wrong-typed argument",
            |era| {
                let deep = format!("{}\"x\"{}", "[".repeat(100), "]".repeat(100));
                call(
                    era,
                    "echo",
                    json!({"text": serde_json::from_str::<Value>(&deep).unwrap()}),
                )
            },
            |_| Expect::ToolError(&["`text`"]),
        ),
        Case {
            heavy: true,
            ..case(
                "a 100 MB line",
                |era| echo_raw(era, "1", &vec![b'x'; HUGE_LINE]),
                |_| {
                    unknown_id(
                        -32600,
                        "Invalid request: the message is longer than the 8388608-byte limit and was skipped.",
                    )
                },
            )
        },
        Case {
            heavy: true,
            ..case(
                "a 5 MB string argument",
                |era| echo_raw(era, "1", &vec![b'y'; BIG_STRING]),
                |_| {
                    Expect::Result(json!(1), |result| {
                        let text = first_text(result);
                        assert_eq!(text.len(), BIG_STRING);
                        assert!(text.bytes().all(|byte| byte == b'y'));
                    })
                },
            )
        },
        // --- Not a JSON-RPC message -------------------------------------------------------
        case("a JSON number", |_| b"42\n".to_vec(), |_| not_an_object()),
        case(
            "a JSON string",
            |_| b"\"ping\"\n".to_vec(),
            |_| not_an_object(),
        ),
        case("JSON true", |_| b"true\n".to_vec(), |_| not_an_object()),
        case("JSON null", |_| b"null\n".to_vec(), |_| not_an_object()),
        case(
            "`jsonrpc` \"1.0\"",
            |_| b"{\"jsonrpc\":\"1.0\",\"id\":1,\"method\":\"tools/list\"}\n".to_vec(),
            |_| {
                error(
                    Some(json!(1)),
                    -32600,
                    "Invalid request: `jsonrpc` must be \"2.0\".",
                )
            },
        ),
        case(
            "`jsonrpc` 2.0 as a number",
            |_| b"{\"jsonrpc\":2.0,\"id\":1,\"method\":\"tools/list\"}\n".to_vec(),
            |_| {
                error(
                    Some(json!(1)),
                    -32600,
                    "Invalid request: `jsonrpc` must be \"2.0\".",
                )
            },
        ),
        case(
            "no `jsonrpc`",
            |_| b"{\"id\":1,\"method\":\"tools/list\"}\n".to_vec(),
            |_| {
                error(
                    Some(json!(1)),
                    -32600,
                    "Invalid request: `jsonrpc` must be \"2.0\".",
                )
            },
        ),
        case(
            "no `method`, no `result`",
            |_| b"{\"jsonrpc\":\"2.0\",\"id\":1}\n".to_vec(),
            |_| {
                error(
                    Some(json!(1)),
                    -32600,
                    "Invalid request: a request needs a `method`.",
                )
            },
        ),
        case(
            "`method` not a string",
            |_| b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":5}\n".to_vec(),
            |_| {
                error(
                    Some(json!(1)),
                    -32600,
                    "Invalid request: `method` must be a string.",
                )
            },
        ),
        // --- Ids --------------------------------------------------------------------------
        case(
            "no id: a notification, never answered (the call does not run)",
            |era| {
                let mut message: Value =
                    serde_json::from_slice(&call(era, "echo", json!({"text": "x"}))).unwrap();
                message.as_object_mut().unwrap().remove("id");
                line(&message)
            },
            |_| Expect::Nothing,
        ),
        case(
            "`id` null",
            |_| b"{\"jsonrpc\":\"2.0\",\"id\":null,\"method\":\"tools/list\"}\n".to_vec(),
            |_| bad_id(),
        ),
        case(
            "`id` a float",
            |_| b"{\"jsonrpc\":\"2.0\",\"id\":1.5,\"method\":\"tools/list\"}\n".to_vec(),
            |_| bad_id(),
        ),
        case(
            "`id` a whole float (1.0)",
            |_| b"{\"jsonrpc\":\"2.0\",\"id\":1.0,\"method\":\"tools/list\"}\n".to_vec(),
            |_| bad_id(),
        ),
        case(
            "`id` an object",
            |_| b"{\"jsonrpc\":\"2.0\",\"id\":{\"a\":1},\"method\":\"tools/list\"}\n".to_vec(),
            |_| bad_id(),
        ),
        case(
            "`id` an array",
            |_| b"{\"jsonrpc\":\"2.0\",\"id\":[1],\"method\":\"tools/list\"}\n".to_vec(),
            |_| bad_id(),
        ),
        case(
            "`id` a boolean",
            |_| b"{\"jsonrpc\":\"2.0\",\"id\":true,\"method\":\"tools/list\"}\n".to_vec(),
            |_| bad_id(),
        ),
        case(
            "`id` a string: echoed as a string",
            |_| line(&json!({"jsonrpc": "2.0", "id": "abc", "method": "no/such/method"})),
            |_| {
                error(
                    Some(json!("abc")),
                    -32601,
                    "Method not found: no/such/method",
                )
            },
        ),
        case(
            "`id` beyond 2^53: echoed exactly",
            |_| {
                line(
                    &json!({"jsonrpc": "2.0", "id": 9007199254740993_u64, "method": "no/such/method"}),
                )
            },
            |_| {
                error(
                    Some(json!(9007199254740993_u64)),
                    -32601,
                    "Method not found: no/such/method",
                )
            },
        ),
        case(
            "`id` negative",
            |_| line(&json!({"jsonrpc": "2.0", "id": -7, "method": "no/such/method"})),
            |_| error(Some(json!(-7)), -32601, "Method not found: no/such/method"),
        ),
        case(
            "a duplicate id while the first request is in flight",
            |era| {
                let mut lines = line(
                    &json!({"jsonrpc": "2.0", "id": "dup", "method": "tools/call",
                    "params": params_in(era, json!({"name": "wait_for_cancel"}))}),
                );
                lines.extend(line(&json!({"jsonrpc": "2.0", "id": "dup", "method": "tools/call",
                    "params": params_in(era, json!({"name": "echo", "arguments": {"text": "again"}}))})));
                // The first call is then cancelled: it is never answered.
                lines.extend(line(
                    &json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
                    "params": {"requestId": "dup"}}),
                ));
                lines
            },
            |_| {
                error(
                    Some(json!("dup")),
                    -32600,
                    "Invalid request: id \"dup\" is already used by a request in flight.",
                )
            },
        ),
        // --- Unprompted messages ----------------------------------------------------------
        case(
            "a response nobody asked for",
            |_| b"{\"jsonrpc\":\"2.0\",\"id\":77,\"result\":{}}\n".to_vec(),
            |_| Expect::Nothing,
        ),
        case(
            "an error response nobody asked for",
            |_| {
                b"{\"jsonrpc\":\"2.0\",\"id\":78,\"error\":{\"code\":-1,\"message\":\"no\"}}\n"
                    .to_vec()
            },
            |_| Expect::Nothing,
        ),
        case(
            "an error response with a null id",
            |_| {
                b"{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32700,\"message\":\"no\"}}\n".to_vec()
            },
            |_| Expect::Nothing,
        ),
        case(
            "an unknown notification",
            |_| b"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/unknown\"}\n".to_vec(),
            |_| Expect::Nothing,
        ),
        case(
            "a notification with non-object params",
            |_| {
                b"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":[1]}\n"
                    .to_vec()
            },
            |_| Expect::Nothing,
        ),
        case(
            "`notifications/initialized` again",
            |_| b"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n".to_vec(),
            |_| Expect::Nothing,
        ),
        case(
            "a cancellation of an unknown request",
            |_| {
                b"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":999}}\n".to_vec()
            },
            |_| Expect::Nothing,
        ),
        case(
            "a progress notification from the client",
            |_| {
                b"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progressToken\":1,\"progress\":1}}\n".to_vec()
            },
            |_| Expect::Nothing,
        ),
        // --- Methods and params -----------------------------------------------------------
        case(
            "an unknown method",
            |era| request(era, "no/such/method", json!({})),
            |_| error(Some(json!(1)), -32601, "Method not found: no/such/method"),
        ),
        case(
            "`ping` (removed in 2026-07-28)",
            |era| request(era, "ping", json!({})),
            |era| match era {
                Era::Handshake(_) => {
                    Expect::Result(json!(1), |result| assert_eq!(result, &json!({})))
                }
                Era::Stateless => error(
                    Some(json!(1)),
                    -32601,
                    "Method not found: `ping` is not part of protocol revision 2026-07-28.",
                ),
            },
        ),
        case(
            "`initialize` naming 2026-07-28 in `_meta` (removed in that revision)",
            |era| request(era, "initialize", json!({})),
            |era| match era {
                // Without a `protocolVersion` a handshake-era `initialize` changes nothing.
                Era::Handshake(_) => error(
                    Some(json!(1)),
                    -32602,
                    "Invalid params: `initialize` needs a `protocolVersion` string.",
                ),
                Era::Stateless => error(
                    Some(json!(1)),
                    -32601,
                    "Method not found: `initialize` is not part of protocol revision 2026-07-28.",
                ),
            },
        ),
        case(
            "`params` an array",
            |_| {
                b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":[1]}\n"
                    .to_vec()
            },
            |_| bad_params(),
        ),
        case(
            "`params` a string",
            |_| {
                b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":\"echo\"}\n"
                    .to_vec()
            },
            |_| bad_params(),
        ),
        case(
            "`params` null",
            |_| {
                b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":null}\n"
                    .to_vec()
            },
            |_| bad_params(),
        ),
        case(
            "`tools/list` with a bad cursor",
            |era| request(era, "tools/list", json!({"cursor": "garbage"})),
            |_| {
                error(
                    Some(json!(1)),
                    -32602,
                    "Invalid cursor: \"garbage\" was not issued by this server.",
                )
            },
        ),
        case(
            "`tools/list` with a cursor that is not a string",
            |era| request(era, "tools/list", json!({"cursor": 5})),
            |_| {
                error(
                    Some(json!(1)),
                    -32602,
                    "Invalid params: `cursor` must be a string.",
                )
            },
        ),
        case(
            "`tools/call` without `name`",
            |era| request(era, "tools/call", json!({"arguments": {}})),
            |_| {
                error(
                    Some(json!(1)),
                    -32602,
                    "Invalid params: `tools/call` needs the tool's `name`.",
                )
            },
        ),
        case(
            "`tools/call` with a `name` that is not a string",
            |era| request(era, "tools/call", json!({"name": 5})),
            |_| {
                error(
                    Some(json!(1)),
                    -32602,
                    "Invalid params: `name` must be a string.",
                )
            },
        ),
        case(
            "an unknown tool",
            |era| call(era, "nope", json!({})),
            |_| error(Some(json!(1)), -32602, "Unknown tool: nope"),
        ),
        case(
            "`arguments` an array",
            |era| call(era, "echo", json!([1])),
            |_| bad_arguments(),
        ),
        case(
            "`arguments` a string",
            |era| call(era, "echo", json!("text")),
            |_| bad_arguments(),
        ),
        case(
            "`arguments` a number",
            |era| call(era, "echo", json!(5)),
            |_| bad_arguments(),
        ),
        case(
            "`arguments` a boolean",
            |era| call(era, "echo", json!(true)),
            |_| bad_arguments(),
        ),
        case(
            "`arguments` null: as if absent",
            |era| call(era, "echo", Value::Null),
            |_| {
                Expect::ToolErrorText(
                    "Invalid arguments for tool `echo`: `text`: missing (required)",
                )
            },
        ),
        case(
            "a required argument missing",
            |era| call(era, "echo", json!({})),
            |_| {
                Expect::ToolErrorText(
                    "Invalid arguments for tool `echo`: `text`: missing (required)",
                )
            },
        ),
        // --- Arguments of every wrong type --------------------------------------------------
        case(
            "string argument given a number",
            |era| call(era, "echo", json!({"text": 1})),
            |_| Expect::ToolError(&["`text`"]),
        ),
        case(
            "string argument given a float",
            |era| call(era, "echo", json!({"text": 1.5})),
            |_| Expect::ToolError(&["`text`"]),
        ),
        case(
            "string argument given a boolean",
            |era| call(era, "echo", json!({"text": true})),
            |_| Expect::ToolError(&["`text`"]),
        ),
        case(
            "string argument given null",
            |era| call(era, "echo", json!({"text": null})),
            |_| Expect::ToolError(&["`text`"]),
        ),
        case(
            "string argument given an array",
            |era| call(era, "echo", json!({"text": ["a"]})),
            |_| Expect::ToolError(&["`text`"]),
        ),
        case(
            "string argument given an object",
            |era| call(era, "echo", json!({"text": {"a": 1}})),
            |_| Expect::ToolError(&["`text`"]),
        ),
        case(
            "enum, list, map and optional arguments of the wrong types, all named at once",
            |era| {
                call(
                    era,
                    "rich",
                    json!({"small": "1", "colour": 5, "points": {"x": 1}, "counts": [1], "note": 5}),
                )
            },
            |_| Expect::ToolError(&["`small`", "`colour`", "`points`", "`counts`", "`note`"]),
        ),
        case(
            "an enum argument outside its values, a nested field of the wrong type",
            |era| {
                call(
                    era,
                    "rich",
                    json!({"small": 1, "colour": "purple", "points": [{"x": "a", "y": 1}], "counts": {"a": "b"}}),
                )
            },
            |_| Expect::ToolError(&["`colour`", "`points.0.x`", "`counts.a`"]),
        ),
        case(
            "an extra property",
            |era| call(era, "echo", json!({"text": "a", "extra": true})),
            |_| {
                Expect::ToolErrorText(
                    "Invalid arguments for tool `echo`: `extra`: not a parameter of this tool",
                )
            },
        ),
        case(
            "null for an optional argument: as if absent",
            |era| {
                call(
                    era,
                    "rich",
                    json!({"small": 1, "colour": "red", "points": [], "counts": {}, "note": null}),
                )
            },
            |_| {
                Expect::Result(json!(1), |result| {
                    assert_eq!(result.get("isError"), None, "{result}")
                })
            },
        ),
        // --- Numbers out of range -------------------------------------------------------------
        case(
            "u8 given 300",
            |era| {
                call(
                    era,
                    "numbers",
                    json!({"small": 300, "count": 1, "ratio": 1}),
                )
            },
            |_| Expect::ToolError(&["`small`"]),
        ),
        case(
            "u8 given -1",
            |era| call(era, "numbers", json!({"small": -1, "count": 1, "ratio": 1})),
            |_| Expect::ToolError(&["`small`"]),
        ),
        case(
            "u8 given 1.5",
            |era| {
                call(
                    era,
                    "numbers",
                    json!({"small": 1.5, "count": 1, "ratio": 1}),
                )
            },
            |_| Expect::ToolError(&["`small`"]),
        ),
        case(
            "i64 given 2^63 (beyond the 2^53 - 1 its schema publishes)",
            |era| {
                call(
                    era,
                    "numbers",
                    json!({"small": 1, "count": 9223372036854775808_u64, "ratio": 1}),
                )
            },
            |_| {
                Expect::ToolErrorText(
                    "Invalid arguments for tool `numbers`: `count`: 9223372036854775808 is \
                     greater than the maximum of 9007199254740991",
                )
            },
        ),
        case(
            "i64 given -2^63 - 1 (a float by then)",
            |era| {
                let text = String::from_utf8(call(
                    era,
                    "numbers",
                    json!({"small": 1, "count": 0, "ratio": 1}),
                ))
                .unwrap();
                text.replace("\"count\":0", "\"count\":-9223372036854775809")
                    .into_bytes()
            },
            // Read as a float, it is below the -(2^53 - 1) the schema publishes.
            |_| {
                Expect::ToolErrorText(
                    "Invalid arguments for tool `numbers`: `count`: -9.223372036854776e+18 is \
                     less than the minimum of -9007199254740991",
                )
            },
        ),
        case(
            "i64 given 2.5",
            |era| {
                call(
                    era,
                    "numbers",
                    json!({"small": 1, "count": 2.5, "ratio": 1}),
                )
            },
            |_| Expect::ToolError(&["`count`"]),
        ),
        case(
            "f64 given a string",
            |era| {
                call(
                    era,
                    "numbers",
                    json!({"small": 1, "count": 1, "ratio": "1"}),
                )
            },
            |_| Expect::ToolError(&["`ratio`"]),
        ),
        case(
            "numbers at the edges of their types: accepted",
            |era| {
                call(
                    era,
                    "numbers",
                    json!({"small": 255, "count": -MAX_SAFE_INTEGER, "ratio": 1.0e300}),
                )
            },
            |_| {
                Expect::Result(json!(1), |result| {
                    assert_eq!(
                        first_text(result),
                        format!("255 {} {}", -MAX_SAFE_INTEGER, 1.0e300)
                    );
                })
            },
        ),
        // --- Enums and integers, whatever their schema's shape -------------------------------
        case(
            "a value outside a plain enum's values: the values named",
            |era| {
                call(
                    era,
                    "rich",
                    json!({"small": 1, "colour": "purple", "points": [], "counts": {}}),
                )
            },
            |_| {
                Expect::ToolErrorText(
                    "Invalid arguments for tool `rich`: `colour`: \"purple\" is not one of \
                     \"red\", \"green\" or \"blue\"",
                )
            },
        ),
        case(
            "a value outside an enum whose variants have doc comments (`oneOf` of `const`s): \
             the values named, as for a plain enum",
            |era| call(era, "widths", widths(json!({"status": "closed"}))),
            |_| {
                Expect::ToolErrorText(
                    "Invalid arguments for tool `widths`: `status`: \"closed\" is not one of \
                     \"open\" or \"done\"",
                )
            },
        ),
        case(
            "i32, u16, u32 and u64 above their maximum",
            |era| {
                call(
                    era,
                    "widths",
                    widths(json!({"int": 1_u64 << 31, "short": 65536, "wide": 1_u64 << 32})),
                )
            },
            |_| {
                Expect::ToolErrorText(
                    "Invalid arguments for tool `widths`: \
                     `int`: 2147483648 is greater than the maximum of 2147483647; \
                     `short`: 65536 is greater than the maximum of 65535; \
                     `wide`: 4294967296 is greater than the maximum of 4294967295",
                )
            },
        ),
        case(
            "i32, u16, u32 and u64 below their minimum",
            |era| {
                call(
                    era,
                    "widths",
                    widths(json!({"int": -(1_i64 << 31) - 1, "short": -1, "wide": -1, "long": -1})),
                )
            },
            |_| {
                Expect::ToolErrorText(
                    "Invalid arguments for tool `widths`: \
                     `int`: -2147483649 is less than the minimum of -2147483648; \
                     `long`: -1 is less than the minimum of 0; \
                     `short`: -1 is less than the minimum of 0; \
                     `wide`: -1 is less than the minimum of 0",
                )
            },
        ),
        case(
            "u64 given 2^64 (a float by then)",
            |era| {
                let text =
                    String::from_utf8(call(era, "widths", widths(json!({"long": 0})))).unwrap();
                text.replace("\"long\":0", "\"long\":18446744073709551616")
                    .into_bytes()
            },
            |_| {
                Expect::ToolErrorText(
                    "Invalid arguments for tool `widths`: `long`: 1.8446744073709552e+19 is \
                     greater than the maximum of 9007199254740991",
                )
            },
        ),
        case(
            "integers at the edges of their widths: accepted",
            |era| {
                call(
                    era,
                    "widths",
                    json!({"status": "done", "int": i32::MIN, "short": u16::MAX, "wide": u32::MAX,
                           "long": MAX_SAFE_INTEGER}),
                )
            },
            |_| {
                Expect::Result(json!(1), |result| {
                    assert_eq!(
                        first_text(result),
                        format!(
                            "Done {} {} {} {}",
                            i32::MIN,
                            u16::MAX,
                            u32::MAX,
                            MAX_SAFE_INTEGER
                        )
                    );
                })
            },
        ),
        // --- Batches ------------------------------------------------------------------------
        case(
            "a batch of a call, a notification and `initialize`",
            |era| {
                let call = json!({"jsonrpc": "2.0", "id": "b", "method": "tools/call",
                    "params": params_in(era, json!({"name": "echo", "arguments": {"text": "in a batch"}}))});
                line(&json!([
                    call,
                    {"jsonrpc": "2.0", "method": "notifications/whatever"},
                    {"jsonrpc": "2.0", "id": "c", "method": "initialize", "params": {"protocolVersion": "2025-03-26"}},
                ]))
            },
            |era| match era {
                Era::Handshake("2025-03-26") => Expect::Batch(|batch| {
                    let responses = batch.as_array().unwrap();
                    assert_eq!(responses.len(), 2, "{batch}");
                    assert_eq!(responses[0]["id"], "b");
                    assert_eq!(first_text(&responses[0]["result"]), "in a batch");
                    assert_eq!(responses[1]["id"], "c");
                    assert_eq!(responses[1]["error"]["code"], -32600);
                    assert_eq!(
                        responses[1]["error"]["message"],
                        "Invalid request: `initialize` must not be part of a batch."
                    );
                }),
                Era::Handshake(revision) => unknown_id(
                    -32600,
                    &format!(
                        "Invalid request: JSON-RPC batches are not part of protocol revision {revision}."
                    ),
                ),
                Era::Stateless => unknown_id(
                    -32600,
                    "Invalid request: JSON-RPC batches are only accepted after `initialize` negotiated 2025-03-26.",
                ),
            },
        ),
        case(
            "a batch of notifications only",
            |_| b"[{\"jsonrpc\":\"2.0\",\"method\":\"notifications/whatever\"}]\n".to_vec(),
            |era| match era {
                Era::Handshake("2025-03-26") => Expect::Nothing,
                Era::Handshake(revision) => unknown_id(
                    -32600,
                    &format!(
                        "Invalid request: JSON-RPC batches are not part of protocol revision {revision}."
                    ),
                ),
                Era::Stateless => unknown_id(
                    -32600,
                    "Invalid request: JSON-RPC batches are only accepted after `initialize` negotiated 2025-03-26.",
                ),
            },
        ),
        case(
            "an empty batch",
            |_| b"[]\n".to_vec(),
            |_| unknown_id(-32600, "Invalid request: an empty batch."),
        ),
        // --- Revisions: before `initialize`, without `_meta` ---------------------------------
        case(
            "a request with no `_meta` version: before `initialize` in the stateless session",
            |_| {
                line(
                    &json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "echo", "arguments": {"text": "plain"}}}),
                )
            },
            |era| match era {
                Era::Handshake(_) => {
                    Expect::Result(json!(1), |result| assert_eq!(first_text(result), "plain"))
                }
                Era::Stateless => error(Some(json!(1)), -32602, &needs_version("tools/call")),
            },
        ),
        case(
            "`tools/list` with no `params` at all",
            |_| b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}\n".to_vec(),
            |era| match era {
                Era::Handshake(_) => {
                    Expect::Result(json!(1), |result| assert!(result["tools"].is_array()))
                }
                Era::Stateless => error(Some(json!(1)), -32602, &needs_version("tools/list")),
            },
        ),
        Case {
            pre_initialize: true,
            ..case(
                "`ping` with no `_meta` version: allowed before `initialize`",
                |_| b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n".to_vec(),
                |_| Expect::Result(json!(1), |result| assert_eq!(result, &json!({}))),
            )
        },
        case(
            "`_meta` without `clientCapabilities`",
            |_| {
                line(&json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list",
                "params": {"_meta": {"io.modelcontextprotocol/protocolVersion": STATELESS_REVISION}}}))
            },
            |_| {
                error(
                    Some(json!(1)),
                    -32602,
                    "Invalid params: _meta[\"io.modelcontextprotocol/clientCapabilities\"] is required (an object; {} declares no capabilities).",
                )
            },
        ),
        case(
            "`_meta` with a version that is not a string",
            |_| {
                line(&json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list",
                "params": {"_meta": {"io.modelcontextprotocol/protocolVersion": 2026}}}))
            },
            |_| {
                error(
                    Some(json!(1)),
                    -32602,
                    "Invalid params: _meta[\"io.modelcontextprotocol/protocolVersion\"] must be a string.",
                )
            },
        ),
        case(
            "`_meta` with an unknown version",
            |_| {
                line(&json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list",
                "params": {"_meta": {"io.modelcontextprotocol/protocolVersion": "1999-01-01",
                    "io.modelcontextprotocol/clientCapabilities": {}}}}))
            },
            |_| Expect::Error {
                id: Some(json!(1)),
                code: -32022,
                message: Message::Exact("Unsupported protocol version: 1999-01-01.".into()),
                data: Some(json!({
                    "supported": ["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"],
                    "requested": "1999-01-01",
                })),
            },
        ),
        case(
            "`_meta` naming a handshake revision",
            |_| {
                line(&json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list",
                "params": {"_meta": {"io.modelcontextprotocol/protocolVersion": "2025-11-25",
                    "io.modelcontextprotocol/clientCapabilities": {}}}}))
            },
            |_| Expect::Error {
                id: Some(json!(1)),
                code: -32022,
                message: Message::Exact("Unsupported protocol version: 2025-11-25.".into()),
                data: Some(json!({
                    "supported": ["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"],
                    "requested": "2025-11-25",
                })),
            },
        ),
        case(
            "`initialize` without `protocolVersion`",
            |_| {
                line(
                    &json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}}),
                )
            },
            |_| {
                error(
                    Some(json!(1)),
                    -32602,
                    "Invalid params: `initialize` needs a `protocolVersion` string.",
                )
            },
        ),
        case(
            "`server/discover` without `_meta`",
            |_| {
                b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"server/discover\",\"params\":{}}\n"
                    .to_vec()
            },
            |_| error(Some(json!(1)), -32602, &needs_version("server/discover")),
        ),
    ]
}

/// Arguments of the `widths` tool: valid ones, with `changes` applied.
fn widths(changes: Value) -> Value {
    let mut arguments = json!({"status": "open", "int": 1, "short": 1, "wide": 1, "long": 1});
    for (key, value) in changes.as_object().unwrap() {
        arguments[key] = value.clone();
    }
    arguments
}

/// Sends every row of the table to one server in `era`.
fn run_table(era: Era) {
    let mut client = StdioClient::spawn(env!("CARGO_BIN_EXE_fixture"), &[]);
    match era {
        Era::Handshake(revision) => {
            client.initialize(revision);
        }
        Era::Stateless => client.check_against(STATELESS_REVISION),
    }
    let heavy_too = era.is("2025-11-25") || era == Era::Stateless;
    for (row, case) in table().iter().enumerate() {
        if case.heavy && !heavy_too {
            continue;
        }
        let context = format!("{era:?}, row {row} ({})", case.what);
        client.send_raw(&(case.input)(era));
        if case.pre_initialize && era == Era::Stateless {
            client.check_against("2025-11-25");
        }
        match (case.expect)(era) {
            Expect::Nothing => {}
            expected => {
                let answer = client.receive();
                check(&context, era, &expected, &answer);
            }
        }
        if era == Era::Stateless {
            client.check_against(STATELESS_REVISION);
        }
        if case.what == "a 100 MB line" {
            let peak = client.memory_kb("VmHWM");
            eprintln!("{context}: server peak RSS {} MB", peak / 1024);
            assert!(
                peak < PEAK_AFTER_HUGE_LINE_KB,
                "{context}: the server's peak RSS reached {peak} kB"
            );
        }
        // Still served, and nothing else was sent: the probe's response comes next.
        let probe_id = json!(format!("probe-{row}"));
        client.send(&json!({"jsonrpc": "2.0", "id": probe_id, "method": "tools/call",
            "params": params_in(era, json!({"name": "echo", "arguments": {"text": "still here"}}))}));
        let response = client.receive();
        assert_eq!(
            response["id"], probe_id,
            "{context}: expected the probe's response next, got {response}"
        );
        assert_eq!(first_text(&response["result"]), "still here", "{context}");
    }
}

fn check(context: &str, era: Era, expected: &Expect, answer: &Value) {
    let Expect::Batch(_) = expected else {
        assert!(answer.is_object(), "{context}: {answer}");
        assert_eq!(answer["jsonrpc"], "2.0", "{context}: {answer}");
        match expected {
            Expect::Error {
                id,
                code,
                message,
                data,
            } => {
                match id {
                    Some(id) => assert_eq!(&answer["id"], id, "{context}: {answer}"),
                    None if era.omits_unknown_ids() => {
                        assert!(answer.get("id").is_none(), "{context}: {answer}");
                    }
                    None => assert_eq!(answer.get("id"), Some(&Value::Null), "{context}: {answer}"),
                }
                let error = &answer["error"];
                assert_eq!(error["code"], *code, "{context}: {answer}");
                let text = error["message"].as_str().unwrap_or_default();
                match message {
                    Message::Exact(exact) => assert_eq!(text, exact, "{context}"),
                    Message::Prefix(prefix) => {
                        assert!(text.starts_with(prefix), "{context}: {answer}");
                    }
                }
                assert_eq!(error.get("data"), data.as_ref(), "{context}: {answer}");
            }
            Expect::ToolError(mentions) => {
                assert_eq!(answer["id"], 1, "{context}: {answer}");
                let result = &answer["result"];
                assert_eq!(result["isError"], true, "{context}: {answer}");
                let text = first_text(result);
                for mention in *mentions {
                    assert!(text.contains(mention), "{context}: {mention} not in {text}");
                }
            }
            Expect::ToolErrorText(expected) => {
                assert_eq!(answer["id"], 1, "{context}: {answer}");
                let result = &answer["result"];
                assert_eq!(result["isError"], true, "{context}: {answer}");
                assert_eq!(first_text(result), *expected, "{context}");
            }
            Expect::Result(id, check) => {
                assert_eq!(&answer["id"], id, "{context}: {answer}");
                let result = answer
                    .get("result")
                    .unwrap_or_else(|| panic!("{context}: no result in {answer}"));
                check(result);
            }
            Expect::Nothing | Expect::Batch(_) => unreachable!(),
        }
        return;
    };
    if let Expect::Batch(check) = expected {
        assert!(answer.is_array(), "{context}: {answer}");
        check(answer);
    }
}

#[test]
fn bad_input_2024_11_05() {
    run_table(Era::Handshake(HANDSHAKE_REVISIONS[0]));
}

#[test]
fn bad_input_2025_03_26() {
    run_table(Era::Handshake(HANDSHAKE_REVISIONS[1]));
}

#[test]
fn bad_input_2025_06_18() {
    run_table(Era::Handshake(HANDSHAKE_REVISIONS[2]));
}

#[test]
fn bad_input_2025_11_25() {
    run_table(Era::Handshake(HANDSHAKE_REVISIONS[3]));
}

#[test]
fn bad_input_2026_07_28() {
    run_table(Era::Stateless);
}
