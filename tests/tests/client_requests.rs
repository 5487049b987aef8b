//! Requests from tools to the client — elicitation, sampling, roots — in both eras: as
//! server-to-client JSON-RPC requests after a handshake, and as `input_required` round
//! trips under 2026-07-28. Every message is checked against the revision's schema.

use std::time::Duration;

use mcp_tests::{StdioClient, first_text, stateless_meta};
use serde_json::{Value, json};

fn fixture(args: &[&str]) -> StdioClient {
    StdioClient::spawn(env!("CARGO_BIN_EXE_fixture"), args)
}

/// Starts a `tools/call` without waiting for its response; returns its id.
fn start_call(client: &mut StdioClient, name: &str, arguments: Value) -> Value {
    let id = json!(client.next_id());
    client.send(&json!({
        "jsonrpc": "2.0", "id": id, "method": "tools/call",
        "params": { "name": name, "arguments": arguments },
    }));
    id
}

#[test]
fn elicitation_round_trip_after_a_handshake() {
    for revision in ["2025-06-18", "2025-11-25"] {
        let mut client = fixture(&[]);
        client.initialize_with(revision, json!({ "elicitation": {} }));
        let call = start_call(&mut client, "ask_contact", json!({}));
        let request = client.request_from_server();
        assert_eq!(request["method"], "elicitation/create", "{revision}");
        let params = &request["params"];
        assert_eq!(params["message"], "Who are you?");
        // `mode` exists from 2025-11-25 on.
        assert_eq!(params.get("mode").is_some(), revision == "2025-11-25");
        let schema = &params["requestedSchema"];
        assert_eq!(schema["type"], "object");
        assert_eq!(schema["required"], json!(["name", "colour"]));
        assert_eq!(schema["properties"]["name"]["description"], "Your name.");
        assert_eq!(schema["properties"]["age"]["type"], "integer");
        assert_eq!(schema["properties"]["age"]["maximum"], 255);
        assert_eq!(
            schema["properties"]["colour"]["enum"],
            json!(["red", "green", "blue"])
        );
        client.respond(
            &request,
            json!({ "action": "accept", "content": { "name": "Ada", "age": 36, "colour": "green" } }),
        );
        let response = client.response_to(&call);
        assert_eq!(
            first_text(&response["result"]),
            "hello Ada, 36 years, likes Green"
        );

        // Declining is an answer too.
        let call = start_call(&mut client, "ask_contact", json!({}));
        let request = client.request_from_server();
        client.respond(&request, json!({ "action": "decline" }));
        assert_eq!(first_text(&client.response_to(&call)["result"]), "declined");
    }
}

#[test]
fn a_client_without_the_capability_is_never_asked() {
    // Declared nothing; and 2025-03-26 has no elicitation at all, even if declared.
    for (revision, capabilities) in [
        ("2025-11-25", json!({})),
        ("2025-03-26", json!({ "elicitation": {} })),
        ("2025-11-25", json!({ "elicitation": { "url": {} } })),
    ] {
        let mut client = fixture(&[]);
        client.initialize_with(revision, capabilities.clone());
        let response = client.request("tools/call", json!({ "name": "ask_contact" }));
        let result = &response["result"];
        assert_eq!(result["isError"], true, "{revision} {capabilities}");
        assert!(
            first_text(result).contains("did not declare the `elicitation` capability"),
            "{result}"
        );
        assert!(
            client
                .transcript
                .iter()
                .all(|message| message.get("method").is_none()),
            "the server sent a request anyway"
        );
    }
    let mut client = fixture(&[]);
    client.initialize("2024-11-05");
    let result = client.request(
        "tools/call",
        json!({ "name": "haiku", "arguments": { "topic": "rust" } }),
    )["result"]
        .clone();
    assert!(first_text(&result).contains("`sampling`"), "{result}");
}

