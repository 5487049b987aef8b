//! What each workload sends, and how every answer is checked.

use std::borrow::Cow;

use anyhow::{Context, Result, anyhow, bail};
use bytes::Bytes;
use serde::Deserialize;
use serde_json::value::RawValue;

/// The stateless revision: every request carries what a handshake carried before.
pub const STATELESS_REVISION: &str = "2026-07-28";
/// The handshake revision of the `session` workload.
pub const SESSION_REVISION: &str = "2025-11-25";
/// The `_meta` key naming a stateless request's revision (`protocol/meta.rs` in the runtime).
pub const META_PROTOCOL_VERSION: &str = "io.modelcontextprotocol/protocolVersion";
/// The `_meta` key of the client's capabilities, which a stateless request must carry.
pub const META_CLIENT_CAPABILITIES: &str = "io.modelcontextprotocol/clientCapabilities";
/// The `_meta` key of the client's name and version.
pub const META_CLIENT_INFO: &str = "io.modelcontextprotocol/clientInfo";

pub const JSON_ONLY: &str = "application/json";
pub const JSON_OR_SSE: &str = "application/json, text/event-stream";

/// What the load generator does on each connection.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Workload {
    /// 2026-07-28 `tools/call`, `Accept: application/json`: no session, a JSON answer.
    StatelessJson,
    /// 2026-07-28 `tools/call`, `Accept: application/json, text/event-stream`.
    StatelessSse,
    /// 2025-11-25: `initialize` and `notifications/initialized` open a session per
    /// connection, then `tools/call` on it, accepting SSE.
    Session,
    /// 2026-07-28 `tools/list`, `Accept: application/json, text/event-stream` (what SDK
    /// clients send): no session; the answer must list the tool.
    ToolsList,
}

impl Workload {
    pub fn name(self) -> &'static str {
        match self {
            Workload::StatelessJson => "stateless-json",
            Workload::StatelessSse => "stateless-sse",
            Workload::Session => "session",
            Workload::ToolsList => "tools-list",
        }
    }

    pub fn accept(self) -> &'static str {
        match self {
            Workload::StatelessJson => JSON_ONLY,
            Workload::StatelessSse | Workload::Session | Workload::ToolsList => JSON_OR_SSE,
        }
    }

    pub fn protocol_version(self) -> &'static str {
        match self {
            Workload::StatelessJson | Workload::StatelessSse | Workload::ToolsList => {
                STATELESS_REVISION
            }
            Workload::Session => SESSION_REVISION,
        }
    }

    pub fn stateless(self) -> bool {
        self != Workload::Session
    }

    /// The method each request calls.
    pub fn method(self) -> &'static str {
        match self {
            Workload::ToolsList => "tools/list",
            Workload::StatelessJson | Workload::StatelessSse | Workload::Session => "tools/call",
        }
    }
}

/// A request body (`tools/call`, or `tools/list`), preformatted around its id.
pub struct CallTemplate {
    prefix: Vec<u8>,
    suffix: Vec<u8>,
}

