//! An HTTP server prints where it listens: `MCP server listening on http://ADDRESS/mcp` on
//! stderr, with the port it was given when it asked for port 0 — and a client that takes
//! the URL from that line is served.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

use mcp_http_tests::HttpClient;
use serde_json::json;

/// Kills its process when dropped, so a failing test leaves nothing running.
struct Process(Child);

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[tokio::test]
async fn the_printed_url_is_the_one_that_serves() {
    let mut server = Process(
        Command::new(env!("CARGO_BIN_EXE_instance"))
            .args(["one", "127.0.0.1:0"])
            .env_remove("RUST_LOG")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the instance starts"),
    );
    let stderr = server.0.stderr.take().expect("piped stderr");
    let first = tokio::task::spawn_blocking(move || {
        let mut line = String::new();
        BufReader::new(stderr).read_line(&mut line).map(|_| line)
    })
    .await
    .unwrap()
    .expect("a line on stderr");

    // The first line, since the instance has its tool: nothing to warn about.
    let url = first
        .strip_prefix("MCP server listening on ")
        .and_then(|rest| rest.strip_suffix('\n'))
        .unwrap_or_else(|| panic!("{first:?}"));
    assert!(
        url.starts_with("http://127.0.0.1:") && url.ends_with("/mcp"),
        "{url}"
    );
    assert!(
        !url.contains(":0/"),
        "the port it got, not the one it asked for: {url}"
    );

    let mut client = HttpClient::new(url, "2025-11-25");
    let initialized = client.initialize(json!({})).await;
    assert!(initialized.status.is_success(), "{}", initialized.status);
    let called = client
        .request("tools/call", json!({"name": "whoami", "arguments": {}}))
        .await;
    let text = called.response()["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    assert!(text.starts_with("one (pid "), "{text}");
}
