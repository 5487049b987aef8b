//! A tool that mirrors into a header an argument whose schema is not a string, an integer
//! or a boolean (here a struct, which the macro cannot see through) is refused at start,
//! naming the tool, where it is and what to change: clients would drop it from the list.
//! A binary of its own, since the tool makes every server in it fail to start.

use mcp_runtime::{Error, Server, mcp_tool};
use schemars::JsonSchema;
use serde::Deserialize;

/// Where to run.
#[derive(Deserialize, JsonSchema)]
struct Place {
    region: String,
}

/// Runs somewhere.
#[mcp_tool]
async fn run_at(#[mcp(header = "Place")] place: Place) -> String {
    place.region
}

#[tokio::test]
async fn a_header_on_an_object_argument_is_a_start_up_error() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let served = Server::new("bad-header", "1.0.0")
        .http()
        .serve_on(listener)
        .await;
    let error = served.expect_err("the server must not start");
    assert!(matches!(error, Error::InvalidHeader { .. }), "{error:?}");
    let message = error.to_string();
    for wanted in [
        "tool `run_at`",
        "param_header_start.rs",
        "`x-mcp-header` on `place` needs a string, integer or boolean property",
    ] {
        assert!(message.contains(wanted), "{wanted}: {message}");
    }
}
