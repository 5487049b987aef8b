//! Arguments mirrored into HTTP headers (`#[mcp(header = "...")]`, `x-mcp-header`,
//! 2026-07-28): the schema publishes each annotation, and a stateless `tools/call` is served
//! only when every `Mcp-Param-*` header says what the body says — the value as is, or
//! Base64 in `=?base64?...?=` — and none is missing for a value the body gives. Anything
//! else is `400` with -32020 (HeaderMismatch), and the server answers the next request.

use mcp_http_tests::{HttpClient, InProcessServer};
use mcp_runtime::mcp_tool;
use mcp_tests::STATELESS_REVISION;
use reqwest::StatusCode;
use reqwest::header::{HeaderMap, HeaderName, HeaderValue};
use serde_json::{Value, json};

/// Runs a query where a gateway routes it.
#[mcp_tool(read_only)]
async fn route(
    /// The region, mirrored into `Mcp-Param-Region`.
    #[mcp(header = "Region")]
    region: String,
    /// How urgent, mirrored into `Mcp-Param-Priority`.
    #[mcp(header = "Priority")]
    priority: Option<i64>,
    /// Whether to only pretend, mirrored into `Mcp-Param-Dry-Run`.
    #[mcp(header = "Dry-Run")]
    dry_run: Option<bool>,
    /// The query, in the body only.
    query: String,
) -> String {
    format!("{query} in {region} at {priority:?}, dry run {dry_run:?}")
}

/// Says hello: a tool that mirrors nothing.
#[mcp_tool]
async fn hello() -> &'static str {
    "hello"
}

