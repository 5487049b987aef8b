//! Scale-out for real: two server processes behind an nginx round-robin load balancer on
//! loopback, driven by a 2026-07-28 client. Stateless requests may land on any instance,
//! so every call succeeds whichever instance serves it. Needs `nginx` (the Debian package;
//! `.ci/run` installs it).

use std::process::{Command, Stdio};

use mcp_http_tests::HttpClient;
use mcp_http_tests::fleet::{Process, nginx_config, start_nginx, temp_dir, wait_until_listening};
use mcp_runtime::testing::free_loopback_port;
use reqwest::StatusCode;
use serde_json::json;

#[tokio::test]
async fn stateless_calls_through_nginx_land_on_every_instance() {
    let instance = env!("CARGO_BIN_EXE_instance");
    let mut instances = Vec::new();
    let mut ports = Vec::new();
    for name in ["alpha", "beta"] {
        let port = free_loopback_port();
        let mut process = Process(
            Command::new(instance)
                .args([name, &format!("127.0.0.1:{port}")])
                .stdin(Stdio::null())
                .spawn()
                .expect("the instance starts"),
        );
        wait_until_listening(port, &mut process);
        instances.push(process);
        ports.push(port);
    }

    let dir = temp_dir("scale-out");
    let port = free_loopback_port();
    let balancer = start_nginx(&dir, port, &nginx_config(&dir, port, &ports));

    let mut client = HttpClient::new(format!("http://127.0.0.1:{port}/mcp"), "2026-07-28");
    let discover = client.request("server/discover", json!({})).await;
    assert_eq!(discover.status, StatusCode::OK);
    let mut answered_by = Vec::new();
    for _ in 0..10 {
        let call = client
            .request("tools/call", json!({ "name": "whoami", "arguments": {} }))
            .await;
        assert_eq!(call.status, StatusCode::OK);
        assert!(call.event_stream, "the SSE stream passes through nginx");
        let result = &call.response()["result"];
        assert_eq!(result["isError"], serde_json::Value::Null, "{result}");
        let text = result["content"][0]["text"].as_str().expect("a text block");
        answered_by.push(text.split(' ').next().expect("a name").to_owned());
    }
    for name in ["alpha", "beta"] {
        assert!(
            answered_by.iter().any(|answered| answered == name),
            "no call landed on {name}: {answered_by:?}"
        );
    }
    drop(balancer);
    drop(instances);
    let _ = std::fs::remove_dir_all(&dir);
}
