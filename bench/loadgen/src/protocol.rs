//! The few MCP messages the load generator writes and reads.
//!
//! Requests are preformatted: a `tools/call` is a fixed prefix, the id's digits and a fixed
//! suffix. Responses are checked with borrowing deserializers that allocate nothing unless
//! a string carries escapes.

use std::borrow::Cow;
use std::fmt;
use std::marker::PhantomData;

use anyhow::{Result, anyhow, bail};
use serde::Deserialize;
use serde::de::{self, IgnoredAny, SeqAccess, Visitor};
use serde_json::value::RawValue;

/// The revision the load generator asks for: every baseline speaks it.
pub const PROTOCOL_VERSION: &str = "2025-06-18";

/// The `initialize` request, id 0.
pub fn initialize_request() -> String {
    format!(
        r#"{{"jsonrpc":"2.0","id":0,"method":"initialize","params":{{"protocolVersion":"{PROTOCOL_VERSION}","capabilities":{{}},"clientInfo":{{"name":"mcp-loadgen","version":"{}"}}}}}}"#,
        env!("CARGO_PKG_VERSION")
    ) + "\n"
}

/// The `notifications/initialized` notification.
pub const INITIALIZED: &[u8] = b"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n";

/// A `tools/list` request for the page at `cursor` (the first page without one).
pub fn list_request(id: u64, cursor: Option<&str>) -> Result<Vec<u8>> {
    let params = match cursor {
        Some(cursor) => format!(r#"{{"cursor":{}}}"#, serde_json::to_string(cursor)?),
        None => "{}".to_owned(),
    };
    Ok(format!(
        "{{\"jsonrpc\":\"2.0\",\"id\":{id},\"method\":\"tools/list\",\"params\":{params}}}\n"
    )
    .into_bytes())
}

/// A `tools/call` request, preformatted around its id.
pub struct CallTemplate {
    prefix: Vec<u8>,
    suffix: Vec<u8>,
}

impl CallTemplate {
    pub fn new(tool: &str, text: &str) -> Result<Self> {
        let params = format!(
            r#","method":"tools/call","params":{{"name":{},"arguments":{{"text":{}}}}}}}"#,
            serde_json::to_string(tool)?,
            serde_json::to_string(text)?,
        );
        Ok(CallTemplate {
            prefix: br#"{"jsonrpc":"2.0","id":"#.to_vec(),
            suffix: [params.as_bytes(), b"\n"].concat(),
        })
    }

    /// Appends the request with this id to `out`.
    pub fn write(&self, id: u64, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.prefix);
        let mut digits = [0u8; 20];
        let mut at = digits.len();
        let mut rest = id;
        loop {
            at -= 1;
            digits[at] = b'0' + (rest % 10) as u8;
            rest /= 10;
            if rest == 0 {
                break;
            }
        }
        out.extend_from_slice(&digits[at..]);
        out.extend_from_slice(&self.suffix);
    }
}

/// Any JSON-RPC message from the server, with the parts checked here left raw.
#[derive(Deserialize)]
pub struct Incoming<'a> {
    #[serde(borrow)]
    pub jsonrpc: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub id: Option<&'a RawValue>,
    #[serde(borrow)]
    pub method: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub result: Option<&'a RawValue>,
    #[serde(borrow)]
    pub error: Option<&'a RawValue>,
}

impl<'a> Incoming<'a> {
    pub fn parse(line: &'a [u8]) -> Result<Self> {
        let message: Incoming<'a> = serde_json::from_slice(line).map_err(|error| {
            anyhow!(
                "the server sent a line that is not JSON ({error}): {}",
                excerpt(line)
            )
        })?;
        if message.jsonrpc.as_deref() != Some("2.0") {
            bail!(
                "the server sent a message without \"jsonrpc\":\"2.0\": {}",
                excerpt(line)
            );
        }
        Ok(message)
    }

    /// Whether this is a request or notification from the server rather than a response.
    pub fn is_from_server(&self) -> bool {
        self.method.is_some()
    }

    /// The numeric id of a response.
    pub fn numeric_id(&self) -> Option<u64> {
        self.id.and_then(|id| id.get().parse().ok())
    }

    /// The result of a successful response; an error response is an error.
    pub fn into_result(self) -> Result<&'a RawValue> {
        match (self.result, self.error) {
            (Some(result), None) => Ok(result),
            (_, Some(error)) => bail!("the server answered with an error: {}", error.get()),
            (None, None) => bail!("the server's response has neither result nor error"),
        }
    }
}

/// The `initialize` result, as far as it is checked.
#[derive(Deserialize)]
pub struct InitializeResult<'a> {
    #[serde(borrow, rename = "protocolVersion")]
    pub protocol_version: Cow<'a, str>,
    pub capabilities: Capabilities,
}

#[derive(Deserialize)]
pub struct Capabilities {
    pub tools: Option<IgnoredAny>,
}

/// A `tools/list` result: the tools are counted, not kept.
#[derive(Deserialize)]
pub struct ListResult {
    pub tools: Counted,
    #[serde(rename = "nextCursor")]
    pub next_cursor: Option<String>,
}

/// The length of a JSON array whose elements are skipped.
pub struct Counted(pub usize);

impl<'de> Deserialize<'de> for Counted {
    fn deserialize<D: de::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Count;
        impl<'de> Visitor<'de> for Count {
            type Value = Counted;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an array")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Counted, A::Error> {
                let mut count = 0;
                while seq.next_element::<IgnoredAny>()?.is_some() {
                    count += 1;
                }
                Ok(Counted(count))
            }
        }
        deserializer.deserialize_seq(Count)
    }
}

