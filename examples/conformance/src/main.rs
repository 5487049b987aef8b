//! The tool surface of the official conformance suite's reference server
//! (`@modelcontextprotocol/conformance`; exact behaviour in `interop/CONFORMANCE_FIXTURES.md`).
//!
//! Served over stdio, or over Streamable HTTP with `--http ADDR` (the suite speaks only
//! HTTP: `interop/conformance_suite.sh` runs it; there the server closes call streams after
//! 300 ms, "SSE polling", and clients resume them). The fixtures of the handshake-era scenarios
//! are here: the sampling and elicitation ones ask the client during the call (under
//! 2026-07-28 through an `input_required` round), and `json_schema_2020_12_tool` is a
//! [`DynamicTool`] with a hand-written 2020-12 input schema. Those of the 2026-07-28
//! scenarios are in `stateless` and `input_rounds`, those of the tasks extension in `tasks`.

mod input_rounds;
mod primitives;
mod skills;
mod stateless;
mod tasks;

use std::time::Duration;

use mcp_runtime::{
    Content, Context, DynamicTool, Elicitation, LogLevel, SamplingRequest, Server, mcp_tool,
};
use serde_json::{Map, Value, json};

/// A 1×1 red PNG.
pub(crate) const PNG_1X1_RED: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";
/// The smallest WAV file.
const WAV_MINIMAL: &str = "UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=";

/// Tests simple text content response
#[mcp_tool]
async fn test_simple_text() -> &'static str {
    "This is a simple text response for testing."
}

/// Tests image content response
#[mcp_tool]
async fn test_image_content() -> Content {
    Content::image_base64(PNG_1X1_RED, "image/png")
}

/// Tests audio content response
#[mcp_tool]
async fn test_audio_content() -> Content {
    Content::audio_base64(WAV_MINIMAL, "audio/wav")
}

/// Tests embedded resource content response
#[mcp_tool]
async fn test_embedded_resource() -> Content {
    Content::embedded_text(
        "test://embedded-resource",
        "This is an embedded resource content.",
        Some("text/plain"),
    )
}

/// Tests response with multiple content types (text, image, resource)
#[mcp_tool]
async fn test_multiple_content_types() -> Vec<Content> {
    vec![
        Content::text("Multiple content types test:"),
        Content::image_base64(PNG_1X1_RED, "image/png"),
        Content::embedded_text(
            "test://mixed-content-resource",
            r#"{"test":"data","value":123}"#,
            Some("application/json"),
        ),
    ]
}

/// Tests tool that emits log messages during execution
#[mcp_tool]
async fn test_tool_with_logging(ctx: Context) -> &'static str {
    ctx.log(LogLevel::Info, "Tool execution started");
    tokio::time::sleep(Duration::from_millis(50)).await;
    ctx.log(LogLevel::Info, "Tool processing data");
    tokio::time::sleep(Duration::from_millis(50)).await;
    ctx.log(LogLevel::Info, "Tool execution completed");
    "Tool with logging executed successfully"
}

/// How long a call stream stays open over HTTP before the server closes it mid-call (SSE
/// polling, 2025-11-25 sessions), and how long clients wait before they reconnect.
const SSE_POLLING: Duration = Duration::from_millis(300);
const SSE_RETRY: Duration = Duration::from_millis(200);

/// Tests SSE stream disconnection and client reconnection (SEP-1699)
#[mcp_tool]
async fn test_reconnection() -> &'static str {
    // Over HTTP the server closes this call's stream after `SSE_POLLING` (the client then
    // resumes it with `Last-Event-ID`); the answer comes half a polling interval later, on
    // the resumed stream, before that one is closed too.
    tokio::time::sleep(SSE_POLLING * 3 / 2).await;
    "Reconnection test completed successfully"
}

/// Tests error response handling
#[mcp_tool]
async fn test_error_handling() -> Result<String, String> {
    Err("This tool intentionally returns an error for testing".to_owned())
}

/// Tests tool that reports progress notifications
#[mcp_tool]
async fn test_tool_with_progress(ctx: Context) -> &'static str {
    for (step, done) in [0.0, 50.0, 100.0].into_iter().enumerate() {
        if step > 0 {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        let message = format!("Completed step {done} of 100");
        ctx.progress(done, Some(100.0), Some(&message));
    }
    "Progress test completed"
}

