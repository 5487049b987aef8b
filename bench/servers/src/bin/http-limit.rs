//! The physical limit over Streamable HTTP: a hand-written hyper 1 server that answers the
//! echo `tools/call` with the same bytes and headers as `ours-http`, with no MCP machinery.
//!
//! `http-limit --http ADDR` listens on `ADDR` (e.g. `127.0.0.1:0`) and prints
//! `listening on http://ADDR/mcp` on stderr. Every POST body is parsed (borrowed, serde_json)
//! for the method, the id and the echo's text, and answered:
//!
//! - `tools/call` without a session (2026-07-28): the JSON body ours sends, or, when `Accept`
//!   includes `text/event-stream`, that body as one SSE event with ours' headers;
//! - `initialize`: a fixed result (2025-11-25) with an `Mcp-Session-Id`;
//!   `notifications/initialized` (any notification): 202;
//! - `tools/call` with an `Mcp-Session-Id`: ours' 2025-11-25 SSE answer, a priming event
//!   (`id: N-0`, `retry: 1000`, empty `data`) then the response (`id: N-1`);
//! - `tools/list`: ours' list of the one tool, as a 2026-07-28 result (server identity in
//!   `_meta`, cache hints, `resultType`) without a session, as a 2025-11-25 one in a session;
//!   `DELETE`: 200.
//!
//! Sessions are neither checked nor stored. One `current_thread` runtime (meant to be pinned
//! to one core), `TCP_NODELAY` on every accepted socket.

use std::borrow::Cow;
use std::convert::Infallible;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::task::{Context, Poll};

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::body::{Body, Frame, Incoming};
use hyper::header::{ACCEPT, CACHE_CONTROL, CONTENT_TYPE, HeaderName, HeaderValue};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Method, Request, Response, StatusCode};
use hyper_util::rt::TokioIo;
use serde::Deserialize;
use serde_json::value::RawValue;
use tokio::net::TcpListener;

const MCP_SESSION_ID: HeaderName = HeaderName::from_static("mcp-session-id");
const X_ACCEL_BUFFERING: HeaderName = HeaderName::from_static("x-accel-buffering");

const INITIALIZE_RESULT: &str = r#"{"capabilities":{"logging":{},"tools":{"listChanged":false}},"protocolVersion":"2025-11-25","serverInfo":{"name":"echo","version":"1.0.0"}}"#;
/// The echo tool as ours lists it.
const ECHO_TOOL: &str = r#"{"annotations":{"idempotentHint":true,"readOnlyHint":true},"description":"Echo the text back.","inputSchema":{"additionalProperties":false,"properties":{"text":{"description":"The text to echo.","type":"string"}},"required":["text"],"type":"object"},"name":"echo"}"#;
/// What ours adds to a stateless result.
const SERVER_INFO_META: &str =
    r#""_meta":{"io.modelcontextprotocol/serverInfo":{"name":"echo","version":"1.0.0"}},"#;

/// Sessions handed out and call streams opened (ids only: nothing is stored).
static SESSIONS: AtomicU64 = AtomicU64::new(1);
static STREAMS: AtomicU64 = AtomicU64::new(1);

#[derive(Deserialize)]
struct Message<'a> {
    #[serde(borrow)]
    id: Option<&'a RawValue>,
    #[serde(borrow)]
    method: Option<Cow<'a, str>>,
    #[serde(borrow)]
    params: Option<CallParams<'a>>,
}

#[derive(Deserialize)]
struct CallParams<'a> {
    #[serde(borrow)]
    arguments: Option<EchoArguments<'a>>,
}

#[derive(Deserialize)]
struct EchoArguments<'a> {
    #[serde(borrow)]
    text: Option<Cow<'a, str>>,
}

/// One chunk, no length: hyper sends it chunked, as ours sends an SSE stream.
struct Chunked(Option<Bytes>);

impl Body for Chunked {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        _: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        Poll::Ready(self.0.take().map(|bytes| Ok(Frame::data(bytes))))
    }

    fn is_end_stream(&self) -> bool {
        self.0.is_none()
    }
}

type Answer = Response<http_body_util::Either<Full<Bytes>, Chunked>>;

fn full(status: StatusCode, content_type: Option<&'static str>, body: Vec<u8>) -> Answer {
    let mut response = Response::new(http_body_util::Either::Left(Full::new(Bytes::from(body))));
    *response.status_mut() = status;
    if let Some(kind) = content_type {
        response
            .headers_mut()
            .insert(CONTENT_TYPE, HeaderValue::from_static(kind));
    }
    response
}

