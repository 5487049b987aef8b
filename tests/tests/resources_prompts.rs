//! Resources, resource templates, prompts and completions over stdio, in every revision:
//! every message checked against that revision's official schema, shaped for it, and every
//! kind of bad input answered with a clear error, the server serving the next request.

use mcp_tests::{HANDSHAKE_REVISIONS, StdioClient, stateless_meta};
use serde_json::{Value, json};

fn primitives(args: &[&str]) -> StdioClient {
    StdioClient::spawn(env!("CARGO_BIN_EXE_primitives"), args)
}

fn by_key<'a>(list: &'a Value, key: &str, value: &str) -> &'a Value {
    list.as_array()
        .unwrap()
        .iter()
        .find(|entry| entry[key] == value)
        .unwrap_or_else(|| panic!("no {key} {value} in {list}"))
}

/// The requests every revision answers the same way (up to shape), sent through `request`.
fn exercise(
    client: &mut StdioClient,
    revision: &str,
    request: &mut dyn FnMut(&mut StdioClient, &str, Value) -> Value,
) {
    let newer = |since: &str| revision >= since;

    // Listings, shaped for the revision.
    let resources = request(client, "resources/list", json!({}))["result"].clone();
    let uris: Vec<&str> = resources["resources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|resource| resource["uri"].as_str().unwrap())
        .collect();
    assert_eq!(
        uris,
        [
            "dynamic://motd",
            "fixed://blob",
            "fixed://blocking",
            "fixed://fails",
            "fixed://json",
            "fixed://panics",
            "fixed://parts",
            "fixed://reader",
            "fixed://refuses",
            "fixed://slow",
            "fixed://text"
        ],
        "sorted by URI, templates apart"
    );
    let text = by_key(&resources["resources"], "uri", "fixed://text");
    assert_eq!(text["name"], "text");
    assert_eq!(text["description"], "A short text.");
    assert_eq!(text["mimeType"], "text/plain");
    assert_eq!(text["size"], 5);
    assert_eq!(
        text["annotations"]["audience"],
        json!(["user", "assistant"])
    );
    assert_eq!(text["annotations"]["priority"], 0.5);
    assert_eq!(text.get("title").is_some(), newer("2025-06-18"), "{text}");
    assert_eq!(
        text["annotations"].get("lastModified").is_some(),
        newer("2025-06-18"),
        "{text}"
    );
    assert_eq!(text.get("icons").is_some(), newer("2025-11-25"), "{text}");
    if newer("2025-11-25") {
        assert_eq!(
            text["icons"],
            json!([{"src": "https://example.com/text.png", "mimeType": "image/png"}])
        );
    }

    let templates = request(client, "resources/templates/list", json!({}))["result"].clone();
    let uri_templates: Vec<&str> = templates["resourceTemplates"]
        .as_array()
        .unwrap()
        .iter()
        .map(|template| template["uriTemplate"].as_str().unwrap())
        .collect();
    assert_eq!(
        uri_templates,
        [
            "dynamic://{owner}/{+path}",
            "items://{id}",
            "pair://{name}/{flag}",
            "shelves://{number}",
            "tree://{+path}"
        ]
    );

    // Reads of every return type.
    let read =
        |client: &mut StdioClient,
         request: &mut dyn FnMut(&mut StdioClient, &str, Value) -> Value,
         uri: &str| { request(client, "resources/read", json!({"uri": uri})) };
    assert_eq!(
        read(client, request, "fixed://text")["result"]["contents"],
        json!([{"uri": "fixed://text", "mimeType": "text/plain", "text": "hello"}])
    );
    assert_eq!(
        read(client, request, "fixed://blob")["result"]["contents"],
        json!([{"uri": "fixed://blob", "mimeType": "application/octet-stream", "blob": "AAEC/w=="}])
    );
    let json_read = read(client, request, "fixed://json")["result"]["contents"][0].clone();
    assert_eq!(json_read["mimeType"], "application/json");
    assert_eq!(
        serde_json::from_str::<Value>(json_read["text"].as_str().unwrap()).unwrap(),
        json!({"name": "report", "size": 3})
    );
    let parts = read(client, request, "fixed://parts")["result"]["contents"].clone();
    assert_eq!(parts[0]["uri"], "fixed://parts#1");
    assert_eq!(parts[1]["blob"], "iVBORw0KGgo=");
    assert_eq!(
        read(client, request, "fixed://blocking")["result"]["contents"][0]["text"],
        "read on a thread"
    );
    assert_eq!(
        read(client, request, "fixed://reader")["result"]["contents"][0]["text"],
        format!("mcp-tests at {revision}")
    );

    // Templates: variables bound by name and parsed to their types.
    assert_eq!(
        read(client, request, "items://1")["result"]["contents"],
        json!([{"uri": "items://1", "mimeType": "text/plain", "text": "pear"}])
    );
    assert_eq!(
        read(client, request, "tree://a/b/c.txt")["result"]["contents"][0]["text"],
        "path a/b/c.txt"
    );
    assert_eq!(
        read(client, request, "pair://caf%C3%A9/true")["result"]["contents"][0]["text"],
        "café: true"
    );

    // Bad input: each a clear error, the next request served.
    let not_found = read(client, request, "nothing://here");
    let expected_code = if revision == "2026-07-28" {
        -32602
    } else {
        -32002
    };
    assert_eq!(not_found["error"]["code"], expected_code, "{not_found}");
    assert_eq!(
        not_found["error"]["message"],
        "Resource not found: nothing://here"
    );
    assert_eq!(not_found["error"]["data"]["uri"], "nothing://here");
    assert_eq!(
        read(client, request, "shelves://1")["result"]["contents"][0]["text"],
        "shelf 1"
    );
    let no_shelf = read(client, request, "shelves://7");
    assert_eq!(
        no_shelf["error"]["code"], expected_code,
        "`None` is not found: {no_shelf}"
    );
    assert_eq!(no_shelf["error"]["data"]["uri"], "shelves://7");
    let unparsed = read(client, request, "items://seven");
    assert_eq!(unparsed["error"]["code"], -32602, "{unparsed}");
    let message = unparsed["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("`id`") && message.contains("seven"),
        "{message}"
    );
    let missing_item = read(client, request, "items://9");
    assert_eq!(missing_item["error"]["code"], -32603, "{missing_item}");
    assert!(
        missing_item["error"]["message"]
            .as_str()
            .unwrap()
            .contains("there is no item 9"),
        "{missing_item}"
    );
    let refused = read(client, request, "fixed://refuses");
    assert!(
        refused["error"]["message"]
            .as_str()
            .unwrap()
            .contains("you may not read this"),
        "{refused}"
    );
    let panicked = read(client, request, "fixed://panics");
    assert_eq!(panicked["error"]["code"], -32603, "{panicked}");
    assert!(
        !panicked["error"]["message"]
            .as_str()
            .unwrap()
            .contains("secret"),
        "a panic's message stays on the server: {panicked}"
    );
    for params in [json!({}), json!({"uri": 5})] {
        let malformed = request(client, "resources/read", params);
        assert_eq!(malformed["error"]["code"], -32602, "{malformed}");
    }

    // Prompts.
    let prompts = request(client, "prompts/list", json!({}))["result"].clone();
    let names: Vec<&str> = prompts["prompts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|prompt| prompt["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "blocking_prompt",
            "conversation",
            "described",
            "failing",
            "greet",
            "refusing",
            "translate",
            "typed"
        ]
    );
    let typed = by_key(&prompts["prompts"], "name", "typed");
    assert_eq!(
        typed["arguments"],
        json!([
            {"name": "count", "description": "How many times.", "required": true},
            {"name": "shout", "description": "Whether to shout.", "required": false},
            {"name": "name", "description": "Who to greet.", "required": false},
        ])
    );
    let greet = by_key(&prompts["prompts"], "name", "greet");
    assert!(greet.get("arguments").is_none(), "{greet}");
    assert_eq!(greet.get("title").is_some(), newer("2025-06-18"), "{greet}");
    assert_eq!(greet.get("icons").is_some(), newer("2025-11-25"), "{greet}");

    let get = |client: &mut StdioClient,
               request: &mut dyn FnMut(&mut StdioClient, &str, Value) -> Value,
               name: &str,
               arguments: Value| {
        request(
            client,
            "prompts/get",
            json!({"name": name, "arguments": arguments}),
        )
    };
    let greeted = get(client, request, "greet", json!({}))["result"].clone();
    assert_eq!(
        greeted["messages"],
        json!([{"role": "user", "content": {"type": "text", "text": "Hello!"}}])
    );
    assert_eq!(greeted["description"], "Says hello.");
    let typed = get(
        client,
        request,
        "typed",
        json!({"count": "2", "shout": "true"}),
    )["result"]
        .clone();
    assert_eq!(
        typed["messages"][0]["content"]["text"],
        "HI FRIENDHI FRIEND"
    );
    let blank_optional =
        get(client, request, "typed", json!({"count": "1", "shout": ""}))["result"].clone();
    assert_eq!(
        blank_optional["messages"][0]["content"]["text"],
        "hi friend"
    );
    let described = get(client, request, "described", json!({"topic": "sea"}))["result"].clone();
    assert_eq!(described["description"], "A poem about the sea");
    assert_eq!(
        described["messages"][0]["content"]["text"],
        "Write a short poem about the sea."
    );
    let blocking =
        get(client, request, "blocking_prompt", json!({"word": "done"}))["result"].clone();
    assert_eq!(
        blocking["messages"],
        json!([{"role": "assistant", "content": {"type": "text", "text": "done!"}}])
    );
    let conversation = get(client, request, "conversation", Value::Null)["result"].clone();
    let types: Vec<&str> = conversation["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|message| message["content"]["type"].as_str().unwrap())
        .collect();
    let expected: &[&str] = match revision {
        // No audio before 2025-03-26, no resource links before 2025-06-18: each the
        // closest block the revision has.
        "2024-11-05" => &["text", "image", "text", "text", "resource"],
        "2025-03-26" => &["text", "image", "audio", "text", "resource"],
        _ => &["text", "image", "audio", "resource_link", "resource"],
    };
    assert_eq!(types, expected, "{revision}: {conversation}");

    for (name, arguments, wanted) in [
        ("nope", json!({}), "Unknown prompt: nope"),
        ("typed", json!({}), "needs argument `count`"),
        ("typed", json!({"count": "many"}), "`count`"),
        ("typed", json!({"count": 2}), "must be a string"),
        (
            "typed",
            json!({"count": "1", "colour": "red"}),
            "has no argument `colour`",
        ),
        ("described", json!({"topic": "desert"}), "`topic`"),
    ] {
        let refused = get(client, request, name, arguments);
        assert_eq!(refused["error"]["code"], -32602, "{name}: {refused}");
        let message = refused["error"]["message"].as_str().unwrap();
        assert!(message.contains(wanted), "{name}: {message}");
    }
    let refusing = get(client, request, "refusing", json!({}));
    assert!(
        refusing["error"]["message"]
            .as_str()
            .unwrap()
            .contains("no prompt today"),
        "{refusing}"
    );

    // Completions, for prompt arguments and template variables.
    let complete = |client: &mut StdioClient,
                    request: &mut dyn FnMut(&mut StdioClient, &str, Value) -> Value,
                    reference: Value,
                    argument: &str,
                    value: &str,
                    given: Value| {
        let mut params = json!({"ref": reference, "argument": {"name": argument, "value": value}});
        if !given.is_null() {
            params["context"] = json!({"arguments": given});
        }
        request(client, "completion/complete", params)
    };
    let prompt_ref = json!({"type": "ref/prompt", "name": "described"});
    let topics = complete(
        client,
        request,
        prompt_ref.clone(),
        "topic",
        "s",
        Value::Null,
    );
    assert_eq!(
        topics["result"]["completion"],
        json!({"values": ["sea"], "total": 1, "hasMore": false})
    );
    let styles = complete(
        client,
        request,
        prompt_ref.clone(),
        "style",
        "",
        json!({"topic": "sea"}),
    );
    let completion = &styles["result"]["completion"];
    assert_eq!(
        completion["values"].as_array().unwrap().len(),
        100,
        "the spec's limit"
    );
    assert_eq!(
        completion["values"][0], "sea-style-0",
        "the arguments given reach the function"
    );
    assert_eq!(completion["total"], 150);
    assert_eq!(completion["hasMore"], true);
    let no_function = complete(
        client,
        request,
        json!({"type": "ref/prompt", "name": "typed"}),
        "count",
        "1",
        Value::Null,
    );
    assert_eq!(no_function["result"]["completion"]["values"], json!([]));
    let items = complete(
        client,
        request,
        json!({"type": "ref/resource", "uri": "items://{id}"}),
        "id",
        "",
        Value::Null,
    );
    assert_eq!(
        items["result"]["completion"]["values"],
        json!(["0", "1", "2"])
    );
    for (reference, argument) in [
        (json!({"type": "ref/prompt", "name": "nope"}), "x"),
        (json!({"type": "ref/prompt", "name": "typed"}), "colour"),
        (
            json!({"type": "ref/resource", "uri": "items://{nope}"}),
            "id",
        ),
        (json!({"type": "ref/other"}), "x"),
    ] {
        let refused = complete(
            client,
            request,
            reference.clone(),
            argument,
            "",
            Value::Null,
        );
        assert_eq!(refused["error"]["code"], -32602, "{reference}: {refused}");
    }

    // Still serving.
    assert_eq!(
        read(client, request, "fixed://text")["result"]["contents"][0]["text"],
        "hello"
    );
}

#[test]
fn handshake_revisions_serve_resources_prompts_and_completions() {
    for revision in HANDSHAKE_REVISIONS {
        let mut client = primitives(&[]);
        let init = client.initialize(revision);
        let capabilities = &init["capabilities"];
        assert_eq!(
            capabilities["resources"],
            json!({"subscribe": true, "listChanged": true})
        );
        assert_eq!(capabilities["prompts"], json!({"listChanged": true}));
        // 2024-11-05 has completion/complete but no capability to announce it.
        assert_eq!(
            capabilities.get("completions").is_some(),
            revision != "2024-11-05",
            "{revision}: {capabilities}"
        );
        exercise(&mut client, revision, &mut |client, method, params| {
            client.request(method, params)
        });
    }
}

#[test]
fn stateless_revision_serves_resources_prompts_and_completions() {
    let mut client = primitives(&[]);
    client.check_against("2026-07-28");
    let discovered = client.stateless_request("server/discover", Value::Null)["result"].clone();
    assert_eq!(discovered["capabilities"]["resources"]["subscribe"], true);
    assert!(discovered["capabilities"]["prompts"].is_object());
    assert!(discovered["capabilities"]["completions"].is_object());
    exercise(&mut client, "2026-07-28", &mut |client, method, params| {
        client.stateless_request(method, params)
    });
    let listed = client.stateless_request("resources/list", Value::Null)["result"].clone();
    assert_eq!(listed["resultType"], "complete");
    assert_eq!(listed["cacheScope"], "public");
    let read = client.stateless_request("resources/read", json!({"uri": "fixed://text"}))["result"]
        .clone();
    assert_eq!(read["resultType"], "complete");
    assert_eq!(read["ttlMs"], 0, "a read is never cached");
    assert_eq!(read["cacheScope"], "private");
    // resources/subscribe is gone: subscriptions/listen replaces it.
    let subscribe = client.stateless_request("resources/subscribe", json!({"uri": "fixed://text"}));
    assert_eq!(subscribe["error"]["code"], -32601, "{subscribe}");
}

#[test]
fn a_server_without_them_declares_neither_and_answers_method_not_found() {
    let mut client = StdioClient::spawn(env!("CARGO_BIN_EXE_fixture"), &[]);
    let init = client.initialize("2025-11-25");
    for capability in ["resources", "prompts", "completions"] {
        assert!(init["capabilities"].get(capability).is_none(), "{init}");
    }
    for method in [
        "resources/list",
        "resources/read",
        "prompts/list",
        "prompts/get",
        "completion/complete",
    ] {
        let response = client.request(method, json!({}));
        assert_eq!(response["error"]["code"], -32601, "{method}: {response}");
    }
}

#[test]
fn masked_errors_keep_details_on_the_server() {
    let mut client = primitives(&["--mask-errors"]);
    client.initialize("2025-11-25");
    let failed = client.request("resources/read", json!({"uri": "fixed://fails"}));
    let message = failed["error"]["message"].as_str().unwrap();
    assert!(!message.contains("secret"), "{message}");
    assert!(message.contains("logged on the server"), "{message}");
    let public = client.request("resources/read", json!({"uri": "fixed://refuses"}));
    assert!(
        public["error"]["message"]
            .as_str()
            .unwrap()
            .contains("you may not read this"),
        "a ToolError is public: {public}"
    );
    let prompt = client.request("prompts/get", json!({"name": "failing"}));
    assert!(
        !prompt["error"]["message"]
            .as_str()
            .unwrap()
            .contains("secret"),
        "{prompt}"
    );

    let mut unmasked = primitives(&[]);
    unmasked.initialize("2025-11-25");
    let failed = unmasked.request("resources/read", json!({"uri": "fixed://fails"}));
    assert!(
        failed["error"]["message"]
            .as_str()
            .unwrap()
            .contains("secret database detail"),
        "{failed}"
    );
}

#[test]
fn reads_can_be_cancelled_and_time_out() {
    let mut client = primitives(&["--call-timeout-ms", "300"]);
    client.initialize("2025-11-25");
    let timed_out = client.request("resources/read", json!({"uri": "fixed://slow"}));
    assert_eq!(timed_out["error"]["code"], -32603, "{timed_out}");
    assert!(
        timed_out["error"]["message"]
            .as_str()
            .unwrap()
            .contains("timed out"),
        "{timed_out}"
    );

    let mut client = primitives(&[]);
    client.initialize("2025-11-25");
    client.send(&json!({"jsonrpc": "2.0", "id": "slow", "method": "resources/read", "params": {"uri": "fixed://slow"}}));
    client.send(&json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": "slow"}}));
    // No answer for the cancelled read; the next request is answered.
    let next = client.request("resources/read", json!({"uri": "fixed://text"}));
    assert_eq!(next["result"]["contents"][0]["text"], "hello");
    assert!(
        client
            .try_receive(std::time::Duration::from_millis(300))
            .is_none(),
        "a cancelled request gets no answer"
    );
}

#[test]
fn subscribers_hear_of_updates_and_everyone_of_list_changes() {
    let mut client = primitives(&[]);
    client.initialize("2025-11-25");
    assert_eq!(
        client.request("resources/subscribe", json!({"uri": "fixed://text"}))["result"],
        json!({})
    );
    // A template's URI may be subscribed to as well; an unknown one is refused.
    assert_eq!(
        client.request("resources/subscribe", json!({"uri": "items://2"}))["result"],
        json!({})
    );
    let unknown = client.request("resources/subscribe", json!({"uri": "nothing://here"}));
    assert_eq!(unknown["error"]["code"], -32002, "{unknown}");

    let touch = |client: &mut StdioClient, uri: &str| {
        client.request(
            "tools/call",
            json!({"name": "touch", "arguments": {"uri": uri}}),
        );
    };
    touch(&mut client, "fixed://text");
    touch(&mut client, "fixed://blob"); // not subscribed
    touch(&mut client, "items://2");
    let updated = wait_for(&mut client, "notifications/resources/updated", 2);
    assert_eq!(updated[0]["params"]["uri"], "fixed://text");
    assert_eq!(updated[1]["params"]["uri"], "items://2");

    assert_eq!(
        client.request("resources/unsubscribe", json!({"uri": "fixed://text"}))["result"],
        json!({})
    );
    touch(&mut client, "fixed://text");
    client.request("tools/call", json!({"name": "change_lists"}));
    wait_for(&mut client, "notifications/resources/list_changed", 1);
    wait_for(&mut client, "notifications/prompts/list_changed", 1);
    assert_eq!(
        count(&client, "notifications/resources/updated"),
        2,
        "nothing after unsubscribing"
    );
}

#[test]
fn listen_streams_carry_what_they_asked_for() {
    let mut client = primitives(&[]);
    client.check_against("2026-07-28");
    client.send(&json!({
        "jsonrpc": "2.0", "id": "listen", "method": "subscriptions/listen",
        "params": {
            "_meta": stateless_meta(),
            "notifications": {
                "resourceSubscriptions": ["fixed://text"],
                "promptsListChanged": true,
            },
        },
    }));
    let acknowledged = wait_for(&mut client, "notifications/subscriptions/acknowledged", 1);
    assert_eq!(
        acknowledged[0]["params"]["notifications"],
        json!({"resourceSubscriptions": ["fixed://text"], "promptsListChanged": true})
    );
    let call = |client: &mut StdioClient, name: &str, arguments: Value| {
        client.stateless_request("tools/call", json!({"name": name, "arguments": arguments}));
    };
    call(&mut client, "touch", json!({"uri": "fixed://blob"}));
    call(&mut client, "touch", json!({"uri": "fixed://text"}));
    call(&mut client, "change_lists", json!({}));
    let updated = wait_for(&mut client, "notifications/resources/updated", 1);
    assert_eq!(updated[0]["params"]["uri"], "fixed://text");
    assert_eq!(
        updated[0]["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"],
        "listen"
    );
    let prompts = wait_for(&mut client, "notifications/prompts/list_changed", 1);
    assert_eq!(
        prompts[0]["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"],
        "listen"
    );
    assert_eq!(
        count(&client, "notifications/resources/list_changed"),
        0,
        "not asked for"
    );
}

/// The first `n` notifications of `method`, waiting for them (others are kept).
fn wait_for(client: &mut StdioClient, method: &str, n: usize) -> Vec<Value> {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while count(client, method) < n {
        assert!(
            std::time::Instant::now() < deadline,
            "fewer than {n} {method} in {:?}",
            client.transcript
        );
        client.try_receive(std::time::Duration::from_millis(100));
    }
    client
        .transcript
        .iter()
        .filter(|message| message["method"] == method)
        .take(n)
        .cloned()
        .collect()
}

fn count(client: &StdioClient, method: &str) -> usize {
    client
        .transcript
        .iter()
        .filter(|message| message["method"] == method)
        .count()
}

#[test]
fn resources_and_prompts_change_at_run_time() {
    for revision in ["2024-11-05", "2025-11-25"] {
        let mut client = primitives(&[]);
        client.initialize(revision);
        let listed = client.request("resources/list", json!({}))["result"].clone();
        let motd = by_key(&listed["resources"], "uri", "dynamic://motd");
        assert_eq!(motd["name"], "motd");
        assert_eq!(motd["mimeType"], "text/plain");
        assert_eq!(motd["size"], 19);
        assert_eq!(
            motd.get("title").is_some(),
            revision >= "2025-06-18",
            "{motd}"
        );
        assert_eq!(
            client.request("resources/read", json!({"uri": "dynamic://motd"}))["result"]["contents"],
            json!([{"uri": "dynamic://motd", "mimeType": "text/plain", "text": "maintenance tonight"}])
        );
        assert_eq!(
            client.request(
                "resources/read",
                json!({"uri": "dynamic://ann/src/main.rs"})
            )["result"]["contents"][0]["text"],
            "ann owns src/main.rs (read as dynamic://ann/src/main.rs)"
        );
        let prompts = client.request("prompts/list", json!({}))["result"].clone();
        assert_eq!(
            by_key(&prompts["prompts"], "name", "translate")["arguments"],
            json!([
                {"name": "text", "description": "What to translate.", "required": true},
                {"name": "language", "description": "Into which language (English by default).", "required": false},
            ])
        );
        let rendered = client.request(
            "prompts/get",
            json!({"name": "translate", "arguments": {"text": "hola", "language": "French"}}),
        );
        assert_eq!(
            rendered["result"]["messages"][0]["content"]["text"],
            "Translate into French: hola"
        );
        assert_eq!(rendered["result"]["description"], "Translate a text.");
        let missing = client.request("prompts/get", json!({"name": "translate", "arguments": {}}));
        assert_eq!(missing["error"]["code"], -32602, "{missing}");

        // Disabling a resource and a prompt hides them and tells every client.
        let toggle = |client: &mut StdioClient, key: &str, enable: bool| {
            client.request(
                "tools/call",
                json!({"name": "toggle", "arguments": {"key": key, "enable": enable}}),
            )["result"]["content"][0]["text"]
                .clone()
        };
        assert_eq!(toggle(&mut client, "fixed://text", false), "changed: true");
        assert_eq!(toggle(&mut client, "greet", false), "changed: true");
        assert_eq!(toggle(&mut client, "greet", false), "changed: false");
        wait_for(&mut client, "notifications/resources/list_changed", 1);
        wait_for(&mut client, "notifications/prompts/list_changed", 1);
        let listed = client.request("resources/list", json!({}))["result"].clone();
        assert!(!listed.to_string().contains("fixed://text"), "{listed}");
        let hidden = client.request("resources/read", json!({"uri": "fixed://text"}));
        assert_eq!(hidden["error"]["code"], -32002, "{hidden}");
        let hidden = client.request("prompts/get", json!({"name": "greet"}));
        assert_eq!(hidden["error"]["code"], -32602, "{hidden}");
        assert_eq!(toggle(&mut client, "fixed://text", true), "changed: true");
        assert_eq!(
            client.request("resources/read", json!({"uri": "fixed://text"}))["result"]["contents"]
                [0]["text"],
            "hello"
        );

        // A run-time entry can be removed; one linked in cannot (only disabled).
        let forget = |client: &mut StdioClient, key: &str| {
            client.request(
                "tools/call",
                json!({"name": "forget", "arguments": {"key": key}}),
            )["result"]["content"][0]["text"]
                .clone()
        };
        assert_eq!(forget(&mut client, "dynamic://motd"), "removed: true");
        assert_eq!(forget(&mut client, "translate"), "removed: true");
        assert_eq!(forget(&mut client, "fixed://blob"), "removed: false");
        let gone = client.request("resources/read", json!({"uri": "dynamic://motd"}));
        assert_eq!(gone["error"]["code"], -32002, "{gone}");
        // Disabled, enabled again, removed: three changes of the listing.
        wait_for(&mut client, "notifications/resources/list_changed", 3);
    }
}