#[test]
fn sampling_and_roots_round_trips_in_the_oldest_revision() {
    let mut client = fixture(&[]);
    client.initialize_with("2024-11-05", json!({ "sampling": {}, "roots": {} }));
    let call = start_call(&mut client, "haiku", json!({ "topic": "ferris" }));
    let request = client.request_from_server();
    assert_eq!(request["method"], "sampling/createMessage");
    assert_eq!(request["params"]["maxTokens"], 60);
    assert_eq!(request["params"]["systemPrompt"], "You write haiku.");
    assert_eq!(
        request["params"]["messages"],
        json!([{ "role": "user", "content": { "type": "text", "text": "A haiku about ferris." } }])
    );
    client.respond(
        &request,
        json!({ "role": "assistant", "content": { "type": "text", "text": "Crab in the compiler" }, "model": "test-model", "stopReason": "endTurn" }),
    );
    assert_eq!(
        first_text(&client.response_to(&call)["result"]),
        "Crab in the compiler (by test-model)"
    );

    let call = start_call(&mut client, "client_roots", json!({}));
    let request = client.request_from_server();
    assert_eq!(request["method"], "roots/list");
    client.respond(
        &request,
        json!({ "roots": [ { "uri": "file:///src", "name": "sources" }, { "uri": "file:///doc" } ] }),
    );
    assert_eq!(
        first_text(&client.response_to(&call)["result"]),
        "sources, file:///doc"
    );
}

#[test]
fn a_client_error_or_a_malformed_answer_fails_the_request_not_the_server() {
    let mut client = fixture(&[]);
    client.initialize_with("2025-11-25", json!({ "elicitation": {}, "sampling": {} }));
    let call = start_call(&mut client, "ask_contact", json!({}));
    let request = client.request_from_server();
    client.send(&json!({
        "jsonrpc": "2.0", "id": request["id"],
        "error": { "code": -1, "message": "User rejected sampling request" },
    }));
    let result = client.response_to(&call)["result"].clone();
    assert_eq!(result["isError"], true);
    assert!(
        first_text(&result).contains("User rejected sampling request (code -1)"),
        "{result}"
    );

    let call = start_call(&mut client, "ask_contact", json!({}));
    let request = client.request_from_server();
    client.respond(
        &request,
        json!({ "action": "accept", "content": { "name": 5 } }),
    );
    let result = client.response_to(&call)["result"].clone();
    assert_eq!(result["isError"], true);
    assert!(
        first_text(&result).contains("not a valid ElicitResult"),
        "{result}"
    );

    // A response to nothing the server asked is ignored; the server still answers.
    client.send(&json!({ "jsonrpc": "2.0", "id": 4242, "result": {} }));
    assert_eq!(client.request("ping", json!({}))["result"], json!({}));
}

#[test]
fn a_cancelled_call_withdraws_its_question() {
    let mut client = fixture(&[]);
    client.initialize_with("2025-11-25", json!({ "elicitation": {} }));
    let call = start_call(&mut client, "ask_contact", json!({}));
    let request = client.request_from_server();
    client.send(&json!({
        "jsonrpc": "2.0", "method": "notifications/cancelled",
        "params": { "requestId": call, "reason": "user gave up" },
    }));
    let withdrawn = client.receive();
    assert_eq!(
        withdrawn["method"], "notifications/cancelled",
        "{withdrawn}"
    );
    assert_eq!(withdrawn["params"]["requestId"], request["id"]);
    // The cancelled call gets no response; a late answer to the question is ignored.
    client.respond(&request, json!({ "action": "decline" }));
    assert_eq!(client.request("ping", json!({}))["result"], json!({}));
    assert!(
        client
            .transcript
            .iter()
            .all(|message| message.get("id") != Some(&call)),
        "the cancelled call was answered"
    );
}

#[test]
fn an_unanswered_question_times_out_and_is_withdrawn() {
    let mut client = fixture(&["--client-request-timeout-ms", "300"]);
    client.initialize_with("2025-11-25", json!({ "elicitation": {} }));
    let call = start_call(&mut client, "ask_contact", json!({}));
    let request = client.request_from_server();
    let response = client.response_to(&call);
    assert!(
        first_text(&response["result"]).contains("did not answer within 300ms"),
        "{response}"
    );
    let withdrawn = client
        .transcript
        .iter()
        .find(|message| message["method"] == "notifications/cancelled")
        .expect("the question is withdrawn");
    assert_eq!(withdrawn["params"]["requestId"], request["id"]);
}