/// The response to one echo call: the id, and whether the result is exactly one text
/// block holding the text that was sent.
#[derive(Deserialize)]
struct EchoResponse<'a> {
    #[serde(borrow)]
    jsonrpc: Cow<'a, str>,
    #[serde(borrow)]
    id: Option<&'a RawValue>,
    #[serde(borrow)]
    result: Option<EchoResult<'a>>,
    #[serde(borrow)]
    error: Option<&'a RawValue>,
    #[serde(borrow)]
    method: Option<Cow<'a, str>>,
}

#[derive(Deserialize)]
struct EchoResult<'a> {
    #[serde(borrow)]
    content: OneBlock<'a>,
    #[serde(rename = "isError")]
    is_error: Option<bool>,
}

#[derive(Deserialize)]
struct TextBlock<'a> {
    #[serde(borrow, rename = "type")]
    kind: Cow<'a, str>,
    #[serde(borrow)]
    text: Option<Cow<'a, str>>,
}

/// A content array that must hold exactly one block.
struct OneBlock<'a>(TextBlock<'a>);

impl<'de: 'a, 'a> Deserialize<'de> for OneBlock<'a> {
    fn deserialize<D: de::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct One<'a>(PhantomData<&'a ()>);
        impl<'de: 'a, 'a> Visitor<'de> for One<'a> {
            type Value = OneBlock<'a>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an array of one content block")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<OneBlock<'a>, A::Error> {
                let block = seq
                    .next_element::<TextBlock<'a>>()?
                    .ok_or_else(|| de::Error::invalid_length(0, &self))?;
                if seq.next_element::<IgnoredAny>()?.is_some() {
                    return Err(de::Error::invalid_length(2, &self));
                }
                Ok(OneBlock(block))
            }
        }
        deserializer.deserialize_seq(One(PhantomData))
    }
}

/// What one line from the server is, during the load phase.
pub enum CallOutcome {
    /// A correct echo for this id.
    Echo(u64),
    /// A request or notification from the server: not an answer.
    FromServer,
}

/// Checks one line against the expected echo.
pub fn check_echo(line: &[u8], text: &str) -> Result<CallOutcome> {
    let response: EchoResponse<'_> = serde_json::from_slice(line).map_err(|error| {
        anyhow!(
            "not a tools/call echo response ({error}): {}",
            excerpt(line)
        )
    })?;
    if response.jsonrpc != "2.0" {
        bail!("a message without \"jsonrpc\":\"2.0\": {}", excerpt(line));
    }
    if response.method.is_some() {
        return Ok(CallOutcome::FromServer);
    }
    let Some(id) = response.id.and_then(|id| id.get().parse::<u64>().ok()) else {
        bail!("a response without a numeric id: {}", excerpt(line));
    };
    if let Some(error) = response.error {
        bail!("call {id} was answered with an error: {}", error.get());
    }
    let Some(result) = response.result else {
        bail!("call {id}: the response has no result: {}", excerpt(line));
    };
    let block = result.content.0;
    if result.is_error == Some(true) || block.kind != "text" || block.text.as_deref() != Some(text)
    {
        bail!(
            "call {id} was not answered with the echo: {}",
            excerpt(line)
        );
    }
    Ok(CallOutcome::Echo(id))
}

/// The start of a line, for error messages.
pub fn excerpt(line: &[u8]) -> String {
    let text = String::from_utf8_lossy(line);
    let text = text.trim_end();
    match text.char_indices().nth(300) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_calls_around_the_id() {
        let template = CallTemplate::new("echo", "hi \"there\"").unwrap();
        let mut out = Vec::new();
        template.write(0, &mut out);
        template.write(1_234_567, &mut out);
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<serde_json::Value> = text
            .lines()
            .map(|line| serde_json::from_str(line).unwrap())
            .collect();
        assert_eq!(lines[0]["id"], 0);
        assert_eq!(lines[1]["id"], 1_234_567);
        assert_eq!(lines[1]["params"]["arguments"]["text"], "hi \"there\"");
        assert_eq!(lines[1]["params"]["name"], "echo");
    }

    #[test]
    fn accepts_only_the_exact_echo() {
        let good =
            br#"{"result":{"content":[{"text":"hi","type":"text"}]},"id":7,"jsonrpc":"2.0"}"#;
        assert!(matches!(
            check_echo(good, "hi").unwrap(),
            CallOutcome::Echo(7)
        ));
        let wrong_text =
            br#"{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"ho"}]}}"#;
        assert!(check_echo(wrong_text, "hi").is_err());
        let two_blocks = br#"{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"hi"},{"type":"text","text":"hi"}]}}"#;
        assert!(check_echo(two_blocks, "hi").is_err());
        let is_error = br#"{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"hi"}],"isError":true}}"#;
        assert!(check_echo(is_error, "hi").is_err());
        let error = br#"{"jsonrpc":"2.0","id":7,"error":{"code":-32601,"message":"no"}}"#;
        assert!(check_echo(error, "hi").is_err());
        let notification = br#"{"jsonrpc":"2.0","method":"notifications/message","params":{}}"#;
        assert!(matches!(
            check_echo(notification, "hi").unwrap(),
            CallOutcome::FromServer
        ));
    }
}
