//! Tools that change while the server runs: disabled, enabled, added and removed through a
//! `ToolSet`, and the change notifications of each era — `notifications/tools/list_changed`
//! after a handshake, and on `subscriptions/listen` streams under 2026-07-28.

use std::time::Duration;

use mcp_tests::{StdioClient, first_text, stateless_meta};
use serde_json::{Value, json};

fn server() -> StdioClient {
    StdioClient::spawn(env!("CARGO_BIN_EXE_dynamic_tools"), &[])
}

fn tool_names(client: &mut StdioClient, stateless: bool) -> Vec<String> {
    let response = if stateless {
        client.stateless_request("tools/list", json!({}))
    } else {
        client.request("tools/list", json!({}))
    };
    response["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|tool| tool["name"].as_str().unwrap().to_owned())
        .collect()
}

fn call(client: &mut StdioClient, name: &str, arguments: Value) -> Value {
    client.request(
        "tools/call",
        json!({ "name": name, "arguments": arguments }),
    )
}

fn count(client: &StdioClient, method: &str) -> usize {
    client
        .transcript
        .iter()
        .filter(|message| message["method"] == method)
        .count()
}

/// Waits until `n` notifications of `method` have arrived.
fn await_notifications(client: &mut StdioClient, method: &str, n: usize) {
    while count(client, method) < n {
        client
            .try_receive(Duration::from_secs(5))
            .unwrap_or_else(|| panic!("no {method} notification"));
    }
}

#[test]
fn disabling_and_enabling_notifies_handshake_clients_and_changes_the_list() {
    for revision in ["2024-11-05", "2025-03-26", "2025-11-25"] {
        let mut client = server();
        let init = client.initialize(revision);
        assert_eq!(init["capabilities"]["tools"]["listChanged"], true);
        assert!(tool_names(&mut client, false).contains(&"secret".to_owned()));

        let response = call(
            &mut client,
            "set_enabled",
            json!({ "name": "secret", "enabled": false }),
        );
        assert_eq!(first_text(&response["result"]), "secret enabled: false");
        await_notifications(&mut client, "notifications/tools/list_changed", 1);
        assert!(!tool_names(&mut client, false).contains(&"secret".to_owned()));
        let response = call(&mut client, "secret", json!({}));
        assert_eq!(response["error"]["code"], -32602, "{response}");

        // Disabling it again changes nothing, so nothing is announced.
        call(
            &mut client,
            "set_enabled",
            json!({ "name": "secret", "enabled": false }),
        );
        call(
            &mut client,
            "set_enabled",
            json!({ "name": "secret", "enabled": true }),
        );
        await_notifications(&mut client, "notifications/tools/list_changed", 2);
        assert_eq!(
            first_text(&call(&mut client, "secret", json!({}))["result"]),
            "the secret"
        );
        assert_eq!(client.request("ping", json!({}))["result"], json!({}));
        assert_eq!(
            count(&client, "notifications/tools/list_changed"),
            2,
            "{revision}"
        );

        let unknown = call(
            &mut client,
            "set_enabled",
            json!({ "name": "nope", "enabled": false }),
        );
        assert_eq!(unknown["result"]["isError"], true);
    }
}

#[test]
fn tools_added_at_run_time_are_listed_validated_and_callable() {
    let mut client = server();
    client.initialize("2025-11-25");
    let added = call(&mut client, "add_point_tool", json!({ "name": "point" }));
    assert_eq!(first_text(&added["result"]), "added point");
    await_notifications(&mut client, "notifications/tools/list_changed", 1);
    let listed = client.request("tools/list", json!({}))["result"]["tools"].clone();
    let point = listed
        .as_array()
        .unwrap()
        .iter()
        .find(|tool| tool["name"] == "point")
        .expect("the new tool is listed");
    // The hand-written schema goes out unchanged, `$defs` and `$ref` included.
    assert_eq!(point["inputSchema"]["$defs"]["coordinate"]["maximum"], 1000);
    assert_eq!(
        point["inputSchema"]["properties"]["x"]["$ref"],
        "#/$defs/coordinate"
    );
    assert_eq!(point["annotations"]["readOnlyHint"], true);

    let result = call(&mut client, "point", json!({ "x": 1.5, "y": -2 }))["result"].clone();
    assert_eq!(result["structuredContent"], json!({ "x": 1.5, "y": -2 }));
    let result = call(&mut client, "point", json!({ "x": 5000, "y": 0 }))["result"].clone();
    assert_eq!(result["isError"], true);
    assert!(first_text(&result).contains("`x`"), "{result}");

    // A taken name and a malformed tool are refused.
    let again = call(&mut client, "add_point_tool", json!({ "name": "point" }));
    assert!(
        first_text(&again["result"]).contains("already exists"),
        "{again}"
    );
    let bad = call(
        &mut client,
        "add_point_tool",
        json!({ "name": "no spaces" }),
    );
    assert!(
        first_text(&bad["result"]).contains("1 to 64 characters"),
        "{bad}"
    );
    let clash = call(&mut client, "add_point_tool", json!({ "name": "secret" }));
    assert!(
        first_text(&clash["result"]).contains("already exists"),
        "{clash}"
    );

    let removed = call(&mut client, "remove_tool", json!({ "name": "point" }));
    assert_eq!(first_text(&removed["result"]), "removed: true");
    await_notifications(&mut client, "notifications/tools/list_changed", 2);
    assert!(!tool_names(&mut client, false).contains(&"point".to_owned()));
    let static_tool = call(&mut client, "remove_tool", json!({ "name": "secret" }));
    assert_eq!(first_text(&static_tool["result"]), "removed: false");
}

fn listen(client: &mut StdioClient, filter: Value) -> Value {
    let id = json!(client.next_id());
    client.send(&json!({
        "jsonrpc": "2.0", "id": id, "method": "subscriptions/listen",
        "params": { "notifications": filter, "_meta": stateless_meta() },
    }));
    id
}

#[test]
fn stateless_listen_streams_carry_changes_and_end_with_a_result() {
    let mut client = server();
    client.check_against("2026-07-28");
    let discover = client.stateless_request("server/discover", json!({}));
    assert_eq!(
        discover["result"]["capabilities"]["tools"]["listChanged"],
        true
    );
    let subscription = listen(
        &mut client,
        json!({ "toolsListChanged": true, "promptsListChanged": true }),
    );
    let ack = client.receive();
    assert_eq!(ack["method"], "notifications/subscriptions/acknowledged");
    // Only what the server offers is honoured.
    assert_eq!(
        ack["params"]["notifications"],
        json!({ "toolsListChanged": true })
    );
    assert_eq!(
        ack["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"],
        subscription
    );

    // A listen stream that did not ask for tool changes gets none.
    let quiet = listen(&mut client, json!({}));
    let quiet_ack = client.receive();
    assert_eq!(quiet_ack["params"]["notifications"], json!({}));

    let response = client.stateless_request(
        "tools/call",
        json!({ "name": "set_enabled", "arguments": { "name": "secret", "enabled": false } }),
    );
    assert_eq!(response["result"]["resultType"], "complete");
    await_notifications(&mut client, "notifications/tools/list_changed", 1);
    let change = client
        .transcript
        .iter()
        .find(|message| message["method"] == "notifications/tools/list_changed")
        .unwrap()
        .clone();
    assert_eq!(
        change["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"],
        subscription
    );
    assert!(!tool_names(&mut client, true).contains(&"secret".to_owned()));

    // End of input ends both streams with a result naming the subscription.
    client.close_stdin();
    assert!(client.wait_for_exit(Duration::from_secs(5)).is_some());
    while client.try_receive(Duration::from_millis(200)).is_some() {}
    for id in [&subscription, &quiet] {
        let end = client
            .transcript
            .iter()
            .find(|message| message.get("id") == Some(id) && message.get("method").is_none())
            .unwrap_or_else(|| panic!("listen request {id} was not answered"));
        assert_eq!(end["result"]["resultType"], "complete", "{end}");
        assert_eq!(
            end["result"]["_meta"]["io.modelcontextprotocol/subscriptionId"],
            *id
        );
    }
    assert_eq!(count(&client, "notifications/tools/list_changed"), 1);
}

#[test]
fn a_cancelled_listen_stream_gets_nothing_more() {
    let mut client = server();
    client.check_against("2026-07-28");
    let subscription = listen(&mut client, json!({ "toolsListChanged": true }));
    client.receive();
    client.send(&json!({
        "jsonrpc": "2.0", "method": "notifications/cancelled",
        "params": { "requestId": subscription },
    }));
    client.stateless_request(
        "tools/call",
        json!({ "name": "set_enabled", "arguments": { "name": "secret", "enabled": false } }),
    );
    client.stateless_request("tools/list", json!({}));
    client.close_stdin();
    assert!(client.wait_for_exit(Duration::from_secs(5)).is_some());
    while client.try_receive(Duration::from_millis(200)).is_some() {}
    assert_eq!(count(&client, "notifications/tools/list_changed"), 0);
    assert!(
        client
            .transcript
            .iter()
            .all(|message| message.get("id") != Some(&subscription)),
        "the cancelled listen request was answered"
    );
}

#[test]
fn listen_is_not_part_of_handshake_revisions_and_needs_a_filter() {
    let mut client = server();
    client.initialize("2025-11-25");
    let response = client.request("subscriptions/listen", json!({ "notifications": {} }));
    assert_eq!(response["error"]["code"], -32601, "{response}");
    client.check_against("2026-07-28");
    let response = client.stateless_request("subscriptions/listen", json!({}));
    assert_eq!(response["error"]["code"], -32602, "{response}");
}

#[test]
fn tools_are_disabled_and_enabled_by_tag() {
    let mut client = server();
    client.initialize("2025-11-25");
    let disabled = call(
        &mut client,
        "set_tag_enabled",
        json!({ "tag": "admin", "enabled": false }),
    );
    assert_eq!(first_text(&disabled["result"]), "2 tools tagged admin");
    await_notifications(&mut client, "notifications/tools/list_changed", 1);
    let names = tool_names(&mut client, false);
    assert!(!names.contains(&"secret".to_owned()) && !names.contains(&"reset".to_owned()));

    // A tool stays hidden while any of its tags is disabled, or its name is.
    call(
        &mut client,
        "set_tag_enabled",
        json!({ "tag": "hidden", "enabled": false }),
    );
    call(
        &mut client,
        "set_tag_enabled",
        json!({ "tag": "admin", "enabled": true }),
    );
    let names = tool_names(&mut client, false);
    assert!(names.contains(&"reset".to_owned()));
    assert!(!names.contains(&"secret".to_owned()));
    call(
        &mut client,
        "set_tag_enabled",
        json!({ "tag": "hidden", "enabled": true }),
    );
    assert!(tool_names(&mut client, false).contains(&"secret".to_owned()));

    let unknown = call(
        &mut client,
        "set_tag_enabled",
        json!({ "tag": "nothing", "enabled": false }),
    );
    assert_eq!(first_text(&unknown["result"]), "0 tools tagged nothing");
}