fn stateless_call(client: &mut StdioClient, name: &str, extra: Value) -> Value {
    let mut meta = stateless_meta();
    meta["io.modelcontextprotocol/clientCapabilities"] = json!({ "elicitation": {} });
    let mut params = json!({ "name": name, "_meta": meta });
    for (key, value) in extra.as_object().unwrap() {
        params[key] = value.clone();
    }
    client.request("tools/call", params)
}

#[test]
fn stateless_input_required_rounds_answer_each_question_in_turn() {
    let mut client = fixture(&[]);
    client.check_against("2026-07-28");
    let first = stateless_call(&mut client, "ask_twice", json!({}))["result"].clone();
    assert_eq!(first["resultType"], "input_required", "{first}");
    assert_eq!(
        first["inputRequests"]["name"]["method"],
        "elicitation/create"
    );
    assert_eq!(first["inputRequests"]["name"]["params"]["message"], "Name?");
    assert!(
        first["_meta"]["io.modelcontextprotocol/serverInfo"].is_object(),
        "{first}"
    );
    // The server sent no request of its own: 2026-07-28 servers never do.
    assert!(
        client
            .transcript
            .iter()
            .all(|message| message.get("method").is_none())
    );

    let second = stateless_call(
        &mut client,
        "ask_twice",
        json!({
            "inputResponses": { "name": { "action": "accept", "content": { "name": "Ada" } } },
            "requestState": first["requestState"],
        }),
    )["result"]
        .clone();
    assert_eq!(second["resultType"], "input_required", "{second}");
    assert_eq!(
        second["inputRequests"]["input-0"]["params"]["message"],
        "Go ahead with Ada?"
    );
    // The answered question, under the key the tool gave it, is not asked again.
    assert!(second["inputRequests"].get("name").is_none());

    let done = stateless_call(
        &mut client,
        "ask_twice",
        json!({
            "inputResponses": { "input-0": { "action": "accept", "content": { "confirm": true } } },
            "requestState": second["requestState"],
        }),
    )["result"]
        .clone();
    assert_eq!(done["resultType"], "complete", "{done}");
    assert_eq!(first_text(&done), "going ahead with Ada");
}

#[test]
fn stateless_request_state_is_checked() {
    let mut client = fixture(&[]);
    client.check_against("2026-07-28");
    let first = stateless_call(&mut client, "ask_twice", json!({}))["result"].clone();
    // State issued for another tool, garbage, or answers that are not objects: -32602.
    for extra in [
        json!({ "requestState": first["requestState"], "inputResponses": {} }),
        json!({ "requestState": "bm90IG91cnM" }),
        json!({ "inputResponses": { "input-0": "yes" } }),
    ] {
        let name = if extra["inputResponses"] == json!({}) {
            "ask_contact"
        } else {
            "ask_twice"
        };
        let response = stateless_call(&mut client, name, extra.clone());
        assert_eq!(response["error"]["code"], -32602, "{extra}: {response}");
    }
    // Without the capability, the tool is told the client cannot answer.
    let response = client.stateless_request("tools/call", json!({ "name": "ask_twice" }));
    assert_eq!(response["result"]["isError"], true, "{response}");
    assert_eq!(response["result"]["resultType"], "complete");
}

#[test]
fn eof_while_a_question_is_open_still_answers_the_call() {
    let mut client = fixture(&[]);
    client.initialize_with("2025-11-25", json!({ "elicitation": {} }));
    let call = start_call(&mut client, "ask_contact", json!({}));
    client.request_from_server();
    client.close_stdin();
    let response = client.response_to(&call);
    assert!(
        first_text(&response["result"]).contains("disconnected"),
        "{response}"
    );
    assert!(client.wait_for_exit(Duration::from_secs(5)).is_some());
}
