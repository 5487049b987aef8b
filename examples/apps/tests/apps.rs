//! The example end to end over stdio, as a host drives it: call `forecast`, read the view
//! its `_meta.ui.resourceUri` names, then call `refresh_forecast` as the view's button does.

use mcp_tests::{StdioClient, check_result};
use serde_json::json;

#[test]
fn a_host_renders_the_forecast_and_the_view_refreshes_it() {
    let mut client = StdioClient::spawn(env!("CARGO_BIN_EXE_apps"), &[]);
    let init = client.initialize("2025-11-25");
    assert_eq!(
        init["capabilities"]["extensions"]["io.modelcontextprotocol/ui"],
        json!({ "mimeTypes": ["text/html;profile=mcp-app"] })
    );

    let tools = client.request("tools/list", json!({}))["result"].clone();
    check_result("2025-11-25", "tools/list", &tools);
    let forecast = &tools["tools"][0];
    assert_eq!(forecast["name"], "forecast");
    let view_uri = forecast["_meta"]["ui"]["resourceUri"].clone();
    assert_eq!(view_uri, "ui://forecast/view");

    let called = client.request(
        "tools/call",
        json!({ "name": "forecast", "arguments": { "city": "Oslo" } }),
    )["result"]
        .clone();
    let shown = called["structuredContent"].clone();
    assert_eq!(shown["city"], "Oslo");
    assert_eq!(shown["revision"], 0);
    assert_eq!(shown["days"].as_array().map(Vec::len), Some(3));

    let read = client.request("resources/read", json!({ "uri": view_uri }))["result"].clone();
    check_result("2025-11-25", "resources/read", &read);
    let view = &read["contents"][0];
    assert_eq!(view["mimeType"], "text/html;profile=mcp-app");
    assert_eq!(view["_meta"], json!({ "ui": { "prefersBorder": true } }));
    let html = view["text"].as_str().expect("the view's HTML");
    assert!(html.contains("refresh_forecast"), "the button's tool");
    assert!(html.contains("ui/initialize"), "the view's handshake");

    let refreshed = client.request(
        "tools/call",
        json!({
            "name": "refresh_forecast",
            "arguments": { "city": "Oslo", "revision": shown["revision"] },
        }),
    )["result"]
        .clone();
    assert_eq!(refreshed["structuredContent"]["revision"], 1);
    assert_eq!(
        refreshed["structuredContent"]["days"][0]["low"],
        shown["days"][0]["low"].as_i64().expect("a number") + 1
    );
}

#[test]
fn the_command_line_shows_each_tools_view() {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_apps"))
        .env("MCP_CLI", "tools")
        .output()
        .expect("runs");
    assert!(output.status.success());
    let table = String::from_utf8(output.stdout).expect("UTF-8");
    let row = |name: &str| {
        table
            .lines()
            .find(|line| line.starts_with(&format!("{name} ")))
            .unwrap_or_else(|| panic!("no row for {name} in\n{table}"))
            .to_owned()
    };
    assert!(table.starts_with("NAME"), "{table}");
    assert!(
        table
            .lines()
            .next()
            .is_some_and(|header| header.contains("VIEW"))
    );
    assert!(row("forecast").contains("ui://forecast/view"), "{table}");
    assert!(!row("forecast").contains("app only"), "{table}");
    assert!(
        row("refresh_forecast").contains("ui://forecast/view (app only)"),
        "{table}"
    );
}