impl CallTemplate {
    pub fn new(workload: Workload, tool: &str, text: &str) -> Result<Self> {
        let mut params = match workload {
            Workload::ToolsList => serde_json::json!({}),
            _ => serde_json::json!({
                "name": tool,
                "arguments": { "text": text },
            }),
        };
        if workload.stateless() {
            params["_meta"] = serde_json::json!({
                META_PROTOCOL_VERSION: STATELESS_REVISION,
                META_CLIENT_CAPABILITIES: {},
                META_CLIENT_INFO: { "name": "mcp-httpload", "version": env!("CARGO_PKG_VERSION") },
            });
        }
        let params = serde_json::to_string(&params)?;
        Ok(CallTemplate {
            prefix: br#"{"jsonrpc":"2.0","id":"#.to_vec(),
            suffix: format!(r#","method":"{}","params":{params}}}"#, workload.method())
                .into_bytes(),
        })
    }

    pub fn body(&self, id: u64) -> Bytes {
        let mut body = Vec::with_capacity(self.prefix.len() + 20 + self.suffix.len());
        body.extend_from_slice(&self.prefix);
        body.extend_from_slice(id.to_string().as_bytes());
        body.extend_from_slice(&self.suffix);
        Bytes::from(body)
    }
}

/// The `initialize` request of the `session` workload.
pub fn initialize_body(id: u64) -> Bytes {
    Bytes::from(
        serde_json::json!({
            "jsonrpc": "2.0",
            "id": id,
            "method": "initialize",
            "params": {
                "protocolVersion": SESSION_REVISION,
                "capabilities": {},
                "clientInfo": { "name": "mcp-httpload", "version": env!("CARGO_PKG_VERSION") },
            },
        })
        .to_string(),
    )
}

pub const INITIALIZED_BODY: &str = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;

/// A JSON-RPC message as far as the checks read it; borrowed from the body.
#[derive(Deserialize)]
struct Message<'a> {
    id: Option<u64>,
    #[serde(borrow)]
    method: Option<&'a str>,
    #[serde(borrow)]
    result: Option<&'a RawValue>,
    #[serde(borrow)]
    error: Option<&'a RawValue>,
}

#[derive(Deserialize)]
struct CallResult<'a> {
    #[serde(borrow)]
    content: Vec<Block<'a>>,
    #[serde(rename = "isError")]
    is_error: Option<bool>,
}

#[derive(Deserialize)]
struct Block<'a> {
    #[serde(rename = "type", borrow)]
    kind: &'a str,
    #[serde(borrow)]
    text: Option<Cow<'a, str>>,
}

#[derive(Deserialize)]
struct ListResult<'a> {
    #[serde(borrow)]
    tools: Vec<ListedTool<'a>>,
}

#[derive(Deserialize)]
struct ListedTool<'a> {
    #[serde(borrow)]
    name: Cow<'a, str>,
}

#[derive(Deserialize)]
struct InitializeResult<'a> {
    #[serde(rename = "protocolVersion", borrow)]
    protocol_version: &'a str,
}

/// How an answer came.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Framing {
    Json,
    Sse,
}

impl Framing {
    pub fn of(content_type: Option<&str>) -> Result<Self> {
        match content_type {
            Some(kind) if kind.starts_with("application/json") => Ok(Framing::Json),
            Some(kind) if kind.starts_with("text/event-stream") => Ok(Framing::Sse),
            other => bail!("an answer with Content-Type {other:?}"),
        }
    }
}

/// The result of the response to `id` in a body: the body itself (JSON) or the `data` of one
/// of its events (SSE; other messages on the stream are skipped).
fn find_result<'a>(body: &'a [u8], framing: Framing, id: u64) -> Result<&'a RawValue> {
    let check = |data: &'a [u8]| -> Result<Option<&'a RawValue>> {
        let message: Message<'a> = serde_json::from_slice(data)
            .with_context(|| format!("an answer that is not JSON-RPC: {}", excerpt(data)))?;
        if message.method.is_some() {
            // A request or notification from the server on the stream.
            return Ok(None);
        }
        if message.id != Some(id) {
            bail!(
                "a response to id {:?} where {id} was expected: {}",
                message.id,
                excerpt(data)
            );
        }
        if let Some(error) = message.error {
            bail!("an error response to id {id}: {}", error.get());
        }
        message
            .result
            .map(Some)
            .ok_or_else(|| anyhow!("a response without a result: {}", excerpt(data)))
    };
    match framing {
        Framing::Json => check(body)?.ok_or_else(|| {
            anyhow!(
                "a JSON answer that is not the response to id {id}: {}",
                excerpt(body)
            )
        }),
        Framing::Sse => {
            for data in sse_data(body) {
                if let Some(result) = check(data?)? {
                    return Ok(result);
                }
            }
            bail!(
                "an SSE answer without the response to id {id}: {}",
                excerpt(body)
            )
        }
    }
}

