//! Tool middleware (`mcp_runtime::middleware`), in process: the order layers run in (the
//! server's, a tag's, the tool's own), a layer that answers without the tool, errors and
//! panics inside layers, masking after the layers, the response cache (hit, miss, expiry,
//! never for tools that are not read-only and idempotent, never errors) and the audit
//! layer's events.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use mcp_runtime::middleware::{
    Audit, Layer, LayerFuture, Next, ResponseCache, ToolRequest, from_fn,
};
use mcp_runtime::middleware::{RequestError, ServedFuture, ServedRequest};
use mcp_runtime::testing::TestClient;
use mcp_runtime::{CallToolResult, DynamicTool, Server, mcp_prompt, mcp_resource, mcp_tool};
use serde_json::json;

/// Every layer's passage, as `label:argument`, so tests running at once tell theirs apart.
static PASSAGES: Mutex<Vec<String>> = Mutex::new(Vec::new());

fn passages_for(argument: &str) -> Vec<String> {
    PASSAGES
        .lock()
        .unwrap()
        .iter()
        .filter_map(|passage| passage.strip_suffix(&format!(":{argument}")))
        .map(str::to_owned)
        .collect()
}

/// Records its label before and after the rest of the chain (`label>` and `<label`).
struct Recorder(&'static str);

impl Layer for Recorder {
    fn call(&self, call: ToolRequest, next: Next) -> LayerFuture {
        let label = self.0;
        // Any tool passes through the server's layers: not every one has a `text`.
        let argument = call
            .arguments()
            .get("text")
            .and_then(|text| text.as_str())
            .unwrap_or_default()
            .to_owned();
        PASSAGES
            .lock()
            .unwrap()
            .push(format!("{label}>:{argument}"));
        Box::pin(async move {
            let result = next.run(call).await;
            PASSAGES
                .lock()
                .unwrap()
                .push(format!("<{label}:{argument}"));
            result
        })
    }
}

fn own_recorder() -> Recorder {
    Recorder("own")
}

fn inner_recorder() -> Recorder {
    Recorder("own-inner")
}

/// Echoes its text; two layers of its own.
#[mcp_tool(tags = ["loud"], layer = own_recorder(), layer = inner_recorder())]
async fn shout(text: String) -> String {
    PASSAGES.lock().unwrap().push(format!("tool:{text}"));
    text.to_uppercase()
}

/// The keys `lookup` ran for, once per run.
static LOOKUPS: Mutex<Vec<String>> = Mutex::new(Vec::new());

/// How many times `lookup` ran for keys starting with `prefix`.
fn lookups(prefix: &str) -> usize {
    let lookups = LOOKUPS.lock().unwrap();
    lookups.iter().filter(|key| key.starts_with(prefix)).count()
}

/// A read-only, idempotent lookup that counts its runs.
#[mcp_tool(read_only, idempotent)]
async fn lookup(key: String) -> String {
    LOOKUPS.lock().unwrap().push(key.clone());
    format!("value of {key}")
}

static FAILING_LOOKUPS: AtomicUsize = AtomicUsize::new(0);

/// A read-only, idempotent lookup that fails.
#[mcp_tool(read_only, idempotent)]
async fn failing_lookup(key: String) -> Result<String, mcp_runtime::ToolError> {
    FAILING_LOOKUPS.fetch_add(1, Ordering::SeqCst);
    Err(mcp_runtime::ToolError::new(format!("no {key}")))
}

static WRITES: AtomicUsize = AtomicUsize::new(0);

/// Writes: neither read-only nor idempotent.
#[mcp_tool]
async fn write(key: String) -> String {
    WRITES.fetch_add(1, Ordering::SeqCst);
    format!("wrote {key}")
}

/// Fails with a private error (any `Err` that is not a `ToolError`).
#[mcp_tool]
async fn leaky(key: String) -> Result<String, String> {
    Err(format!("database password for {key} is hunter2"))
}

fn server() -> Server {
    Server::new("middleware", "1.0.0")
}

#[tokio::test]
async fn layers_run_server_first_then_tag_then_the_tools_own_in_order() {
    let client = TestClient::connect(
        server()
            .layer(Recorder("server-1"))
            .layer_for_tag("loud", Recorder("tag"))
            .layer_for_tag("quiet", Recorder("other-tag"))
            .layer(Recorder("server-2")),
    )
    .await
    .unwrap();
    let result = client
        .call_tool("shout", json!({"text": "order"}))
        .await
        .unwrap();
    assert_eq!(result.text(), "ORDER");
    assert_eq!(
        passages_for("order"),
        [
            "server-1>",
            "server-2>",
            "tag>",
            "own>",
            "own-inner>",
            "tool",
            "<own-inner",
            "<own",
            "<tag",
            "<server-2",
            "<server-1"
        ]
    );
    // A tool without the tag or layers of its own gets only the server's.
    let result = client
        .call_tool("lookup", json!({"key": "order-2"}))
        .await
        .unwrap();
    assert_eq!(result.text(), "value of order-2");
}

#[tokio::test]
async fn a_layer_may_answer_without_the_tool_and_rewrite_results() {
    let refuse_writes = from_fn(|call: ToolRequest, next: Next| async move {
        if call.name() == "write" && call.arguments()["key"] == "forbidden" {
            return CallToolResult::error("Writes to `forbidden` are not allowed.");
        }
        let mut result = next.run(call).await;
        result.content.push(mcp_runtime::Content::text("(checked)"));
        result
    });
    let client = TestClient::connect(server().layer(refuse_writes))
        .await
        .unwrap();
    let before = WRITES.load(Ordering::SeqCst);
    let refused = client
        .call_tool("write", json!({"key": "forbidden"}))
        .await
        .unwrap();
    assert!(refused.is_error);
    assert_eq!(refused.text(), "Writes to `forbidden` are not allowed.");
    let allowed = client
        .call_tool("write", json!({"key": "fine"}))
        .await
        .unwrap();
    assert!(!allowed.is_error);
    assert_eq!(allowed.text(), "wrote fine\n(checked)");
    assert_eq!(
        WRITES.load(Ordering::SeqCst) - before,
        1,
        "only the allowed write ran"
    );
}

#[tokio::test]
async fn a_layer_may_change_the_arguments_the_tool_gets() {
    let rewrite = from_fn(|mut call: ToolRequest, next: Next| async move {
        if let Some(text) = call.arguments_mut().get_mut("text") {
            *text = json!("rewritten");
        }
        next.run(call).await
    });
    let client = TestClient::connect(server().layer(rewrite)).await.unwrap();
    let result = client
        .call_tool("shout", json!({"text": "original"}))
        .await
        .unwrap();
    assert_eq!(result.text(), "REWRITTEN");
}

#[tokio::test]
async fn a_panicking_layer_is_an_error_result_and_the_server_goes_on() {
    let panics = from_fn(|call: ToolRequest, next: Next| async move {
        if call.arguments()["key"] == "boom" {
            panic!("the layer broke");
        }
        next.run(call).await
    });
    let client = TestClient::connect(server().layer(panics)).await.unwrap();
    let broken = client
        .call_tool("write", json!({"key": "boom"}))
        .await
        .unwrap();
    assert!(broken.is_error);
    assert_eq!(broken.text(), "Tool `write` failed: it panicked.");
    let next = client
        .call_tool("write", json!({"key": "after"}))
        .await
        .unwrap();
    assert_eq!(next.text(), "wrote after");
}

/// Panics in `call` itself, before it has a future to return.
struct PanicsAtOnce;

impl Layer for PanicsAtOnce {
    fn call(&self, call: ToolRequest, next: Next) -> LayerFuture {
        if call.arguments()["key"] == "boom-at-once" {
            panic!("the layer broke before its future");
        }
        next.run(call)
    }
}

#[tokio::test]
async fn a_layer_panicking_before_its_future_exists_is_caught_too() {
    let client = TestClient::connect(server().layer(PanicsAtOnce))
        .await
        .unwrap();
    let broken = client
        .call_tool("write", json!({"key": "boom-at-once"}))
        .await
        .unwrap();
    assert!(broken.is_error);
    assert_eq!(broken.text(), "Tool `write` failed: it panicked.");
    let next = client
        .call_tool("write", json!({"key": "after-at-once"}))
        .await
        .unwrap();
    assert_eq!(next.text(), "wrote after-at-once");
}

#[tokio::test]
async fn details_are_masked_after_the_layers_which_still_see_them() {
    let seen = Arc::new(Mutex::new(String::new()));
    let witness = {
        let seen = Arc::clone(&seen);
        from_fn(move |call: ToolRequest, next: Next| {
            let seen = Arc::clone(&seen);
            async move {
                let result = next.run(call).await;
                *seen.lock().unwrap() = format!("{:?}", result.content);
                result
            }
        })
    };
    let client = TestClient::connect(server().mask_error_details().layer(witness))
        .await
        .unwrap();
    let result = client
        .call_tool("leaky", json!({"key": "prod"}))
        .await
        .unwrap();
    assert!(result.is_error);
    assert_eq!(
        result.text(),
        "Tool `leaky` failed. The details were logged on the server."
    );
    assert!(
        seen.lock().unwrap().contains("hunter2"),
        "the layer saw the details"
    );
}

#[tokio::test]
async fn the_cache_answers_repeated_read_only_idempotent_calls() {
    let cache = ResponseCache::new(100, Duration::from_secs(60));
    let client = TestClient::connect(server().layer(cache.clone()))
        .await
        .unwrap();
    for _ in 0..3 {
        let result = client
            .call_tool("lookup", json!({"key": "cached"}))
            .await
            .unwrap();
        assert_eq!(result.text(), "value of cached");
    }
    let other = client
        .call_tool("lookup", json!({"key": "cached-too"}))
        .await
        .unwrap();
    assert_eq!(other.text(), "value of cached-too");
    assert_eq!(lookups("cached"), 2, "one run per distinct arguments");
    assert_eq!(cache.len(), 2);
    cache.clear();
    client
        .call_tool("lookup", json!({"key": "cached"}))
        .await
        .unwrap();
    assert_eq!(lookups("cached"), 3, "cleared");
}

#[tokio::test]
async fn the_cache_forgets_results_after_their_ttl_and_holds_at_most_its_capacity() {
    let cache = ResponseCache::new(2, Duration::from_millis(200));
    let client = TestClient::connect(server().layer(cache.clone()))
        .await
        .unwrap();
    let runs = || lookups("ttl");
    client
        .call_tool("lookup", json!({"key": "ttl"}))
        .await
        .unwrap();
    client
        .call_tool("lookup", json!({"key": "ttl"}))
        .await
        .unwrap();
    assert_eq!(runs(), 1);
    tokio::time::sleep(Duration::from_millis(400)).await;
    client
        .call_tool("lookup", json!({"key": "ttl"}))
        .await
        .unwrap();
    assert_eq!(runs(), 2, "expired, so run again");
    for key in ["cap-1", "cap-2", "cap-3"] {
        client
            .call_tool("lookup", json!({"key": key}))
            .await
            .unwrap();
    }
    assert_eq!(cache.len(), 2, "bounded");
}

#[tokio::test]
async fn the_cache_never_keeps_errors_nor_results_of_other_tools() {
    let cache = ResponseCache::new(100, Duration::from_secs(60));
    let client = TestClient::connect(server().layer(cache.clone()))
        .await
        .unwrap();
    let (writes, failures) = (
        WRITES.load(Ordering::SeqCst),
        FAILING_LOOKUPS.load(Ordering::SeqCst),
    );
    for _ in 0..2 {
        client
            .call_tool("write", json!({"key": "never-cached"}))
            .await
            .unwrap();
        let failed = client
            .call_tool("failing_lookup", json!({"key": "x"}))
            .await
            .unwrap();
        assert!(failed.is_error);
    }
    assert!(
        WRITES.load(Ordering::SeqCst) - writes >= 2,
        "a write always runs"
    );
    assert_eq!(
        FAILING_LOOKUPS.load(Ordering::SeqCst) - failures,
        2,
        "errors are not kept"
    );
    assert!(cache.is_empty());
}

#[tokio::test]
async fn a_dynamic_tool_has_layers_of_its_own() {
    let server = server();
    server
        .tool_set()
        .add(
            DynamicTool::new(
                "dyn_echo",
                json!({"type": "object"}),
                |_arguments, _ctx| async { "from the handler" },
            )
            .layer(from_fn(|call: ToolRequest, next: Next| async move {
                let result = next.run(call).await;
                CallToolResult::success([mcp_runtime::Content::text(format!(
                    "wrapped: {}",
                    result.content.len()
                ))])
            })),
        )
        .unwrap();
    let client = TestClient::connect(server).await.unwrap();
    let result = client.call_tool("dyn_echo", json!({})).await.unwrap();
    assert_eq!(result.text(), "wrapped: 1");
}

/// The audit events captured by a `tracing` layer.
#[derive(Clone, Default)]
struct Captured(Arc<Mutex<Vec<String>>>);

impl<S: tracing::Subscriber> tracing_subscriber::Layer<S> for Captured {
    fn on_event(&self, event: &tracing::Event<'_>, _: tracing_subscriber::layer::Context<'_, S>) {
        if event.metadata().target() != "mcp_runtime::audit" {
            return;
        }
        struct Fields(Vec<String>);
        impl tracing::field::Visit for Fields {
            fn record_debug(&mut self, field: &tracing::field::Field, value: &dyn std::fmt::Debug) {
                self.0.push(format!("{}={value:?}", field.name()));
            }
        }
        let mut fields = Fields(Vec::new());
        event.record(&mut fields);
        self.0.lock().unwrap().push(fields.0.join(" "));
    }
}

#[tokio::test]
async fn the_audit_layer_records_who_called_what_and_how_it_ended() {
    use tracing_subscriber::prelude::*;
    let captured = Captured::default();
    let _default =
        tracing::subscriber::set_default(tracing_subscriber::registry().with(captured.clone()));
    struct Caller(&'static str);
    let audit = Audit::new().identify(|context| {
        context
            .principal::<Caller>()
            .map(|caller| caller.0.to_owned())
    });
    let client = TestClient::connect(server().local_principal(Caller("ada")).layer(audit))
        .await
        .unwrap();
    client
        .call_tool("write", json!({"key": "audited"}))
        .await
        .unwrap();
    client
        .call_tool("failing_lookup", json!({"key": "audited"}))
        .await
        .unwrap();
    let events = captured.0.lock().unwrap().clone();
    assert_eq!(events.len(), 2, "{events:?}");
    assert!(
        events[0].contains("name=write") && events[0].contains("caller=ada"),
        "{events:?}"
    );
    assert!(events[0].contains("outcome=\"ok\""), "{events:?}");
    assert!(events[0].contains("duration_us="), "{events:?}");
    assert!(
        events[1].contains("name=failing_lookup") && events[1].contains("outcome=\"error\""),
        "{events:?}"
    );
}

/// Today's memo.
#[mcp_resource(uri = "memo://today")]
async fn memo() -> String {
    "Buy milk.".to_owned()
}

/// A greeting.
#[mcp_prompt]
async fn greet(name: String) -> String {
    format!("Say hello to {name}.")
}

/// Refuses prompts for `mallory`, answers `memo://` reads in capitals, panics for `boom`,
/// and leaves tool calls alone.
struct ServedRules;

impl Layer for ServedRules {
    fn call(&self, call: ToolRequest, next: Next) -> LayerFuture {
        next.run(call)
    }

    fn serve(&self, request: ServedRequest, next: Next<ServedRequest>) -> ServedFuture {
        if request.method() == "prompts/get" && request.arguments()["name"] == "mallory" {
            return Box::pin(async {
                Err(RequestError::invalid_request("No prompts for mallory."))
            });
        }
        if request.method() == "prompts/get" && request.arguments()["name"] == "boom" {
            panic!("the layer broke on a prompt");
        }
        let shout = request.method() == "resources/read" && request.name().starts_with("memo://");
        Box::pin(async move {
            let mut result = next.run(request).await?;
            if shout {
                let text = result["contents"][0]["text"]
                    .as_str()
                    .unwrap_or_default()
                    .to_uppercase();
                result["contents"][0]["text"] = text.into();
            }
            Ok(result)
        })
    }
}

#[tokio::test]
async fn layers_see_reads_and_prompts_and_may_refuse_or_rewrite_them() {
    let client = TestClient::connect(server().layer(ServedRules))
        .await
        .unwrap();
    let read = client.read_resource("memo://today").await.unwrap();
    assert_eq!(read.text(), "BUY MILK.");
    let refused = client
        .get_prompt("greet", [("name", "mallory")])
        .await
        .unwrap_err();
    assert_eq!(
        (refused.code, refused.message.as_str()),
        (-32600, "No prompts for mallory.")
    );
    let broken = client
        .get_prompt("greet", [("name", "boom")])
        .await
        .unwrap_err();
    assert_eq!(broken.code, -32603);
    assert_eq!(broken.message, "Prompt `greet` failed: it panicked.");
    let greeting = client.get_prompt("greet", [("name", "ada")]).await.unwrap();
    assert!(
        format!("{greeting:?}").contains("Say hello to ada."),
        "{greeting:?}"
    );
}

#[tokio::test]
async fn the_audit_layer_records_reads_and_prompts_too() {
    use tracing_subscriber::prelude::*;
    let captured = Captured::default();
    let _default =
        tracing::subscriber::set_default(tracing_subscriber::registry().with(captured.clone()));
    let client = TestClient::connect(server().layer(Audit::new()))
        .await
        .unwrap();
    client.read_resource("memo://today").await.unwrap();
    client.get_prompt("greet", [("name", "ada")]).await.unwrap();
    client.read_resource("memo://nowhere").await.unwrap_err();
    let events = captured.0.lock().unwrap().clone();
    assert_eq!(
        events.len(),
        2,
        "an unknown resource is refused before any layer: {events:?}"
    );
    assert!(
        events[0].contains("method=\"resources/read\"") && events[0].contains("name=memo://today"),
        "{events:?}"
    );
    assert!(
        events[0].contains("outcome=\"ok\"") && events[0].contains("caller=-"),
        "{events:?}"
    );
    assert!(
        events[1].contains("method=\"prompts/get\"") && events[1].contains("name=greet"),
        "{events:?}"
    );
}
