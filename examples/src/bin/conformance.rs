//! The tool surface of the official conformance suite's reference server
//! (`@modelcontextprotocol/conformance`; exact behaviour in `interop/CONFORMANCE_FIXTURES.md`).
//!
//! Served over stdio, or over Streamable HTTP with `--http ADDR` (the suite speaks only
//! HTTP: `interop/conformance_suite.sh` runs it). Not yet here: `test_sampling`,
//! `test_elicitation`, `test_elicitation_sep1034_defaults`, `test_elicitation_sep1330_enums`
//! (they need requests from the server to the client) and `json_schema_2020_12_tool` (it needs
//! a hand-written input schema, which tools registered at run time will allow).

use std::time::Duration;

use mcp_runtime::{Content, Context, LogLevel, Server, mcp_tool};

/// A 1×1 red PNG.
const PNG_1X1_RED: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";
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

/// `conformance` serves stdio; `conformance --http 127.0.0.1:8080` serves Streamable HTTP at
/// `http://127.0.0.1:8080/mcp`.
#[tokio::main]
async fn main() -> Result<(), mcp_runtime::Error> {
    let server = Server::new("mcp-conformance-test-server", env!("CARGO_PKG_VERSION"));
    let mut args = std::env::args().skip(1);
    match (args.next().as_deref(), args.next()) {
        (None, _) => server.serve_stdio().await,
        (Some("--http"), Some(address)) => server.serve_http(address).await,
        _ => {
            eprintln!("usage: conformance [--http ADDRESS:PORT]");
            std::process::exit(2)
        }
    }
}