/// Checks that `body` answers call `id` with the exact echo of `text`.
pub fn check_echo(body: &[u8], framing: Framing, id: u64, text: &str) -> Result<()> {
    let result = find_result(body, framing, id)?;
    let call: CallResult<'_> = serde_json::from_str(result.get())
        .with_context(|| format!("a tools/call result: {}", result.get()))?;
    match call.content.as_slice() {
        [block] if block.kind == "text" && block.text.as_deref() == Some(text) => {}
        _ => bail!(
            "the answer to id {id} is not the echo of {text:?}: {}",
            result.get()
        ),
    }
    if call.is_error == Some(true) {
        bail!("the answer to id {id} is a tool error: {}", result.get());
    }
    Ok(())
}

/// Checks that `body` answers `tools/list` (id `id`) with a list holding `tool`.
pub fn check_tools_list(body: &[u8], framing: Framing, id: u64, tool: &str) -> Result<()> {
    let result = find_result(body, framing, id)?;
    let list: ListResult<'_> = serde_json::from_str(result.get())
        .with_context(|| format!("a tools/list result: {}", result.get()))?;
    if !list.tools.iter().any(|listed| listed.name == tool) {
        bail!(
            "the answer to id {id} does not list the tool {tool:?}: {}",
            excerpt(result.get().as_bytes())
        );
    }
    Ok(())
}

/// Checks that `body` answers `initialize` (id `id`) with the session revision.
pub fn check_initialize(body: &[u8], framing: Framing, id: u64) -> Result<()> {
    let result = find_result(body, framing, id)?;
    let init: InitializeResult<'_> = serde_json::from_str(result.get())
        .with_context(|| format!("an initialize result: {}", result.get()))?;
    if init.protocol_version != SESSION_REVISION {
        bail!(
            "initialize asked for {SESSION_REVISION}; the server answered {}",
            init.protocol_version
        );
    }
    Ok(())
}

/// The `data` of every event of an SSE body, lines of one event joined (events without
/// data, such as a priming event, are left out). A `data` that spans several lines is
/// refused: the runtime writes every message on one line.
fn sse_data(body: &[u8]) -> impl Iterator<Item = Result<&[u8]>> {
    let mut current: Option<&[u8]> = None;
    let mut lines = body.split(|&byte| byte == b'\n');
    let mut done = false;
    std::iter::from_fn(move || {
        while !done {
            let line = match lines.next() {
                Some(line) => line.strip_suffix(b"\r").unwrap_or(line),
                None => {
                    done = true;
                    b""
                }
            };
            if line.is_empty() {
                if let Some(data) = current.take().filter(|data| !data.is_empty()) {
                    return Some(Ok(data));
                }
                continue;
            }
            if let Some(data) = line.strip_prefix(b"data:") {
                let data = data.strip_prefix(b" ").unwrap_or(data);
                if current.is_some_and(|current| !current.is_empty()) && !data.is_empty() {
                    return Some(Err(anyhow!(
                        "an SSE event whose data spans several lines: {}",
                        excerpt(body)
                    )));
                }
                current = Some(data);
            }
        }
        None
    })
}

