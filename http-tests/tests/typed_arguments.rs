//! Over HTTP, as over stdio (`tests/tests/typed_arguments.rs`): a call whose arguments are
//! decoded straight into its tool's parameters gets exactly the answer the general path
//! gives (a map checked by the input schema, then extracted). The same bodies go to two
//! servers in this process, one of them behind a layer that passes every call on (so every
//! call takes the general path), and their
//! answers must be equal, byte for byte once parsed. The bodies are written by hand: what
//! the stdio test generates by the thousand is decoded by the same code, so this covers what
//! HTTP adds — the body read as bytes, not a line of text — and the refusals that send a
//! body back to the general decoding.

use mcp_http_tests::{EventStream, HttpClient};
use mcp_runtime::{Server, mcp_tool};
use mcp_tests::general_path::general_path;
use mcp_tests::{STATELESS_REVISION, stateless_meta};
use reqwest::header::{HeaderName, HeaderValue};
use serde_json::Value;

/// Every kind of parameter the typed path takes: the scalar types, a list, options.
#[mcp_tool]
async fn typed_mix(
    a: i8,
    b: u32,
    s: String,
    on: bool,
    xs: Vec<f64>,
    tags: Option<Vec<String>>,
    n: Option<i64>,
) -> String {
    format!("{:?}", (a, b, s, on, xs, tags, n))
}

/// Parameters with defaults: `null` and absence both mean the default.
#[mcp_tool]
async fn typed_defaults(
    #[mcp(default = 5)] count: u16,
    #[mcp(default = "x".to_owned())] label: String,
    ratio: f32,
) -> String {
    format!("{:?}", (count, label, ratio))
}

/// Arguments for `typed_mix`: accepted, and refused in each way the typed path refuses.
const MIX_ARGUMENTS: &[&str] = &[
    r#"{"a":-3,"b":7,"s":"hi","on":true,"xs":[1.5,2,3e0]}"#,
    r#"{"a":127,"b":4294967295,"s":"","on":false,"xs":[],"tags":["x","y"],"n":-9007199254740993}"#,
    r#"{ "a" : -128 , "b" : 0 , "s" : "caf\u00e9 \"quoted\"" , "on" : true , "xs" : [ 0.1 ] }"#,
    r#"{"\u0061":1,"b":2,"s":"escaped key","on":true,"xs":[]}"#,
    r#"{"a":1,"b":2,"s":"nulls","on":true,"xs":[],"tags":null,"n":null}"#,
    // Refused by the types: each goes back to the general path, which answers it.
    r#"{"a":128,"b":2,"s":"too wide","on":true,"xs":[]}"#,
    r#"{"a":1,"b":-2,"s":"negative","on":true,"xs":[]}"#,
    r#"{"a":1.0,"b":2,"s":"integer spelt as a float","on":true,"xs":[]}"#,
    r#"{"a":1,"b":2,"s":5,"on":true,"xs":[]}"#,
    r#"{"a":1,"b":2,"s":"x","on":"true","xs":[]}"#,
    r#"{"a":1,"b":2,"s":"x","on":true,"xs":[null]}"#,
    r#"{"a":1,"b":2,"s":"x","on":true,"xs":[],"tags":[1]}"#,
    r#"{"a":null,"b":2,"s":"required null","on":true,"xs":[]}"#,
    r#"{"b":2,"s":"missing a","on":true,"xs":[]}"#,
    r#"{"a":1,"a":2,"b":2,"s":"repeated","on":true,"xs":[]}"#,
    r#"{"a":1,"b":2,"s":"extra","on":true,"xs":[],"other":1}"#,
    r#"{"a":1,"b":2,"s":"big","on":true,"xs":[],"n":18446744073709551616}"#,
    r#"[1,2]"#,
    r#""not an object""#,
    r#"null"#,
    r#"{}"#,
];

/// Arguments for `typed_defaults`.
const DEFAULTS_ARGUMENTS: &[&str] = &[
    r#"{"ratio":0.5}"#,
    r#"{"ratio":1e39}"#,
    r#"{"count":null,"label":null,"ratio":-0.0}"#,
    r#"{"count":65535,"label":"l","ratio":3}"#,
    r#"{"count":65536,"ratio":1}"#,
    r#"{"label":"no ratio"}"#,
];

