//! The conformance fixture tools over stdio, as the official suite's scenarios check them
//! (see interop/CONFORMANCE_FIXTURES.md), under 2025-06-18 and 2025-11-25; the sampling and
//! elicitation fixtures also as `input_required` rounds under 2026-07-28.

use std::time::Duration;

use mcp_tests::{StdioClient, first_text, stateless_meta};
use serde_json::{Value, json};

const PNG_1X1_RED: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";

fn server(revision: &str) -> StdioClient {
    let mut client = StdioClient::spawn(env!("CARGO_BIN_EXE_conformance"), &[]);
    client.initialize(revision);
    client
}

fn call(client: &mut StdioClient, tool: &str) -> Value {
    client.request("tools/call", json!({"name": tool, "arguments": {}}))["result"].clone()
}

#[test]
fn content_fixtures() {
    for revision in ["2025-06-18", "2025-11-25"] {
        let mut client = server(revision);
        let tools = client.request("tools/list", json!({}))["result"]["tools"].clone();
        for tool in tools.as_array().unwrap() {
            assert!(
                !tool["description"].as_str().unwrap_or("").is_empty(),
                "{tool}"
            );
        }
        let simple =
            client.request("tools/call", json!({"name": "test_simple_text"}))["result"].clone();
        assert_eq!(
            first_text(&simple),
            "This is a simple text response for testing."
        );
        assert_eq!(
            call(&mut client, "test_image_content")["content"],
            json!([{"type": "image", "data": PNG_1X1_RED, "mimeType": "image/png"}])
        );
        assert_eq!(
            call(&mut client, "test_audio_content")["content"][0]["mimeType"],
            "audio/wav"
        );
        assert_eq!(
            call(&mut client, "test_embedded_resource")["content"][0]["resource"],
            json!({"uri": "test://embedded-resource", "mimeType": "text/plain", "text": "This is an embedded resource content."})
        );
        let mixed = call(&mut client, "test_multiple_content_types");
        let types: Vec<&str> = mixed["content"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| b["type"].as_str().unwrap())
            .collect();
        assert_eq!(types, ["text", "image", "resource"]);
        let error = call(&mut client, "test_error_handling");
        assert_eq!(error["isError"], true);
        assert_eq!(
            first_text(&error),
            "This tool intentionally returns an error for testing"
        );
    }
}

#[test]
fn logging_fixture_sends_three_messages_during_the_call() {
    let mut client = server("2025-11-25");
    assert_eq!(
        client.request("logging/setLevel", json!({"level": "debug"}))["result"],
        json!({})
    );
    let result = call(&mut client, "test_tool_with_logging");
    assert_eq!(
        first_text(&result),
        "Tool with logging executed successfully"
    );
    let messages: Vec<&Value> = client
        .transcript
        .iter()
        .filter(|m| m["method"] == "notifications/message")
        .collect();
    let data: Vec<&str> = messages
        .iter()
        .map(|m| m["params"]["data"].as_str().unwrap())
        .collect();
    assert_eq!(
        data,
        [
            "Tool execution started",
            "Tool processing data",
            "Tool execution completed"
        ]
    );
    assert!(messages.iter().all(|m| m["params"]["level"] == "info"));
}