/// The start of a body, for error messages.
pub fn excerpt(bytes: &[u8]) -> String {
    const MAX: usize = 400;
    let text = String::from_utf8_lossy(&bytes[..bytes.len().min(MAX)]).into_owned();
    if bytes.len() > MAX {
        format!("{text}…")
    } else {
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "The quick brown fox";

    fn answer(id: u64, text: &str) -> String {
        format!(
            r#"{{"jsonrpc":"2.0","id":{id},"result":{{"content":[{{"type":"text","text":"{text}"}}],"_meta":{{"x":1}}}}}}"#
        )
    }

    #[test]
    fn formats_call_bodies() {
        let template = CallTemplate::new(Workload::StatelessJson, "echo", TEXT).unwrap();
        let body: serde_json::Value = serde_json::from_slice(&template.body(1234567)).unwrap();
        assert_eq!(body["id"], 1234567);
        assert_eq!(body["method"], "tools/call");
        assert_eq!(body["params"]["arguments"]["text"], TEXT);
        assert_eq!(
            body["params"]["_meta"][META_PROTOCOL_VERSION],
            STATELESS_REVISION
        );
        assert!(body["params"]["_meta"][META_CLIENT_CAPABILITIES].is_object());
        let template = CallTemplate::new(Workload::Session, "echo", TEXT).unwrap();
        let body: serde_json::Value = serde_json::from_slice(&template.body(0)).unwrap();
        assert_eq!(body["id"], 0);
        assert!(body["params"].get("_meta").is_none());
        let template = CallTemplate::new(Workload::ToolsList, "echo", TEXT).unwrap();
        let body: serde_json::Value = serde_json::from_slice(&template.body(5)).unwrap();
        assert_eq!(body["method"], "tools/list");
        assert!(body["params"].get("name").is_none());
        assert_eq!(
            body["params"]["_meta"][META_PROTOCOL_VERSION],
            STATELESS_REVISION
        );
    }

    #[test]
    fn checks_tools_lists() {
        let list = r#"{"jsonrpc":"2.0","id":4,"result":{"tools":[{"name":"other"},{"name":"echo","inputSchema":{}}]}}"#;
        check_tools_list(list.as_bytes(), Framing::Json, 4, "echo").unwrap();
        assert!(check_tools_list(list.as_bytes(), Framing::Json, 4, "missing").is_err());
        assert!(check_tools_list(list.as_bytes(), Framing::Json, 5, "echo").is_err());
        let empty = r#"{"jsonrpc":"2.0","id":4,"result":{"tools":[]}}"#;
        assert!(check_tools_list(empty.as_bytes(), Framing::Json, 4, "echo").is_err());
    }

    #[test]
    fn checks_json_answers() {
        check_echo(answer(7, TEXT).as_bytes(), Framing::Json, 7, TEXT).unwrap();
        assert!(check_echo(answer(8, TEXT).as_bytes(), Framing::Json, 7, TEXT).is_err());
        assert!(check_echo(answer(7, "other").as_bytes(), Framing::Json, 7, TEXT).is_err());
        let error = r#"{"jsonrpc":"2.0","id":7,"error":{"code":-32602,"message":"no"}}"#;
        assert!(check_echo(error.as_bytes(), Framing::Json, 7, TEXT).is_err());
    }

    #[test]
    fn checks_sse_answers() {
        let notification = r#"{"jsonrpc":"2.0","method":"notifications/message","params":{}}"#;
        let body = format!(
            "id: 0-0\r\nretry: 1000\r\ndata: \r\n\r\nid: 0-1\ndata: {notification}\n\nid: 0-2\ndata:{}\n\n",
            answer(9, TEXT)
        );
        check_echo(body.as_bytes(), Framing::Sse, 9, TEXT).unwrap();
        assert!(check_echo(body.as_bytes(), Framing::Sse, 10, TEXT).is_err());
        assert!(check_echo(b"id: 1\ndata: \n\n", Framing::Sse, 9, TEXT).is_err());
        // The last event needs no blank line after it.
        let unterminated = format!("data: {}", answer(3, TEXT));
        check_echo(unterminated.as_bytes(), Framing::Sse, 3, TEXT).unwrap();
    }

    #[test]
    fn checks_initialize() {
        let body = r#"{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25"}}"#;
        check_initialize(body.as_bytes(), Framing::Json, 0).unwrap();
        let body = r#"{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-06-18"}}"#;
        assert!(check_initialize(body.as_bytes(), Framing::Json, 0).is_err());
    }
}
