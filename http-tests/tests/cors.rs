//! CORS for the origins `allow_origin` names, as a browser sees it, through `serve_on` and
//! through `router()` under the application's own `axum::serve`: the preflight of a JSON
//! `POST`, the headers a page's script may read on every answer (a `401` included), and
//! nothing for local or foreign origins. `interop/apps_run.sh` shows a real browser using it.

use std::net::SocketAddr;

use mcp_http_tests::{HttpClient, serve_both};
use mcp_runtime::{AuthRejection, HttpServer, Server, bearer_token, mcp_tool};
use reqwest::header::{HeaderMap, HeaderValue};
use reqwest::{Method, StatusCode};
use serde_json::json;
use tokio::net::TcpListener;

const PAGE: &str = "https://app.example.com";
const REVISION: &str = "2025-11-25";

/// Echo the text back.
#[mcp_tool]
async fn echo(
    /// What to echo.
    text: String,
) -> String {
    text
}

fn configured(token: bool) -> HttpServer {
    let http = Server::new("cors-tests", "1.0.0")
        .http()
        .allow_origin(format!("{PAGE}/"));
    if !token {
        return http;
    }
    http.authenticate(
        |headers: &axum::http::HeaderMap| match bearer_token(headers)? {
            "secret" => Ok("ada".to_owned()),
            _ => Err(AuthRejection::invalid_token("The token is not valid.")),
        },
    )
}

/// The endpoint served by `serve_on` and, beside it, as `router()` through `axum::serve`.
async fn both(token: bool) -> [SocketAddr; 2] {
    serve_both(|| configured(token)).await
}

fn header<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers
        .get(name)
        .map(|value| value.to_str().expect("ASCII"))
}

/// What a browser sends before a page's JSON `POST` to another origin.
async fn preflight(address: SocketAddr, origin: &str) -> reqwest::Response {
    reqwest::Client::new()
        .request(Method::OPTIONS, format!("http://{address}/mcp"))
        .header("origin", origin)
        .header("access-control-request-method", "POST")
        .header(
            "access-control-request-headers",
            "content-type, mcp-protocol-version, mcp-session-id, mcp-param-region",
        )
        .send()
        .await
        .expect("an answer")
}

#[tokio::test]
async fn a_named_origin_passes_the_preflight() {
    for address in both(false).await {
        let answer = preflight(address, PAGE).await;
        assert_eq!(answer.status(), StatusCode::NO_CONTENT, "{address}");
        let headers = answer.headers();
        assert_eq!(header(headers, "access-control-allow-origin"), Some(PAGE));
        assert_eq!(
            header(headers, "access-control-allow-methods"),
            Some("GET, POST, DELETE")
        );
        assert_eq!(
            header(headers, "access-control-allow-headers"),
            Some("content-type, mcp-protocol-version, mcp-session-id, mcp-param-region"),
            "the headers asked for, per-tool ones included"
        );
        assert_eq!(header(headers, "access-control-max-age"), Some("600"));
        assert!(header(headers, "access-control-allow-credentials").is_none());
    }
}

#[tokio::test]
async fn other_origins_get_no_cors() {
    for address in both(false).await {
        let foreign = preflight(address, "https://evil.example.com").await;
        assert_eq!(foreign.status(), StatusCode::FORBIDDEN);
        assert!(header(foreign.headers(), "access-control-allow-origin").is_none());
        // Local origins are accepted, not opened to other pages' scripts.
        let local = preflight(address, "http://localhost:5173").await;
        assert_eq!(local.status(), StatusCode::NO_CONTENT);
        assert!(header(local.headers(), "access-control-allow-origin").is_none());
        assert!(header(local.headers(), "access-control-allow-methods").is_none());
    }
}

#[tokio::test]
async fn every_answer_to_a_named_origin_is_readable_by_its_page() {
    for address in both(false).await {
        let mut client = HttpClient::new(format!("http://{address}/mcp"), REVISION);
        client
            .extra_headers
            .insert("origin", HeaderValue::from_static(PAGE));
        let initialized = client.initialize(json!({})).await;
        let headers = &initialized.headers;
        assert_eq!(header(headers, "access-control-allow-origin"), Some(PAGE));
        let exposed = header(headers, "access-control-expose-headers").unwrap();
        for name in ["mcp-session-id", "mcp-protocol-version", "www-authenticate"] {
            assert!(exposed.contains(name), "{exposed}");
        }
        assert_eq!(header(headers, "vary"), Some("origin"));

        let called = client
            .request(
                "tools/call",
                json!({"name": "echo", "arguments": {"text": "hi"}}),
            )
            .await;
        assert_eq!(called.response()["result"]["content"][0]["text"], "hi");
        assert_eq!(
            header(&called.headers, "access-control-allow-origin"),
            Some(PAGE)
        );

        let stream = client.get().await;
        assert_eq!(stream.status(), StatusCode::OK);
        assert_eq!(
            header(stream.headers(), "access-control-allow-origin"),
            Some(PAGE)
        );
        drop(stream);
        // A refusal too, so that the page can read why.
        let mut wrong = client.base_headers();
        wrong.insert("mcp-session-id", HeaderValue::from_static("nope"));
        let refused = client
            .post_raw(wrong, &json!({"jsonrpc": "2.0", "id": 9, "method": "ping"}))
            .await;
        assert_eq!(refused.status(), StatusCode::NOT_FOUND);
        assert_eq!(
            header(refused.headers(), "access-control-allow-origin"),
            Some(PAGE)
        );
        assert_eq!(client.delete().await, StatusCode::OK);
    }
}

#[tokio::test]
async fn a_challenge_is_readable_by_the_page_for_its_oauth_discovery() {
    for address in both(true).await {
        let mut client = HttpClient::new(format!("http://{address}/mcp"), REVISION);
        client
            .extra_headers
            .insert("origin", HeaderValue::from_static(PAGE));
        let body = json!({"jsonrpc": "2.0", "id": 1, "method": "ping"});
        let refused = client.post_raw(client.base_headers(), &body).await;
        assert_eq!(refused.status(), StatusCode::UNAUTHORIZED);
        let headers = refused.headers();
        assert_eq!(header(headers, "access-control-allow-origin"), Some(PAGE));
        assert!(header(headers, "www-authenticate").is_some());
        // The preflight itself needs no token: a browser never sends one with it.
        assert_eq!(
            preflight(address, PAGE).await.status(),
            StatusCode::NO_CONTENT
        );
    }
}

#[tokio::test]
async fn without_a_named_origin_nothing_changes() {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("a port");
    let address = listener.local_addr().expect("an address");
    tokio::spawn(
        Server::new("cors-tests", "1.0.0")
            .http()
            .shutdown_on(std::future::pending())
            .serve_on(listener),
    );
    let local = preflight(address, "http://localhost:5173").await;
    assert_eq!(local.status(), StatusCode::NO_CONTENT);
    assert!(header(local.headers(), "access-control-allow-origin").is_none());
    let mut client = HttpClient::new(format!("http://{address}/mcp"), REVISION);
    let initialized = client.initialize(json!({})).await;
    assert!(header(&initialized.headers, "access-control-allow-origin").is_none());
    assert!(header(&initialized.headers, "vary").is_none());
}
