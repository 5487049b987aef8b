//! Shaping results for the protocol revision in use: nothing is sent that the revision's
//! schema lacks, and content a revision has no block for is sent in the closest form it has.

use std::sync::Arc;

use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::{Value, json};

use crate::content::{Annotations, Content, ContentBody};
use crate::protocol::version::ProtocolVersion;
use crate::tool::result::CallToolResult;
use crate::tool::schema::WRAPPED_OUTPUT_KEY;

/// A `CallToolResult` shaped for one revision, serialized straight into the response (no
/// `serde_json::Value` tree for the common text block). Members are written in the order a
/// `serde_json::Map` writes them.
pub(crate) struct ShapedResult {
    content: Blocks,
    structured_content: Option<Value>,
    is_error: bool,
    /// Structured output is published as `{"result": …}` (see [`crate::Json`]).
    wraps_output: bool,
    /// 2026-07-28: the server's identity for `_meta` (shared by every result), which also
    /// adds `resultType`.
    server_info: Option<(&'static str, Arc<Value>)>,
}

/// The content blocks: the tool's own when they are all plain text (the common case, kept
/// without copying), or each as the revision shows it.
enum Blocks {
    PlainText(Vec<Content>),
    Shaped(Vec<Block>),
}

/// One content block: plain text, or any other block as the revision shows it.
enum Block {
    Text(String),
    Shaped(Value),
}

impl ShapedResult {
    pub fn new(result: CallToolResult, version: ProtocolVersion, wraps_output: bool) -> Self {
        let content = if result
            .content
            .iter()
            .all(|block| plain_text(block).is_some())
        {
            Blocks::PlainText(result.content)
        } else {
            Blocks::Shaped(
                result
                    .content
                    .into_iter()
                    .map(|block| match block {
                        Content {
                            body: ContentBody::Text { text },
                            annotations: None,
                        } => Block::Text(text),
                        block => Block::Shaped(content_block(block, version)),
                    })
                    .collect(),
            )
        };
        ShapedResult {
            content,
            structured_content: result
                .structured_content
                .filter(|_| version.has_structured_output()),
            is_error: result.is_error,
            wraps_output,
            server_info: None,
        }
    }

    /// Whether the tool reported an error (`isError`).
    pub fn is_error(&self) -> bool {
        self.is_error
    }

    /// Adds what every 2026-07-28 result carries: `resultType` and, in `_meta` under
    /// `key`, the server's identity.
    pub fn set_server_info(&mut self, key: &'static str, info: Arc<Value>) {
        self.server_info = Some((key, info));
    }

    /// Writes the result as JSON: the same bytes as serializing it. The common result —
    /// plain text blocks and nothing else — is written from literals around each text:
    /// serde's map machinery would write the same keys, quotes and commas a few bytes at a
    /// time, which is most of the cost of serializing a short result.
    #[inline]
    pub fn write_json(&self, out: &mut Vec<u8>) {
        match &self.content {
            Blocks::PlainText(blocks) if self.structured_content.is_none() => {
                out.push(b'{');
                if let Some((key, info)) = &self.server_info {
                    out.extend_from_slice(b"\"_meta\":{");
                    serde_json::to_writer(&mut *out, key).expect("a string always serializes");
                    out.push(b':');
                    serde_json::to_writer(&mut *out, &**info).expect("a value always serializes");
                    out.extend_from_slice(b"},");
                }
                out.extend_from_slice(b"\"content\":[");
                for (index, text) in blocks.iter().filter_map(plain_text).enumerate() {
                    if index > 0 {
                        out.push(b',');
                    }
                    out.extend_from_slice(b"{\"text\":");
                    serde_json::to_writer(&mut *out, text).expect("a string always serializes");
                    out.extend_from_slice(b",\"type\":\"text\"}");
                }
                out.push(b']');
                if self.is_error {
                    out.extend_from_slice(b",\"isError\":true");
                }
                if self.server_info.is_some() {
                    out.extend_from_slice(b",\"resultType\":\"complete\"");
                }
                out.push(b'}');
            }
            _ => serde_json::to_writer(out, self).expect("a result always serializes"),
        }
    }
}

impl Serialize for ShapedResult {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        if let Some((key, info)) = &self.server_info {
            map.serialize_entry("_meta", &OneMember(key, info))?;
        }
        map.serialize_entry("content", &self.content)?;
        if self.is_error {
            map.serialize_entry("isError", &true)?;
        }
        if self.server_info.is_some() {
            map.serialize_entry("resultType", "complete")?;
        }
        match &self.structured_content {
            Some(structured) if self.wraps_output && !self.is_error => {
                map.serialize_entry(
                    "structuredContent",
                    &OneMember(WRAPPED_OUTPUT_KEY, structured),
                )?;
            }
            Some(structured) => map.serialize_entry("structuredContent", structured)?,
            None => {}
        }
        map.end()
    }
}