#[test]
fn progress_fixture_echoes_an_integer_token() {
    let mut client = server("2025-11-25");
    let response = client.request(
        "tools/call",
        json!({"name": "test_tool_with_progress", "arguments": {}, "_meta": {"progressToken": 1}}),
    );
    assert!(response.get("result").is_some());
    let progress: Vec<(Value, f64)> = client
        .transcript
        .iter()
        .filter(|m| m["method"] == "notifications/progress")
        .map(|m| {
            (
                m["params"]["progressToken"].clone(),
                m["params"]["progress"].as_f64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        progress,
        [(json!(1), 0.0), (json!(1), 50.0), (json!(1), 100.0)]
    );
    // Without a token the tool runs the same, and nothing is sent.
    let before = client.transcript.len();
    call(&mut client, "test_tool_with_progress");
    assert!(client.try_receive(Duration::from_millis(100)).is_none());
    assert_eq!(client.transcript.len(), before + 1);
}

/// Starts a `tools/call` without waiting for its response; returns its id.
fn start_call(client: &mut StdioClient, tool: &str, arguments: Value) -> Value {
    let id = json!(client.next_id());
    client.send(&json!({
        "jsonrpc": "2.0", "id": id, "method": "tools/call",
        "params": { "name": tool, "arguments": arguments },
    }));
    id
}

/// Calls `tool`, answers the one request it sends to the client with `answer`, and returns
/// (that request's params, the call's result).
fn ask_and_answer(
    client: &mut StdioClient,
    tool: &str,
    arguments: Value,
    method: &str,
    answer: Value,
) -> (Value, Value) {
    let call = start_call(client, tool, arguments);
    let request = client.request_from_server();
    assert_eq!(request["method"], method, "{request}");
    client.respond(&request, answer);
    let result = client.response_to(&call)["result"].clone();
    (request["params"].clone(), result)
}

#[test]
fn sampling_fixture_asks_for_the_prompt() {
    for revision in ["2025-06-18", "2025-11-25"] {
        let mut client = StdioClient::spawn(env!("CARGO_BIN_EXE_conformance"), &[]);
        client.initialize_with(revision, json!({"sampling": {}, "elicitation": {}}));
        let (asked, result) = ask_and_answer(
            &mut client,
            "test_sampling",
            json!({"prompt": "Test prompt for sampling"}),
            "sampling/createMessage",
            json!({"role": "assistant", "content": {"type": "text", "text": "This is a test response from the client"},
                   "model": "test-model", "stopReason": "endTurn"}),
        );
        assert_eq!(
            asked,
            json!({"messages": [{"role": "user", "content": {"type": "text", "text": "Test prompt for sampling"}}], "maxTokens": 100})
        );
        assert_eq!(
            first_text(&result),
            "LLM response: This is a test response from the client"
        );
    }
    // A client without `sampling` is never asked: the call is a tool error.
    let mut client = server("2025-11-25");
    let result = client.request(
        "tools/call",
        json!({"name": "test_sampling", "arguments": {"prompt": "x"}}),
    )["result"]
        .clone();
    assert_eq!(result["isError"], true, "{result}");
    assert!(first_text(&result).contains("sampling"), "{result}");
}

#[test]
fn elicitation_fixtures_send_the_suites_schemas() {
    for revision in ["2025-06-18", "2025-11-25"] {
        let mut client = StdioClient::spawn(env!("CARGO_BIN_EXE_conformance"), &[]);
        client.initialize_with(revision, json!({"sampling": {}, "elicitation": {}}));
        let (asked, result) = ask_and_answer(
            &mut client,
            "test_elicitation",
            json!({"message": "Please provide your information"}),
            "elicitation/create",
            json!({"action": "accept", "content": {"username": "testuser", "email": "test@example.com"}}),
        );
        assert_eq!(asked["message"], "Please provide your information");
        assert_eq!(asked.get("mode").is_some(), revision == "2025-11-25");
        assert_eq!(
            asked["requestedSchema"],
            json!({"type": "object", "properties": {
                "username": {"type": "string", "description": "User's response"},
                "email": {"type": "string", "description": "User's email address"}},
                "required": ["username", "email"]})
        );
        assert_eq!(
            first_text(&result),
            r#"User response: action=accept, content={"username":"testuser","email":"test@example.com"}"#
        );
        let (_, declined) = ask_and_answer(
            &mut client,
            "test_elicitation",
            json!({"message": "again"}),
            "elicitation/create",
            json!({"action": "decline"}),
        );
        assert_eq!(
            first_text(&declined),
            "User response: action=decline, content={}"
        );
    }

    let mut client = StdioClient::spawn(env!("CARGO_BIN_EXE_conformance"), &[]);
    client.initialize_with("2025-11-25", json!({"elicitation": {}}));
    let (asked, result) = ask_and_answer(
        &mut client,
        "test_elicitation_sep1034_defaults",
        json!({}),
        "elicitation/create",
        json!({"action": "accept", "content": {"name": "Jane Smith", "age": 25, "score": 88, "status": "inactive", "verified": false}}),
    );
    assert_eq!(asked["mode"], "form");
    assert_eq!(
        asked["message"],
        "Please review and update the form fields with defaults"
    );
    let properties = &asked["requestedSchema"]["properties"];
    assert_eq!(properties["name"]["default"], "John Doe");
    assert_eq!(properties["age"]["type"], "integer");
    assert_eq!(properties["age"]["default"], 30);
    assert_eq!(properties["score"]["default"], 95.5);
    assert_eq!(properties["status"]["default"], "active");
    assert_eq!(
        properties["status"]["enum"],
        json!(["active", "inactive", "pending"])
    );
    assert_eq!(properties["verified"]["default"], true);
    assert_eq!(asked["requestedSchema"]["required"], json!([]));
    assert_eq!(
        first_text(&result),
        r#"Elicitation completed: action=accept, content={"name":"Jane Smith","age":25,"score":88,"status":"inactive","verified":false}"#
    );

    let (asked, result) = ask_and_answer(
        &mut client,
        "test_elicitation_sep1330_enums",
        json!({}),
        "elicitation/create",
        json!({"action": "accept", "content": {"untitledSingle": "option1", "titledSingle": "value1", "legacyEnum": "opt1",
               "untitledMulti": ["option1", "option2"], "titledMulti": ["value1", "value2"]}}),
    );
    assert_eq!(
        asked["message"],
        "Please select options from the enum fields"
    );
    let properties = &asked["requestedSchema"]["properties"];
    assert!(properties["untitledSingle"].get("oneOf").is_none());
    assert!(properties["untitledSingle"].get("enumNames").is_none());
    assert_eq!(
        properties["titledSingle"]["oneOf"][2],
        json!({"const": "value3", "title": "Third Option"})
    );
    assert!(properties["titledSingle"].get("enum").is_none());
    assert_eq!(
        properties["legacyEnum"]["enumNames"],
        json!(["Option One", "Option Two", "Option Three"])
    );
    assert_eq!(properties["untitledMulti"]["items"]["type"], "string");
    assert!(properties["untitledMulti"]["items"].get("anyOf").is_none());
    assert_eq!(
        properties["titledMulti"]["items"]["anyOf"][0],
        json!({"const": "value1", "title": "First Choice"})
    );
    assert!(properties["titledMulti"]["items"].get("enum").is_none());
    assert_eq!(properties["titledMulti"]["maxItems"], 3);
    assert_eq!(
        first_text(&result),
        r#"Elicitation completed: action=accept, content={"untitledSingle":"option1","titledSingle":"value1","legacyEnum":"opt1","untitledMulti":["option1","option2"],"titledMulti":["value1","value2"]}"#
    );
}

#[test]
fn stateless_elicitation_and_sampling_are_input_required_rounds() {
    let mut client = StdioClient::spawn(env!("CARGO_BIN_EXE_conformance"), &[]);
    client.check_against("2026-07-28");
    let call = |client: &mut StdioClient, extra: Value| {
        let mut meta = stateless_meta();
        meta["io.modelcontextprotocol/clientCapabilities"] =
            json!({"elicitation": {}, "sampling": {}});
        let mut params = json!({"_meta": meta});
        for (key, value) in extra.as_object().unwrap() {
            params[key] = value.clone();
        }
        client.request("tools/call", params)["result"].clone()
    };
    let first = call(
        &mut client,
        json!({"name": "test_elicitation", "arguments": {"message": "Who?"}}),
    );
    assert_eq!(first["resultType"], "input_required", "{first}");
    let asked = &first["inputRequests"]["input-0"];
    assert_eq!(asked["method"], "elicitation/create");
    assert_eq!(asked["params"]["message"], "Who?");
    assert_eq!(
        asked["params"]["requestedSchema"]["required"],
        json!(["username", "email"])
    );
    let done = call(
        &mut client,
        json!({"name": "test_elicitation", "arguments": {"message": "Who?"},
               "inputResponses": {"input-0": {"action": "accept", "content": {"username": "u", "email": "e"}}},
               "requestState": first["requestState"]}),
    );
    assert_eq!(
        first_text(&done),
        r#"User response: action=accept, content={"username":"u","email":"e"}"#
    );

    let first = call(
        &mut client,
        json!({"name": "test_sampling", "arguments": {"prompt": "Hi"}}),
    );
    assert_eq!(
        first["inputRequests"]["input-0"],
        json!({"method": "sampling/createMessage", "params": {
            "messages": [{"role": "user", "content": {"type": "text", "text": "Hi"}}], "maxTokens": 100}})
    );
    let done = call(
        &mut client,
        json!({"name": "test_sampling", "arguments": {"prompt": "Hi"},
               "inputResponses": {"input-0": {"role": "assistant", "content": {"type": "text", "text": "Hello"}, "model": "m"}},
               "requestState": first["requestState"]}),
    );
    assert_eq!(first_text(&done), "LLM response: Hello");
}

#[test]
fn json_schema_2020_12_tool_is_listed_verbatim() {
    for revision in ["2025-06-18", "2025-11-25"] {
        let mut client = server(revision);
        let tools = client.request("tools/list", json!({}))["result"]["tools"].clone();
        let tool = tools
            .as_array()
            .unwrap()
            .iter()
            .find(|tool| tool["name"] == "json_schema_2020_12_tool")
            .expect("listed")
            .clone();
        assert_eq!(
            tool["inputSchema"],
            json!({"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object",
                   "$defs": {"address": {"$anchor": "addressDef", "type": "object",
                                         "properties": {"street": {"type": "string"}, "city": {"type": "string"}}}},
                   "properties": {"name": {"type": "string"}, "address": {"$ref": "#/$defs/address"},
                                  "contactMethod": {"type": "string", "enum": ["phone", "email"]},
                                  "phone": {"type": "string"}, "email": {"type": "string"}},
                   "allOf": [{"anyOf": [{"required": ["phone"]}, {"required": ["email"]}]}],
                   "if": {"properties": {"contactMethod": {"const": "phone"}}, "required": ["contactMethod"]},
                   "then": {"required": ["phone"]},
                   "else": {"required": ["email"]},
                   "additionalProperties": false})
        );
        let result = client.request(
            "tools/call",
            json!({"name": "json_schema_2020_12_tool",
                   "arguments": {"name": "Ada", "email": "ada@example.com", "address": {"city": "London"}}}),
        )["result"]
            .clone();
        assert_eq!(
            first_text(&result),
            r#"JSON Schema 2020-12 tool called with: {"address":{"city":"London"},"email":"ada@example.com","name":"Ada"}"#
        );
        // `if`/`then`: a phone contact needs a phone number.
        let rejected = client.request(
            "tools/call",
            json!({"name": "json_schema_2020_12_tool",
                   "arguments": {"contactMethod": "phone", "email": "ada@example.com"}}),
        );
        assert!(
            rejected["result"]["isError"] == true || rejected.get("error").is_some(),
            "{rejected}"
        );
        // `additionalProperties: false` holds: arguments are validated against the schema.
        let rejected = client.request(
            "tools/call",
            json!({"name": "json_schema_2020_12_tool", "arguments": {"nickname": "x"}}),
        );
        assert!(
            rejected["result"]["isError"] == true || rejected.get("error").is_some(),
            "{rejected}"
        );
    }
}

/// A 2026-07-28 `tools/call` from a client that declares `capabilities`.
fn stateless_call(client: &mut StdioClient, capabilities: Value, params: Value) -> Value {
    let mut meta = stateless_meta();
    meta["io.modelcontextprotocol/clientCapabilities"] = capabilities;
    let mut params = params;
    params["_meta"] = meta;
    client.request("tools/call", params)
}

#[test]
fn a_missing_capability_is_refused_with_32021_under_2026_07_28_only() {
    let mut client = StdioClient::spawn(env!("CARGO_BIN_EXE_conformance"), &[]);
    client.check_against("2026-07-28");
    let refused = stateless_call(
        &mut client,
        json!({}),
        json!({"name": "test_missing_capability", "arguments": {}}),
    );
    assert_eq!(refused["error"]["code"], -32021, "{refused}");
    assert_eq!(
        refused["error"]["data"],
        json!({"requiredCapabilities": {"sampling": {}}})
    );
    // Declared, the call asks for it as an input round.
    let asked = stateless_call(
        &mut client,
        json!({"sampling": {}}),
        json!({"name": "test_missing_capability", "arguments": {}}),
    );
    assert_eq!(asked["result"]["resultType"], "input_required", "{asked}");

    // In the handshake era the same error is the tool's own result.
    let mut client = server("2025-11-25");
    let result = call(&mut client, "test_missing_capability");
    assert_eq!(result["isError"], true, "{result}");
}

#[test]
fn input_rounds_fixtures_ask_and_finish() {
    let mut client = StdioClient::spawn(env!("CARGO_BIN_EXE_conformance"), &[]);
    client.check_against("2026-07-28");
    let all = json!({"elicitation": {}, "sampling": {}, "roots": {}});
    let name = json!({"action": "accept", "content": {"name": "Alice"}});
    let first = stateless_call(
        &mut client,
        all.clone(),
        json!({"name": "test_input_required_result_multiple_inputs", "arguments": {}}),
    )["result"]
        .clone();
    let methods: Vec<&str> = first["inputRequests"]
        .as_object()
        .unwrap()
        .values()
        .map(|request| request["method"].as_str().unwrap())
        .collect();
    assert_eq!(
        methods,
        ["elicitation/create", "sampling/createMessage", "roots/list"],
        "{first}"
    );
    let done = stateless_call(
        &mut client,
        all.clone(),
        json!({"name": "test_input_required_result_multiple_inputs", "arguments": {},
               "inputResponses": {"input-0": name,
                                  "input-1": {"role": "assistant", "content": {"type": "text", "text": "Hi"}, "model": "m"},
                                  "input-2": {"roots": [{"uri": "file:///tmp"}]}},
               "requestState": first["requestState"]}),
    )["result"]
        .clone();
    assert_eq!(first_text(&done), "Hi Alice! (1 roots)");

    // Only what the client declared is asked: sampling when elicitation is not.
    let sampled = stateless_call(
        &mut client,
        json!({"sampling": {}}),
        json!({"name": "test_input_required_result_capabilities", "arguments": {}}),
    )["result"]
        .clone();
    let requests = sampled["inputRequests"].as_object().unwrap();
    assert!(
        requests
            .values()
            .all(|request| request["method"] == "sampling/createMessage"),
        "{sampled}"
    );

    // The prompt asks too.
    let mut meta = stateless_meta();
    meta["io.modelcontextprotocol/clientCapabilities"] = all;
    let prompt = client.request(
        "prompts/get",
        json!({"name": "test_input_required_result_prompt", "_meta": meta}),
    )["result"]
        .clone();
    assert_eq!(prompt["resultType"], "input_required", "{prompt}");
}
