//! The resources, prompts and completion of the conformance suite's reference server (the
//! `resources-*`, `prompts-*` and `completion-complete` scenarios; exact behaviour in
//! `interop/CONFORMANCE_FIXTURES.md`).

use mcp_runtime::{Content, PromptMessage, mcp_prompt, mcp_resource};

use crate::PNG_1X1_RED;

/// A static text resource for testing
#[mcp_resource(uri = "test://static-text", mime_type = "text/plain")]
async fn static_text() -> &'static str {
    "This is the content of the static text resource."
}

/// A static binary resource (image) for testing
#[mcp_resource(uri = "test://static-binary", mime_type = "image/png")]
async fn static_binary() -> Vec<u8> {
    use base64::Engine as _;
    base64::engine::general_purpose::STANDARD
        .decode(PNG_1X1_RED)
        .expect("the fixture image is valid base64")
}

/// A resource template with parameter substitution
#[mcp_resource(uri = "test://template/{id}/data", mime_type = "application/json")]
async fn template_data(id: String) -> String {
    serde_json::json!({
        "id": id,
        "templateTest": true,
        "data": format!("Data for ID: {id}"),
    })
    .to_string()
}

/// A resource that can be subscribed to for updates
#[mcp_resource(uri = "test://watched-resource", mime_type = "text/plain")]
async fn watched_resource() -> &'static str {
    "Watched resource content"
}

/// A simple prompt without arguments
#[mcp_prompt]
async fn test_simple_prompt() -> &'static str {
    "This is a simple prompt for testing."
}

/// A prompt with required arguments
#[mcp_prompt]
async fn test_prompt_with_arguments(
    /// First test argument
    #[mcp(complete = suggestions)]
    arg1: String,
    /// Second test argument
    arg2: String,
) -> String {
    format!("Prompt with arguments: arg1='{arg1}', arg2='{arg2}'")
}

/// Completion candidates for `arg1`: the suite asks with `test` and accepts any list.
fn suggestions(prefix: &str) -> Vec<String> {
    ["test", "testing", "tested", "other"]
        .into_iter()
        .filter(|candidate| candidate.starts_with(prefix))
        .map(str::to_owned)
        .collect()
}

/// A prompt with an embedded resource
#[mcp_prompt]
async fn test_prompt_with_embedded_resource(
    /// URI of the resource to embed
    #[mcp(rename = "resourceUri")]
    resource_uri: String,
) -> Vec<PromptMessage> {
    vec![
        PromptMessage::user(Content::embedded_text(
            resource_uri,
            "Embedded resource content for testing.",
            Some("text/plain"),
        )),
        PromptMessage::user("Please process the embedded resource above."),
    ]
}

/// A prompt with image content
#[mcp_prompt]
async fn test_prompt_with_image() -> Vec<PromptMessage> {
    vec![
        PromptMessage::user(Content::image_base64(PNG_1X1_RED, "image/png")),
        PromptMessage::user("Please analyze the image above."),
    ]
}
