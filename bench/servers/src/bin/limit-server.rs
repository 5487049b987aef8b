//! The physical limit: a hand-written, single-threaded MCP echo server on serde_json.
//!
//! Minimal but correct for what it offers: `initialize` (version negotiation, the `tools`
//! capability, `serverInfo`), `ping`, `tools/list` (one tool with its `inputSchema`),
//! `tools/call` for `echo`, silence for notifications and responses, -32601 for unknown
//! methods, -32700 for unparseable lines and -32600 for messages that are not requests.
//!
//! Input is read line by line from a buffered, locked stdin; output goes through a buffered,
//! locked stdout that is flushed after every answer: one `write` per answer. With calls
//! pipelined that is the fastest way here — the client works on each answer while the server
//! computes the next; holding the answers until the buffered input is used up (one `write`
//! per burst) makes the two take turns (`bench/results/stdio-writes.md`). No async runtime,
//! no threads, no allocation per message beyond the reused line buffer (strings that carry
//! escapes are the exception).

use std::borrow::Cow;
use std::io::{self, BufRead, BufReader, BufWriter, Write};

use serde::Deserialize;
use serde_json::value::RawValue;

/// Revisions this server speaks, newest first; an unknown request gets the newest.
const SUPPORTED_VERSIONS: [&str; 4] = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"];

const TOOLS_LIST: &str = concat!(
    r#"{"tools":[{"name":"echo","description":"Echo the text back.","#,
    r#""inputSchema":{"type":"object","properties":{"text":{"type":"string","description":"The text to echo."}},"required":["text"]},"#,
    r#""annotations":{"readOnlyHint":true,"idempotentHint":true}}]}"#
);

/// One JSON-RPC message, borrowed from the input line.
#[derive(Deserialize)]
struct Message<'a> {
    #[serde(borrow)]
    jsonrpc: Option<Cow<'a, str>>,
    #[serde(borrow)]
    id: Option<&'a RawValue>,
    #[serde(borrow)]
    method: Option<Cow<'a, str>>,
    #[serde(borrow)]
    params: Option<&'a RawValue>,
}

#[derive(Deserialize)]
struct InitializeParams<'a> {
    #[serde(borrow, rename = "protocolVersion")]
    protocol_version: Cow<'a, str>,
}

#[derive(Deserialize)]
struct CallParams<'a> {
    #[serde(borrow)]
    name: Cow<'a, str>,
    #[serde(borrow)]
    arguments: Option<EchoArguments<'a>>,
}

#[derive(Deserialize)]
struct EchoArguments<'a> {
    #[serde(borrow)]
    text: Cow<'a, str>,
}

const PARSE_ERROR: i32 = -32700;
const INVALID_REQUEST: i32 = -32600;
const METHOD_NOT_FOUND: i32 = -32601;
const INVALID_PARAMS: i32 = -32602;

fn main() -> io::Result<()> {
    let mut input = BufReader::with_capacity(64 * 1024, io::stdin().lock());
    let mut output = BufWriter::with_capacity(64 * 1024, io::stdout().lock());
    let mut line = Vec::with_capacity(4096);
    loop {
        line.clear();
        if input.read_until(b'\n', &mut line)? == 0 {
            break;
        }
        handle(&line, &mut output)?;
        output.flush()?;
    }
    Ok(())
}

fn handle(line: &[u8], out: &mut impl Write) -> io::Result<()> {
    if line.iter().all(u8::is_ascii_whitespace) {
        return Ok(());
    }
    let message: Message<'_> = match serde_json::from_slice(line) {
        Ok(message) => message,
        Err(_) => return error(out, None, PARSE_ERROR, "Parse error"),
    };
    let id = message.id;
    let Some(method) = message.method.as_deref() else {
        // A response (or something malformed with an id): nothing was asked of it.
        return match id {
            Some(_) if message.jsonrpc.as_deref() == Some("2.0") => Ok(()),
            _ => error(out, id, INVALID_REQUEST, "Invalid request"),
        };
    };
    if message.jsonrpc.as_deref() != Some("2.0") || id.is_some_and(|id| !valid_id(id)) {
        let id = id.filter(|id| valid_id(id));
        return error(out, id, INVALID_REQUEST, "Invalid request");
    }
    // A notification (no id) is never answered.
    let Some(id) = id else { return Ok(()) };
    let params = message.params.map_or("{}", RawValue::get);
    match method {
        "tools/call" => call(out, id, params),
        "tools/list" => result(out, id, TOOLS_LIST),
        "ping" => result(out, id, "{}"),
        "initialize" => initialize(out, id, params),
        _ => error(out, Some(id), METHOD_NOT_FOUND, "Method not found"),
    }
}

/// JSON-RPC ids are strings or numbers (MCP forbids null).
fn valid_id(id: &RawValue) -> bool {
    matches!(id.get().as_bytes().first(), Some(b'"' | b'-' | b'0'..=b'9'))
}

fn initialize(out: &mut impl Write, id: &RawValue, params: &str) -> io::Result<()> {
    let Ok(params) = serde_json::from_str::<InitializeParams<'_>>(params) else {
        return error(
            out,
            Some(id),
            INVALID_PARAMS,
            "Invalid params: protocolVersion is required",
        );
    };
    let version = SUPPORTED_VERSIONS
        .into_iter()
        .find(|version| *version == params.protocol_version)
        .unwrap_or(SUPPORTED_VERSIONS[0]);
    write!(
        out,
        r#"{{"jsonrpc":"2.0","id":{},"result":{{"protocolVersion":"{version}","capabilities":{{"tools":{{}}}},"serverInfo":{{"name":"limit-server","version":"{}"}}}}}}"#,
        id.get(),
        env!("CARGO_PKG_VERSION"),
    )?;
    out.write_all(b"\n")
}

fn call(out: &mut impl Write, id: &RawValue, params: &str) -> io::Result<()> {
    let params = match serde_json::from_str::<CallParams<'_>>(params) {
        Ok(params) => params,
        Err(_) => return error(out, Some(id), INVALID_PARAMS, "Invalid params"),
    };
    if params.name != "echo" {
        return error(out, Some(id), INVALID_PARAMS, "Unknown tool");
    }
    let Some(arguments) = params.arguments else {
        return error(
            out,
            Some(id),
            INVALID_PARAMS,
            "Invalid params: `text` is required",
        );
    };
    write!(
        out,
        r#"{{"jsonrpc":"2.0","id":{},"result":{{"content":[{{"type":"text","text":"#,
        id.get()
    )?;
    serde_json::to_writer(&mut *out, &arguments.text)?;
    out.write_all(b"}],\"isError\":false}}\n")
}

fn result(out: &mut impl Write, id: &RawValue, result: &str) -> io::Result<()> {
    write!(
        out,
        r#"{{"jsonrpc":"2.0","id":{},"result":{result}}}"#,
        id.get()
    )?;
    out.write_all(b"\n")
}

fn error(out: &mut impl Write, id: Option<&RawValue>, code: i32, message: &str) -> io::Result<()> {
    let id = id.map_or("null", RawValue::get);
    write!(
        out,
        r#"{{"jsonrpc":"2.0","id":{id},"error":{{"code":{code},"message":"{message}"}}}}"#
    )?;
    out.write_all(b"\n")
}