/// The user's answer to an elicitation as the reference server prints it:
/// `action=ACTION, content=JSON` (`{}` unless accepted), the content's keys in the order of the
/// requested schema's properties (serde_json's maps are sorted; JavaScript keeps insertion order).
fn describe_answer(answer: Elicitation<Map<String, Value>>, order: &[&str]) -> String {
    let (action, content) = match answer {
        Elicitation::Accepted(content) => ("accept", content),
        Elicitation::Declined => ("decline", Map::new()),
        Elicitation::Cancelled => ("cancel", Map::new()),
    };
    let mut fields: Vec<(&String, &Value)> = content.iter().collect();
    fields.sort_by_key(|(key, _)| {
        order
            .iter()
            .position(|known| known == key)
            .unwrap_or(order.len())
    });
    let fields: Vec<String> = fields
        .into_iter()
        .map(|(key, value)| format!("{}:{value}", Value::String(key.clone())))
        .collect();
    format!("action={action}, content={{{}}}", fields.join(","))
}

/// Tests server-initiated sampling (LLM completion request)
#[mcp_tool]
async fn test_sampling(
    /// The prompt to send to the LLM
    prompt: String,
    ctx: Context,
) -> Result<String, String> {
    let response = ctx
        .sample(SamplingRequest::new(100).user(prompt))
        .await
        .map_err(|error| format!("Sampling failed: {error}"))?;
    let text = match response.text() {
        Some(text) => text.to_owned(),
        None => response.content.to_string(),
    };
    Ok(format!("LLM response: {text}"))
}

/// Tests server-initiated elicitation (user input request)
#[mcp_tool]
async fn test_elicitation(
    /// The message to show the user
    message: String,
    ctx: Context,
) -> Result<String, String> {
    let schema = json!({
        "type": "object",
        "properties": {
            "username": {"type": "string", "description": "User's response"},
            "email": {"type": "string", "description": "User's email address"},
        },
        "required": ["username", "email"],
    });
    let answer = ctx
        .elicit_with_schema(message, schema)
        .await
        .map_err(|error| format!("Elicitation failed: {error}"))?;
    Ok(format!(
        "User response: {}",
        describe_answer(answer, &["username", "email"])
    ))
}

/// Tests elicitation with default values per SEP-1034
#[mcp_tool]
async fn test_elicitation_sep1034_defaults(ctx: Context) -> Result<String, String> {
    let schema = json!({
        "type": "object",
        "properties": {
            "name": {"type": "string", "description": "User name", "default": "John Doe"},
            "age": {"type": "integer", "description": "User age", "default": 30},
            "score": {"type": "number", "description": "User score", "default": 95.5},
            "status": {
                "type": "string",
                "description": "User status",
                "enum": ["active", "inactive", "pending"],
                "default": "active",
            },
            "verified": {"type": "boolean", "description": "Verification status", "default": true},
        },
        "required": [],
    });
    let answer = ctx
        .elicit_with_schema(
            "Please review and update the form fields with defaults",
            schema,
        )
        .await
        .map_err(|error| format!("Elicitation failed: {error}"))?;
    Ok(format!(
        "Elicitation completed: {}",
        describe_answer(answer, &["name", "age", "score", "status", "verified"])
    ))
}