/// The ways a call's `params` and envelope are written: as the SDK clients write them, and
/// orders the typed path declines (`arguments` before `name`, `params` before `method`, a
/// `name` or `method` repeated after the arguments).
fn bodies(id: u64, tool: &str, arguments: &str) -> Vec<String> {
    let meta = stateless_meta();
    let params = [
        format!(r#"{{"name":"{tool}","arguments":{arguments},"_meta":{meta}}}"#),
        format!(r#"{{"_meta":{meta},"arguments":{arguments},"name":"{tool}"}}"#),
        format!(r#"{{"name":"{tool}","arguments":{arguments},"name":"{tool}","_meta":{meta}}}"#),
    ];
    params
        .iter()
        .enumerate()
        .flat_map(|(style, params)| {
            let id = id * 10 + style as u64 * 2;
            [
                format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{params}}}"#),
                format!(
                    r#"{{"params":{params},"jsonrpc":"2.0","method":"tools/call","id":{}}}"#,
                    id + 1
                ),
            ]
        })
        .collect()
}

/// POSTs `body` as a 2026-07-28 `tools/call` of `tool` and reads every message back.
async fn post(client: &HttpClient, tool: &str, body: &str) -> (u16, Vec<Value>) {
    let mut headers = client.base_headers();
    headers.insert("mcp-method", HeaderValue::from_static("tools/call"));
    headers.insert(
        HeaderName::from_static("mcp-name"),
        HeaderValue::from_str(tool).expect("ASCII"),
    );
    let response = reqwest::Client::new()
        .post(&client.url)
        .headers(headers)
        .body(body.to_owned())
        .send()
        .await
        .expect("the POST reaches the server");
    let status = response.status().as_u16();
    let mut stream = EventStream::new(response, STATELESS_REVISION);
    let mut messages = Vec::new();
    while let Some(message) = stream.next().await {
        messages.push(message);
    }
    (status, messages)
}

#[tokio::test]
async fn typed_arguments_over_http_are_answered_as_the_general_path_answers() {
    let typed = start(Server::new("shapes", "1.0.0")).await;
    let general = start(general_path(Server::new("shapes", "1.0.0"))).await;
    let (typed, general) = (
        HttpClient::new(typed, STATELESS_REVISION),
        HttpClient::new(general, STATELESS_REVISION),
    );
    let cases = MIX_ARGUMENTS
        .iter()
        .map(|arguments| ("typed_mix", *arguments))
        .chain(
            DEFAULTS_ARGUMENTS
                .iter()
                .map(|arguments| ("typed_defaults", *arguments)),
        );
    let (mut accepted, mut refused) = (0, 0);
    for (case, (tool, arguments)) in cases.enumerate() {
        for body in bodies(case as u64, tool, arguments) {
            let typed_answer = post(&typed, tool, &body).await;
            let general_answer = post(&general, tool, &body).await;
            assert_eq!(
                typed_answer, general_answer,
                "{body}\ntyped: {typed_answer:?}\ngeneral: {general_answer:?}"
            );
            let (_, messages) = typed_answer;
            let answer = messages.last().expect("an answer");
            if answer["result"]["isError"] == true || answer.get("error").is_some() {
                refused += 1;
            } else {
                accepted += 1;
            }
        }
    }
    // Not vacuous: both kinds of answer were compared (that the first server decodes
    // these tools' arguments straight into their parameters is `tool::arguments`' own
    // unit tests' to show).
    assert!(
        accepted >= 20 && refused >= 20,
        "{accepted} accepted, {refused} refused"
    );
}

/// Serves `server` over HTTP on a free loopback port in this process; its endpoint's URL.
async fn start(server: Server) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("a loopback port");
    let url = format!("http://{}/mcp", listener.local_addr().expect("an address"));
    tokio::spawn(server.http().serve_on(listener));
    url
}
