//! Shaping results for the protocol revision in use: nothing is sent that the revision's
//! schema lacks, and content a revision has no block for is sent in the closest form it has.

use serde_json::{Map, Value, json};

use crate::content::{Annotations, Content, ContentBody};
use crate::result::CallToolResult;
use crate::schema::WRAPPED_OUTPUT_KEY;
use crate::version::ProtocolVersion;

/// The JSON of a `CallToolResult`. `wraps_output` says the tool's structured output is
/// published as `{"result": …}` (see [`crate::Json`]).
pub(crate) fn call_tool_result(
    result: CallToolResult,
    version: ProtocolVersion,
    wraps_output: bool,
) -> Value {
    let mut json = Map::new();
    let content: Vec<Value> = result
        .content
        .into_iter()
        .map(|block| content_block(block, version))
        .collect();
    json.insert("content".into(), Value::Array(content));
    if let (true, Some(structured)) = (version.has_structured_output(), result.structured_content) {
        let structured = if wraps_output && !result.is_error {
            json!({ WRAPPED_OUTPUT_KEY: structured })
        } else {
            structured
        };
        json.insert("structuredContent".into(), structured);
    }
    if result.is_error {
        json.insert("isError".into(), true.into());
    }
    Value::Object(json)
}

fn content_block(block: Content, version: ProtocolVersion) -> Value {
    let mut json = match block.body {
        ContentBody::Text { text } => json!({ "type": "text", "text": text }),
        ContentBody::Image { data, mime_type } => {
            json!({ "type": "image", "data": data, "mimeType": mime_type })
        }
        ContentBody::Audio { data, mime_type } if version.has_tool_annotations() => {
            json!({ "type": "audio", "data": data, "mimeType": mime_type })
        }
        ContentBody::Audio { mime_type, .. } => json!({
            "type": "text",
            "text": format!("[{mime_type} audio omitted: protocol revision {version} has no audio content]"),
        }),
        ContentBody::ResourceLink(link) if version.has_structured_output() => {
            let mut json = serde_json::to_value(link).expect("a resource link always serializes");
            json["type"] = "resource_link".into();
            json
        }
        ContentBody::ResourceLink(link) => json!({
            "type": "text",
            "text": format!("{}: {}", link.title.as_deref().unwrap_or(&link.name), link.uri),
        }),
        ContentBody::Resource(resource) => json!({
            "type": "resource",
            "resource": serde_json::to_value(resource).expect("an embedded resource always serializes"),
        }),
    };
    if let Some(annotations) = block.annotations.and_then(|a| annotations(a, version)) {
        json["annotations"] = annotations;
    }
    json
}

fn annotations(mut annotations: Annotations, version: ProtocolVersion) -> Option<Value> {
    if !version.has_structured_output() {
        annotations.last_modified = None;
    }
    if annotations == Annotations::default() {
        return None;
    }
    Some(serde_json::to_value(annotations).expect("annotations always serialize"))
}
