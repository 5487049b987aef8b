//! `HttpServer::router()` served by the application's own `axum::serve` answers exactly as
//! `serve_on` does. `serve_on` hands POSTs to the endpoint straight to their handler,
//! skipping the router's dispatch; everything else goes through the router in both.

use std::net::SocketAddr;

use mcp_http_tests::{HttpClient, serve_both};
use mcp_runtime::{HttpServer, Server, mcp_tool};
use reqwest::StatusCode;
use reqwest::header::HeaderValue;
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// Echo the text back.
#[mcp_tool]
async fn echo(
    /// What to echo.
    text: String,
) -> String {
    text
}

fn configured() -> HttpServer {
    Server::new("router-tests", "1.0.0")
        .max_message_size(64 * 1024)
        .http()
}

/// Serves the endpoint with `serve_on`, and as `router()` through `axum::serve`.
async fn both() -> [SocketAddr; 2] {
    serve_both(configured).await
}

/// What a reply says, with what differs between any two servers (session ids) left out.
fn seen(reply: &mcp_http_tests::Reply) -> (StatusCode, Option<HeaderValue>, bool, Vec<Value>) {
    (
        reply.status,
        reply.headers.get("content-type").cloned(),
        reply.event_stream,
        reply.messages.clone(),
    )
}

/// POSTs `pieces` as a chunked body, each piece written (and flushed) on its own; returns
/// the status and everything after the status line.
async fn post_in_pieces<'a>(
    address: SocketAddr,
    headers: &reqwest::header::HeaderMap,
    pieces: impl Iterator<Item = &'a [u8]>,
) -> (u16, String) {
    let mut stream = TcpStream::connect(address).await.expect("a connection");
    let mut head = format!("POST /mcp HTTP/1.1\r\nhost: {address}\r\n");
    for (name, value) in headers {
        let value = value.to_str().expect("ASCII");
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str("transfer-encoding: chunked\r\nconnection: close\r\n\r\n");
    stream.write_all(head.as_bytes()).await.expect("written");
    for piece in pieces {
        let mut chunk = format!("{:x}\r\n", piece.len()).into_bytes();
        chunk.extend_from_slice(piece);
        chunk.extend_from_slice(b"\r\n");
        // The server may refuse (and close) before the rest is sent.
        if stream.write_all(&chunk).await.is_err() || stream.flush().await.is_err() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    }
    let _ = stream.write_all(b"0\r\n\r\n").await;
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer).await;
    let answer = String::from_utf8_lossy(&answer).into_owned();
    let status = answer
        .split(' ')
        .nth(1)
        .and_then(|status| status.parse().ok())
        .unwrap_or_else(|| panic!("a status line: {answer}"));
    (status, answer)
}

#[tokio::test]
async fn the_router_answers_as_serve_on_does() {
    let mut answers = Vec::new();
    for address in both().await {
        let url = format!("http://{address}/mcp");
        let mut seen_here = Vec::new();

        // 2026-07-28, answered with SSE (the client accepts it) and with JSON.
        let mut stateless = HttpClient::new(url.clone(), "2026-07-28");
        let call = stateless
            .request(
                "tools/call",
                json!({ "name": "echo", "arguments": { "text": "routed" } }),
            )
            .await;
        assert_eq!(call.response()["result"]["content"][0]["text"], "routed");
        seen_here.push(seen(&call));
        let body = stateless.request_body(
            "tools/call",
            json!({ "name": "echo", "arguments": { "text": "as JSON" } }),
        );
        let mut headers = stateless.request_headers(&body);
        headers.insert("accept", HeaderValue::from_static("application/json"));
        seen_here.push(seen(&stateless.post_with(headers, &body).await));
        // Refused: a header that disagrees with the body.
        let mut headers = stateless.request_headers(&body);
        headers.insert("mcp-name", HeaderValue::from_static("other"));
        seen_here.push(seen(&stateless.post_with(headers, &body).await));

        // A session (2025-11-25).
        let mut session = HttpClient::new(url.clone(), "2025-11-25");
        assert!(session.initialize(json!({})).await.status.is_success());
        let call = session
            .request(
                "tools/call",
                json!({ "name": "echo", "arguments": { "text": "in a session" } }),
            )
            .await;
        seen_here.push(seen(&call));

        // Over the body limit, under the router's 2 MB default: the server's own limit holds.
        let big = json!({ "jsonrpc": "2.0", "id": 9, "method": "ping", "params": { "pad": "x".repeat(70_000) } });
        let too_big = stateless.post_raw(stateless.base_headers(), &big).await;
        assert_eq!(too_big.status(), StatusCode::PAYLOAD_TOO_LARGE, "{url}");
        let refusal: Value =
            serde_json::from_slice(&too_big.bytes().await.expect("a body")).expect("JSON");
        assert_eq!(
            refusal["error"],
            json!({ "code": -32600, "message": "Invalid request: the message is longer than the 65536-byte limit." }),
            "{url}"
        );

        // A body sent in pieces (chunked, no `Content-Length`) is joined; one that grows
        // past the limit while arriving is refused as one that says so up front.
        let body = stateless.request_body(
            "tools/call",
            json!({ "name": "echo", "arguments": { "text": "in pieces" } }),
        );
        let text = serde_json::to_vec(&body).expect("JSON");
        let mut headers = stateless.request_headers(&body);
        headers.insert("accept", HeaderValue::from_static("application/json"));
        let (status, answer) = post_in_pieces(address, &headers, text.chunks(40)).await;
        assert_eq!(status, 200, "{url}: {answer}");
        assert!(answer.contains(r#""text":"in pieces""#), "{url}: {answer}");
        let big = serde_json::to_vec(&big).expect("JSON");
        let (status, answer) = post_in_pieces(address, &headers, big.chunks(16 * 1024)).await;
        assert_eq!(status, 413, "{url}: {answer}");
        assert!(answer.contains("65536-byte limit"), "{url}: {answer}");

        // What only the router serves: other methods and paths.
        let http = reqwest::Client::new();
        let put = http.put(&url).send().await.expect("a response");
        let elsewhere = http
            .post(format!("http://{address}/elsewhere"))
            .body("{}")
            .send()
            .await
            .expect("a response");
        answers.push((seen_here, put.status(), elsewhere.status()));
    }
    let [served, routed] = <[_; 2]>::try_from(answers).expect("two servers");
    assert_eq!(served.1, StatusCode::METHOD_NOT_ALLOWED);
    assert_eq!(served.2, StatusCode::NOT_FOUND);
    assert_eq!(served, routed);
}