/// The text of a block with no annotations, the only kind sent the same in every revision.
fn plain_text(block: &Content) -> Option<&str> {
    match block {
        Content {
            body: ContentBody::Text { text },
            annotations: None,
        } => Some(text),
        _ => None,
    }
}

impl Serialize for Blocks {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Blocks::PlainText(blocks) => {
                serializer.collect_seq(blocks.iter().filter_map(plain_text).map(TextBlock))
            }
            Blocks::Shaped(blocks) => blocks.serialize(serializer),
        }
    }
}

impl Serialize for Block {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Block::Text(text) => TextBlock(text).serialize(serializer),
            Block::Shaped(block) => block.serialize(serializer),
        }
    }
}

/// `{"text": …, "type": "text"}`.
struct TextBlock<'a>(&'a str);

impl Serialize for TextBlock<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(2))?;
        map.serialize_entry("text", self.0)?;
        map.serialize_entry("type", "text")?;
        map.end()
    }
}

/// `{"key": value}`.
struct OneMember<'a>(&'a str, &'a Value);

impl Serialize for OneMember<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(1))?;
        map.serialize_entry(self.0, self.1)?;
        map.end()
    }
}

pub(crate) fn content_block(block: Content, version: ProtocolVersion) -> Value {
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

pub(crate) fn annotations(mut annotations: Annotations, version: ProtocolVersion) -> Option<Value> {
    if !version.has_structured_output() {
        annotations.last_modified = None;
    }
    if annotations == Annotations::default() {
        return None;
    }
    Some(serde_json::to_value(annotations).expect("annotations always serialize"))
}

#[cfg(test)]
mod tests {
    use serde_json::Map;

    use super::*;
    use crate::content::{ResourceLink, Role};

    /// The result shaped as a `Value` tree: what `write_json` must match byte for byte.
    fn shaped_as_value(result: CallToolResult, version: ProtocolVersion, wraps: bool) -> Value {
        let mut json = Map::new();
        let content: Vec<Value> = result
            .content
            .into_iter()
            .map(|block| content_block(block, version))
            .collect();
        json.insert("content".into(), Value::Array(content));
        if let (true, Some(structured)) =
            (version.has_structured_output(), result.structured_content)
        {
            let structured = if wraps && !result.is_error {
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

    fn written(result: &ShapedResult) -> String {
        let mut out = Vec::new();
        result.write_json(&mut out);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn serializes_exactly_as_the_value_it_stands_for() {
        let link = ResourceLink::new("file:///a.txt", "a.txt");
        let results = [
            CallToolResult::success([Content::text("plain \"quoted\" \u{1F600}\n")]),
            CallToolResult::success([
                Content::text("one\u{0}\u{1f}\\"),
                Content::text(""),
                Content::text("three \u{7f} \u{2028}"),
            ]),
            CallToolResult::success([]),
            CallToolResult::error("it failed"),
            CallToolResult::structured(json!({ "a": [1, 2.5, null], "b": { "c": "d" } })),
            CallToolResult {
                is_error: true,
                ..CallToolResult::structured(json!({ "x": 1 }))
            },
            CallToolResult::success([
                Content::text("first").with_audience([Role::User]),
                Content::text("second").with_priority(0.5),
                Content::image(b"png", "image/png"),
                Content::audio(b"wav", "audio/wav").with_priority(1.0),
                Content::resource_link(link),
                Content::embedded_text("file:///b.txt", "contents", Some("text/plain")),
            ]),
        ];
        for version in ProtocolVersion::ALL {
            for wraps in [false, true] {
                for result in &results {
                    let direct = ShapedResult::new(result.clone(), version, wraps);
                    let value = shaped_as_value(result.clone(), version, wraps);
                    assert_eq!(
                        serde_json::to_string(&direct).unwrap(),
                        value.to_string(),
                        "{version} wraps={wraps} {result:?}"
                    );
                    assert_eq!(
                        written(&direct),
                        value.to_string(),
                        "{version} wraps={wraps} {result:?}"
                    );
                    // 2026-07-28 adds `resultType` and the server's identity.
                    let info = json!({ "name": "s", "version": "1" });
                    let mut direct = direct;
                    let shared = Arc::new(info.clone());
                    direct.set_server_info("io.modelcontextprotocol/serverInfo", shared);
                    let mut value = value;
                    value["resultType"] = "complete".into();
                    value["_meta"] = json!({ "io.modelcontextprotocol/serverInfo": info });
                    assert_eq!(serde_json::to_string(&direct).unwrap(), value.to_string());
                    assert_eq!(written(&direct), value.to_string());
                }
            }
        }
    }
}