/// Tests elicitation with enum schema improvements per SEP-1330
#[mcp_tool]
async fn test_elicitation_sep1330_enums(ctx: Context) -> Result<String, String> {
    let titled = |titles: [&str; 3]| -> Vec<Value> {
        ["value1", "value2", "value3"]
            .into_iter()
            .zip(titles)
            .map(|(value, title)| json!({"const": value, "title": title}))
            .collect()
    };
    let schema = json!({
        "type": "object",
        "properties": {
            "untitledSingle": {
                "type": "string",
                "description": "Select one option",
                "enum": ["option1", "option2", "option3"],
            },
            "titledSingle": {
                "type": "string",
                "description": "Select one option with titles",
                "oneOf": titled(["First Option", "Second Option", "Third Option"]),
            },
            "legacyEnum": {
                "type": "string",
                "description": "Select one option (legacy)",
                "enum": ["opt1", "opt2", "opt3"],
                "enumNames": ["Option One", "Option Two", "Option Three"],
            },
            "untitledMulti": {
                "type": "array",
                "description": "Select multiple options",
                "minItems": 1,
                "maxItems": 3,
                "items": {"type": "string", "enum": ["option1", "option2", "option3"]},
            },
            "titledMulti": {
                "type": "array",
                "description": "Select multiple options with titles",
                "minItems": 1,
                "maxItems": 3,
                "items": {"anyOf": titled(["First Choice", "Second Choice", "Third Choice"])},
            },
        },
        "required": [],
    });
    let answer = ctx
        .elicit_with_schema("Please select options from the enum fields", schema)
        .await
        .map_err(|error| format!("Elicitation failed: {error}"))?;
    let order = [
        "untitledSingle",
        "titledSingle",
        "legacyEnum",
        "untitledMulti",
        "titledMulti",
    ];
    Ok(format!(
        "Elicitation completed: {}",
        describe_answer(answer, &order)
    ))
}

/// `json_schema_2020_12_tool`: its input schema uses 2020-12 keywords (`$schema`, `$defs`
/// with an `$anchor`, `$ref`, `allOf`/`anyOf`, `if`/`then`/`else`, `additionalProperties`) and
/// is listed exactly as written, so it is registered at run time with a hand-written schema
/// rather than derived by `#[mcp_tool]`.
fn json_schema_2020_12_tool() -> DynamicTool {
    let schema = json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "$defs": {
            "address": {
                "$anchor": "addressDef",
                "type": "object",
                "properties": {"street": {"type": "string"}, "city": {"type": "string"}},
            },
        },
        "properties": {
            "name": {"type": "string"},
            "address": {"$ref": "#/$defs/address"},
            "contactMethod": {"type": "string", "enum": ["phone", "email"]},
            "phone": {"type": "string"},
            "email": {"type": "string"},
        },
        "allOf": [{"anyOf": [{"required": ["phone"]}, {"required": ["email"]}]}],
        "if": {
            "properties": {"contactMethod": {"const": "phone"}},
            "required": ["contactMethod"],
        },
        "then": {"required": ["phone"]},
        "else": {"required": ["email"]},
        "additionalProperties": false,
    });
    DynamicTool::new(
        "json_schema_2020_12_tool",
        schema,
        |arguments, _ctx| async move {
            format!(
                "JSON Schema 2020-12 tool called with: {}",
                Value::Object(arguments)
            )
        },
    )
    .description("Tool with JSON Schema 2020-12 features for conformance testing (SEP-1613)")
}

/// `conformance` serves stdio; `conformance --http 127.0.0.1:8080` serves Streamable HTTP at
/// `http://127.0.0.1:8080/mcp`; `--redis redis://127.0.0.1:6379` after it makes the instance
/// one of a fleet sharing that Redis.
#[tokio::main]
async fn main() -> Result<(), mcp_runtime::Error> {
    let server = Server::new("mcp-conformance-test-server", env!("CARGO_PKG_VERSION"));
    let (tools, prompts) = (server.tool_set(), server.prompt_set());
    tools.add(json_schema_2020_12_tool())?;
    // The list-change triggers of the `server-stateless` scenario change these sets.
    let server = server.state(tools).state(prompts);
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.as_slice() {
        [] => server.serve_stdio().await,
        [http, address, rest @ ..] if http == "--http" => {
            let mut http = server.http().sse_polling(SSE_POLLING).sse_retry(SSE_RETRY);
            match rest {
                [] => {}
                // A fleet: instances sharing sessions, streams and tasks through Redis.
                [redis, url] if redis == "--redis" => http = http.redis(url),
                _ => usage(),
            }
            http.serve(address).await
        }
        _ => usage(),
    }
}

fn usage() -> ! {
    eprintln!("usage: conformance [--http ADDRESS:PORT [--redis redis://HOST:PORT]]");
    std::process::exit(2)
}