/// Arguments, the `Mcp-Param-*` headers sent with them, and what the refusal must say.
type Refused = (Value, Vec<(&'static str, &'static str)>, &'static str);

fn call_body(client: &mut HttpClient, arguments: Value) -> Value {
    client.request_body(
        "tools/call",
        json!({ "name": "route", "arguments": arguments }),
    )
}

/// The routing headers plus these `Mcp-Param-*` ones (each value as given, appended, so
/// one may repeat).
fn with_params(client: &HttpClient, body: &Value, params: &[(&str, &str)]) -> HeaderMap {
    let mut headers = client.request_headers(body);
    for (name, value) in params {
        headers.append(
            HeaderName::from_bytes(format!("Mcp-Param-{name}").as_bytes()).expect("a name"),
            HeaderValue::from_bytes(value.as_bytes()).expect("a header value"),
        );
    }
    headers
}

#[tokio::test]
async fn the_schema_names_each_header() {
    let server = InProcessServer::start("param-headers").await;
    let mut client = HttpClient::new(&server.url, STATELESS_REVISION);
    let listed = client.request("tools/list", json!({})).await;
    let tools = listed.response()["result"]["tools"]
        .as_array()
        .expect("tools")
        .clone();
    let route = tools
        .iter()
        .find(|tool| tool["name"] == "route")
        .expect("route is listed");
    let properties = &route["inputSchema"]["properties"];
    assert_eq!(properties["region"]["x-mcp-header"], "Region");
    assert_eq!(properties["region"]["type"], "string");
    assert_eq!(properties["priority"]["x-mcp-header"], "Priority");
    assert_eq!(properties["priority"]["type"], "integer");
    assert_eq!(properties["dry_run"]["x-mcp-header"], "Dry-Run");
    assert!(properties["query"].get("x-mcp-header").is_none());
    let hello = tools.iter().find(|tool| tool["name"] == "hello").unwrap();
    assert!(!hello["inputSchema"].to_string().contains("x-mcp-header"));
}

#[tokio::test]
async fn headers_that_say_what_the_body_says_are_served() {
    let server = InProcessServer::start("param-headers").await;
    let mut client = HttpClient::new(&server.url, STATELESS_REVISION);
    let served = [
        // Plain values; an integer compared as a number; a boolean.
        (
            json!({ "region": "us-west1", "priority": 42, "dry_run": true, "query": "q" }),
            vec![
                ("Region", "us-west1"),
                ("Priority", "42.0"),
                ("Dry-Run", "true"),
            ],
            "q in us-west1 at Some(42), dry run Some(true)",
        ),
        // Base64 for what a header cannot carry as is; header names ignore case.
        (
            json!({ "region": " Zürich ", "query": "q" }),
            vec![("region", "=?base64?IFrDvHJpY2gg?=")],
            "q in  Zürich  at None, dry run None",
        ),
        // `null` and absent values have no header.
        (
            json!({ "region": "eu", "priority": null, "query": "q" }),
            vec![("Region", "eu")],
            "q in eu at None, dry run None",
        ),
        // A value that only looks like the sentinel is literal.
        (
            json!({ "region": "=?base64?eu", "query": "q" }),
            vec![("Region", "=?base64?eu")],
            "q in =?base64?eu at None, dry run None",
        ),
    ];
    for (arguments, params, text) in served {
        let body = call_body(&mut client, arguments.clone());
        let reply = client
            .post_with(with_params(&client, &body, &params), &body)
            .await;
        assert_eq!(
            reply.status,
            StatusCode::OK,
            "{arguments}: {:?}",
            reply.messages
        );
        assert_eq!(
            reply.response()["result"]["content"][0]["text"],
            text,
            "{arguments}"
        );
    }
}

#[tokio::test]
async fn a_missing_or_disagreeing_header_is_refused_and_the_next_call_served() {
    let server = InProcessServer::start("param-headers").await;
    let mut client = HttpClient::new(&server.url, STATELESS_REVISION);
    let both = json!({ "region": "eu", "priority": 7, "query": "q" });
    let refused: [Refused; 9] = [
        (
            both.clone(),
            vec![("Priority", "7")],
            "Mcp-Param-Region header is required",
        ),
        (
            both.clone(),
            vec![("Region", "us"), ("Priority", "7")],
            "says `us`",
        ),
        (
            both.clone(),
            vec![("Region", "EU"), ("Priority", "7")],
            "says `EU`",
        ),
        (
            both.clone(),
            vec![("Region", "eu"), ("Priority", "8")],
            "says `8`",
        ),
        (
            both.clone(),
            vec![("Region", "eu"), ("Priority", "seven")],
            "says `seven`",
        ),
        // Base64 without its padding, or with characters outside the alphabet.
        (
            both.clone(),
            vec![("Region", "=?base64?ZXU?="), ("Priority", "7")],
            "not valid Base64",
        ),
        (
            both.clone(),
            vec![("Region", "=?base64?Z!U=?="), ("Priority", "7")],
            "not valid Base64",
        ),
        // Twice, or sent for a value the body does not give.
        (
            both.clone(),
            vec![("Region", "eu"), ("Region", "eu"), ("Priority", "7")],
            "sent more than once",
        ),
        (
            json!({ "region": "eu", "query": "q" }),
            vec![("Region", "eu"), ("Priority", "7")],
            "gives `priority` no value",
        ),
    ];
    for (arguments, params, wanted) in refused {
        let body = call_body(&mut client, arguments);
        let reply = client
            .post_with(with_params(&client, &body, &params), &body)
            .await;
        assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{params:?}");
        assert_eq!(reply.error_code(), Some(-32020), "{params:?}");
        let message = reply.response()["error"]["message"].as_str().unwrap();
        assert!(message.contains(wanted), "{params:?}: {message}");
        assert_eq!(reply.response()["id"], body["id"], "{params:?}");
    }
    // Bytes outside visible ASCII are refused: a client must Base64-encode them.
    let body = call_body(&mut client, json!({ "region": "é", "query": "q" }));
    let mut headers = client.request_headers(&body);
    headers.insert(
        "mcp-param-region",
        HeaderValue::from_bytes("é".as_bytes()).unwrap(),
    );
    let reply = client.post_with(headers, &body).await;
    assert_eq!(reply.status, StatusCode::BAD_REQUEST);
    assert_eq!(reply.error_code(), Some(-32020));

    let body = call_body(&mut client, both);
    let reply = client
        .post_with(
            with_params(&client, &body, &[("Region", "eu"), ("Priority", "7")]),
            &body,
        )
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{:?}", reply.messages);
}

#[tokio::test]
async fn other_tools_and_handshake_sessions_need_no_param_header() {
    let server = InProcessServer::start("param-headers").await;
    let mut stateless = HttpClient::new(&server.url, STATELESS_REVISION);
    let hello = stateless
        .request("tools/call", json!({ "name": "hello", "arguments": {} }))
        .await;
    assert_eq!(hello.response()["result"]["content"][0]["text"], "hello");

    // Only 2026-07-28 defines the headers; a 2025-11-25 session sends none.
    let mut session = HttpClient::new(&server.url, "2025-11-25");
    session.initialize(json!({})).await;
    let call = session
        .request(
            "tools/call",
            json!({ "name": "route", "arguments": { "region": "eu", "query": "q" } }),
        )
        .await;
    assert_eq!(
        call.response()["result"]["content"][0]["text"],
        "q in eu at None, dry run None"
    );
}

#[tokio::test]
async fn a_name_sent_in_base64_is_decoded_before_it_is_compared() {
    let server = InProcessServer::start("param-headers").await;
    let mut client = HttpClient::new(&server.url, STATELESS_REVISION);
    let body = client.request_body("tools/call", json!({ "name": "hello", "arguments": {} }));
    let mut headers = client.request_headers(&body);
    // "hello" in Base64.
    headers.insert("mcp-name", HeaderValue::from_static("=?base64?aGVsbG8=?="));
    let reply = client.post_with(headers.clone(), &body).await;
    assert_eq!(reply.status, StatusCode::OK, "{:?}", reply.messages);
    headers.insert("mcp-name", HeaderValue::from_static("=?base64?aGVsbG8?="));
    let reply = client.post_with(headers, &body).await;
    assert_eq!(reply.status, StatusCode::BAD_REQUEST);
    assert_eq!(reply.error_code(), Some(-32020));
}