fn sse(body: Vec<u8>) -> Answer {
    let mut response = Response::new(http_body_util::Either::Right(Chunked(Some(Bytes::from(
        body,
    )))));
    let headers = response.headers_mut();
    headers.insert(CONTENT_TYPE, HeaderValue::from_static("text/event-stream"));
    headers.insert(CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    headers.insert(X_ACCEL_BUFFERING, HeaderValue::from_static("no"));
    response
}

/// `{"id":ID,"jsonrpc":"2.0","result":{…,"content":[{"text":TEXT,"type":"text"}]…}}`.
fn echo_response(out: &mut Vec<u8>, id: &RawValue, text: &str, stateless: bool) {
    open_result(out, id, stateless);
    out.extend_from_slice(b"\"content\":[{\"text\":");
    serde_json::to_writer(&mut *out, text).expect("a string serializes");
    out.extend_from_slice(b",\"type\":\"text\"}]");
    if stateless {
        out.extend_from_slice(b",\"resultType\":\"complete\"");
    }
    out.extend_from_slice(b"}}");
}

/// `{"id":ID,"jsonrpc":"2.0","result":{` and, when `stateless`, the server's identity.
fn open_result(out: &mut Vec<u8>, id: &RawValue, stateless: bool) {
    out.extend_from_slice(b"{\"id\":");
    out.extend_from_slice(id.get().as_bytes());
    out.extend_from_slice(b",\"jsonrpc\":\"2.0\",\"result\":{");
    if stateless {
        out.extend_from_slice(SERVER_INFO_META.as_bytes());
    }
}

/// `{"id":ID,"jsonrpc":"2.0","result":{"tools":[ECHO]}}`, with ours' 2026-07-28 members
/// (in `serde_json::Map` order) when `stateless`.
fn tools_list(id: &RawValue, stateless: bool) -> Vec<u8> {
    let mut out = Vec::with_capacity(480);
    open_result(&mut out, id, stateless);
    if stateless {
        out.extend_from_slice(b"\"cacheScope\":\"public\",\"resultType\":\"complete\",");
    }
    out.extend_from_slice(b"\"tools\":[");
    out.extend_from_slice(ECHO_TOOL.as_bytes());
    out.push(b']');
    if stateless {
        out.extend_from_slice(b",\"ttlMs\":60000");
    }
    out.extend_from_slice(b"}}");
    out
}

fn result(id: &RawValue, result: &str) -> Vec<u8> {
    format!(r#"{{"id":{},"jsonrpc":"2.0","result":{result}}}"#, id.get()).into_bytes()
}

async fn handle(request: Request<Incoming>) -> Result<Answer, hyper::Error> {
    if request.method() == Method::DELETE {
        return Ok(full(StatusCode::OK, None, Vec::new()));
    }
    if request.method() != Method::POST {
        return Ok(full(StatusCode::METHOD_NOT_ALLOWED, None, Vec::new()));
    }
    let in_session = request.headers().contains_key(MCP_SESSION_ID);
    let accepts_sse = request
        .headers()
        .get(ACCEPT)
        .and_then(|accept| accept.to_str().ok())
        .is_some_and(|accept| accept.contains("text/event-stream"));
    let body = request.into_body().collect().await?.to_bytes();
    let Ok(message) = serde_json::from_slice::<Message<'_>>(&body) else {
        return Ok(full(StatusCode::BAD_REQUEST, None, Vec::new()));
    };
    let (Some(id), Some(method)) = (message.id, message.method.as_deref()) else {
        // A notification (or a response): accepted.
        return Ok(full(StatusCode::ACCEPTED, None, Vec::new()));
    };
    Ok(match method {
        "tools/call" => {
            let text = message
                .params
                .and_then(|params| params.arguments)
                .and_then(|arguments| arguments.text);
            let Some(text) = text else {
                return Ok(full(StatusCode::BAD_REQUEST, None, Vec::new()));
            };
            if in_session {
                let stream = STREAMS.fetch_add(1, Ordering::Relaxed);
                let mut out = Vec::with_capacity(160 + text.len());
                out.extend_from_slice(
                    format!("id: {stream}-0\nretry: 1000\ndata: \n\nid: {stream}-1\ndata: ")
                        .as_bytes(),
                );
                echo_response(&mut out, id, &text, false);
                out.extend_from_slice(b"\n\n");
                sse(out)
            } else if accepts_sse {
                let mut out = Vec::with_capacity(220 + text.len());
                out.extend_from_slice(b"data: ");
                echo_response(&mut out, id, &text, true);
                out.extend_from_slice(b"\n\n");
                sse(out)
            } else {
                let mut out = Vec::with_capacity(200 + text.len());
                echo_response(&mut out, id, &text, true);
                full(StatusCode::OK, Some("application/json"), out)
            }
        }
        "initialize" => {
            let session = SESSIONS.fetch_add(1, Ordering::Relaxed);
            let mut response = full(
                StatusCode::OK,
                Some("application/json"),
                result(id, INITIALIZE_RESULT),
            );
            let value = HeaderValue::from_str(&format!("{session:032x}"))
                .expect("hex digits are a header value");
            response.headers_mut().insert(MCP_SESSION_ID, value);
            response
        }
        "tools/list" => full(
            StatusCode::OK,
            Some("application/json"),
            tools_list(id, !in_session),
        ),
        "ping" => full(StatusCode::OK, Some("application/json"), result(id, "{}")),
        _ => full(StatusCode::NOT_FOUND, None, Vec::new()),
    })
}

fn main() -> std::io::Result<()> {
    let mut args = std::env::args().skip(1);
    let addr = match (args.next().as_deref(), args.next(), args.next()) {
        (Some("--http"), Some(addr), None) => addr,
        _ => {
            eprintln!("usage: http-limit --http ADDR");
            std::process::exit(2)
        }
    };
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?
        .block_on(serve(&addr))
}

async fn serve(addr: &str) -> std::io::Result<()> {
    let listener = TcpListener::bind(addr).await?;
    eprintln!("listening on http://{}/mcp", listener.local_addr()?);
    loop {
        let (stream, _) = listener.accept().await?;
        stream.set_nodelay(true)?;
        tokio::spawn(async move {
            let _ = http1::Builder::new()
                .serve_connection(TokioIo::new(stream), service_fn(handle))
                .await;
        });
    }
}
