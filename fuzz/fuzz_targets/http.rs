//! The Streamable HTTP endpoint: arbitrary bytes as clients write them to the server's
//! sockets — request lines, headers, bodies, several requests on one connection, several
//! connections in turn. The input is split at `\n--\n` into connections, served one after
//! another by one server (so sessions opened by one are used by the next); `{sid}` in a
//! connection's bytes stands for the latest `Mcp-Session-Id` the server gave.
//!
//! Whatever comes in, the server must not panic (in any task), must answer in well-formed
//! HTTP/1.1 with no 5xx but `503` (a bound reached), and must still serve a well-behaved
//! client afterwards.

#![no_main]

mod harness;

use std::sync::Once;
use std::time::Duration;

use hyper_util::rt::TokioIo;
use hyper_util::service::TowerToHyperService;
use libfuzzer_sys::fuzz_target;
use mcp_runtime::{Context, Server, mcp_tool};
use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};

/// Says the text back.
#[mcp_tool(read_only, idempotent)]
async fn echo(text: String) -> String {
    text
}

/// Reports progress, then answers after `ms` milliseconds (of the paused clock).
#[mcp_tool]
async fn slow(ms: u64, context: Context) -> String {
    context.progress(1.0, Some(2.0), None);
    tokio::time::sleep(Duration::from_millis(ms.min(60_000))).await;
    "done".to_owned()
}

/// A connection's bytes in, everything the server wrote back out. The client half-closes
/// after its bytes; the server answers what it read, then closes.
async fn connection(router: axum::Router, bytes: Vec<u8>) -> Vec<u8> {
    let (mut client, server) = tokio::io::duplex(256 * 1024);
    let service = TowerToHyperService::new(router);
    let serving = tokio::spawn(async move {
        let _ = hyper::server::conn::http1::Builder::new()
            .half_close(true)
            .timer(hyper_util::rt::TokioTimer::new())
            .header_read_timeout(Duration::from_secs(30))
            .serve_connection(TokioIo::new(server), service)
            .await;
    });
    let exchange = async {
        client.write_all(&bytes).await?;
        client.shutdown().await?;
        let mut output = Vec::new();
        client.read_to_end(&mut output).await?;
        Ok::<_, std::io::Error>(output)
    };
    // An hour of the paused clock: a session's stream left open ends with the session.
    let output = tokio::time::timeout(Duration::from_secs(3600), exchange)
        .await
        .ok()
        .and_then(Result::ok)
        .unwrap_or_default();
    serving.abort();
    output
}

/// Checks every response in `output` — a status line and headers, then a body of its
/// `content-length` or in chunks — and returns the last session id given. The answer to a
/// `HEAD` has a `content-length` and no body, so after one (`heads`, the requests held
/// one) where the next response starts is not known: the rest is not checked.
fn check_responses(output: &[u8], heads: bool) -> Option<String> {
    let mut session = None;
    let mut rest = output;
    while !rest.is_empty() {
        let mut headers = [httparse::EMPTY_HEADER; 32];
        let mut response = httparse::Response::new(&mut headers);
        let head_length = match response.parse(rest) {
            Ok(httparse::Status::Complete(length)) => length,
            // Cut short: the connection was closed mid-response (a stream left open).
            Ok(httparse::Status::Partial) => return session,
            Err(_) if heads => return session,
            Err(error) => panic!(
                "not an HTTP response ({error}): {:.300}",
                String::from_utf8_lossy(rest)
            ),
        };
        let status = response.code.expect("a complete head has a status");
        assert!(
            status < 500 || status == 503,
            "the server answered {status}: {:.300}",
            String::from_utf8_lossy(rest)
        );
        let header = |name: &str| {
            response
                .headers
                .iter()
                .find(|header| header.name.eq_ignore_ascii_case(name))
                .map(|header| String::from_utf8_lossy(header.value).into_owned())
        };
        if let Some(id) = header("mcp-session-id") {
            session = Some(id);
        }
        let body = &rest[head_length..];
        rest = if let Some(length) = header("content-length") {
            let length: usize = length.parse().expect("a numeric content-length");
            body.get(length..).unwrap_or_default()
        } else if header("transfer-encoding").is_some_and(|coding| coding == "chunked") {
            match after_chunks(body) {
                Some(rest) => rest,
                None => return session,
            }
        } else {
            // No length: the body runs to the end of the connection.
            &[]
        };
    }
    session
}

/// What follows a chunked body, or `None` if it was cut short.
fn after_chunks(mut body: &[u8]) -> Option<&[u8]> {
    loop {
        let line_end = body.windows(2).position(|pair| pair == b"\r\n")?;
        let size = std::str::from_utf8(&body[..line_end]).ok()?;
        let size = usize::from_str_radix(size.split(';').next()?.trim(), 16)
            .unwrap_or_else(|_| panic!("a bad chunk size line: {size:?}"));
        body = body.get(line_end + 2..)?;
        if size == 0 {
            // No trailers are sent: the empty line ends the body.
            return body.get(2..);
        }
        body = body.get(size + 2..)?;
    }
}

/// A 2026-07-28 `tools/list`, as a well-behaved client sends it.
fn list_tools() -> Vec<u8> {
    let body = r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"fuzz","version":"0"}}}}"#;
    format!(
        "POST /mcp HTTP/1.1\r\nhost: localhost\r\ncontent-type: application/json\r\n\
         accept: application/json, text/event-stream\r\nmcp-protocol-version: 2026-07-28\r\n\
         mcp-method: tools/list\r\ncontent-length: {}\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}

fuzz_target!(|input: &[u8]| {
    static HOOK: Once = Once::new();
    // A panic in any task of the server is a failure, not only one on this thread.
    HOOK.call_once(|| {
        let default = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            default(info);
            std::process::abort();
        }));
    });
    harness::runtime().block_on(async {
        let router = Server::new("fuzz-http", "0.0.0")
            .max_message_size(harness::MAX_MESSAGE)
            .call_timeout(Duration::from_millis(200))
            .http()
            .body_timeout(Duration::from_secs(5))
            .max_sessions(16)
            .max_calls_per_session(4)
            .router()
            .expect("the router");
        let mut session = String::from("none");
        for bytes in connections(input) {
            let bytes = replace(bytes, b"{sid}", session.as_bytes());
            let heads = bytes.windows(5).any(|word| word == b"HEAD ");
            let output = connection(router.clone(), bytes).await;
            if let Some(id) = check_responses(&output, heads) {
                session = id;
            }
        }
        let output = connection(router, list_tools()).await;
        assert!(
            output.starts_with(b"HTTP/1.1 200"),
            "a well-behaved client is not served after the input: {:.300}",
            String::from_utf8_lossy(&output)
        );
    });
});

/// The input's connections: its bytes split at `\n--\n`.
fn connections(input: &[u8]) -> Vec<&[u8]> {
    const SEPARATOR: &[u8] = b"\n--\n";
    let mut parts = Vec::new();
    let mut rest = input;
    while let Some(at) = rest.windows(SEPARATOR.len()).position(|w| w == SEPARATOR) {
        parts.push(&rest[..at]);
        rest = &rest[at + SEPARATOR.len()..];
    }
    parts.push(rest);
    parts
}

/// `bytes` with every `from` replaced by `to`.
fn replace(bytes: &[u8], from: &[u8], to: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len());
    let mut rest = bytes;
    while let Some(at) = rest.windows(from.len()).position(|w| w == from) {
        out.extend_from_slice(&rest[..at]);
        out.extend_from_slice(to);
        rest = &rest[at + from.len()..];
    }
    out.extend_from_slice(rest);
    out
}
