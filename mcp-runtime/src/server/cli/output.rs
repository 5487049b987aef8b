//! What the command prints: content blocks, read contents and rendered prompts described for a
//! terminal, the tables of tools, resources, skills and prompts; a tool's result, progress, log
//! messages and failures as they are printed, and the exit status each ends with.

use std::io::Write as _;

use base64::Engine as _;
use serde_json::Value;

use crate::client::{
    ClientCore, Notification, Progress, Prompt, PromptMessages, ReadResult, Resource,
    ResourceTemplate, ResponseError, Skill, SkillResources, Tool, ToolResult,
};

/// `println!` that stops quietly when stdout is closed (`| head`).
macro_rules! say {
    ($($arg:tt)*) => {{
        let mut out = std::io::stdout().lock();
        let _ = writeln!(out, $($arg)*);
    }};
}
pub(super) use say;

/// Exit status of a command that failed: a tool error, a protocol error, a missing tool.
pub(super) const FAILURE: i32 = 1;

/// Exit status of a usage error (what clap uses too).
pub(super) const USAGE: i32 = 2;

/// Prints the error, and its data as JSON; the status of a failed command.
pub(super) fn fail(error: &ResponseError) -> i32 {
    eprintln!("{error}");
    if let Some(data) = &error.data {
        eprintln!("{}", pretty(data));
    }
    FAILURE
}

pub(super) fn print_progress(report: &Progress) {
    let total = report
        .total
        .map(|total| format!("/{total}"))
        .unwrap_or_default();
    let message = report
        .message
        .as_ref()
        .map(|message| format!(" {message}"))
        .unwrap_or_default();
    eprintln!("progress {}{total}{message}", report.progress);
}

pub(super) fn print_notification(notification: &Notification) {
    let params = &notification.params;
    if notification.method == "notifications/message" {
        let data = match &params["data"] {
            Value::String(text) => text.clone(),
            other => other.to_string(),
        };
        eprintln!("log [{}] {data}", params["level"].as_str().unwrap_or("?"));
    } else {
        eprintln!("{} {params}", notification.method);
    }
}

/// Prints the content readably and the structured content as JSON; the status says whether
/// the tool failed.
pub(super) fn print_result(result: &ToolResult) -> i32 {
    let mut printed: Vec<String> = result.content.iter().map(describe_block).collect();
    if let Some(structured) = &result.structured_content {
        printed.push(format!("structuredContent:\n{}", pretty(structured)));
    }
    let printed = printed.join("\n");
    if result.is_error {
        eprintln!("the tool failed:\n{printed}");
        FAILURE
    } else {
        say!("{printed}");
        0
    }
}

/// Prints the log messages (and other notifications) that came before an answer.
pub(super) fn print_queued_notifications(client: &ClientCore) {
    while let Some(notification) = client.try_next_notification() {
        print_notification(&notification);
    }
}

pub(super) fn describe_block(block: &Value) -> String {
    let text = |key: &str| block[key].as_str().unwrap_or_default().to_owned();
    match block["type"].as_str().unwrap_or_default() {
        "text" => text("text"),
        kind @ ("image" | "audio") => format!(
            "[{kind}: {}, {} bytes of base64]",
            text("mimeType"),
            text("data").len()
        ),
        "resource_link" => format!("[resource link: {}]", text("uri")),
        "resource" => {
            let resource = &block["resource"];
            let uri = resource["uri"].as_str().unwrap_or_default();
            match resource["text"].as_str() {
                Some(body) => format!("[resource: {uri}]\n{body}"),
                None => format!("[resource: {uri}, binary]"),
            }
        }
        _ => block.to_string(),
    }
}

/// A resource's contents: a text item as its text, a binary one as its type and size; each
/// headed by its URI when there are several.
pub(super) fn describe_contents(contents: &ReadResult) -> String {
    let several = contents.contents.len() > 1;
    let items: Vec<String> = contents
        .contents
        .iter()
        .map(|item| {
            let body = match (item.text(), &item.blob) {
                (Some(text), _) => text.to_owned(),
                (None, Some(blob)) => format!(
                    "[{}, {} bytes]",
                    item.mime_type.as_deref().unwrap_or("binary"),
                    decoded_len(blob)
                ),
                (None, None) => item.raw.to_string(),
            };
            if several {
                format!("[resource: {}]\n{body}", item.uri)
            } else {
                body
            }
        })
        .collect();
    items.join("\n")
}

/// A rendered prompt: its description, then each message's role and content.
pub(super) fn describe_messages(rendered: &PromptMessages) -> String {
    let mut parts = Vec::new();
    if let Some(description) = &rendered.description {
        parts.push(format!("description: {description}"));
    }
    for message in &rendered.messages {
        parts.push(format!(
            "{}:\n{}",
            message.role,
            describe_message_content(&message.content)
        ));
    }
    parts.join("\n\n")
}

/// A prompt message's content: text as text, media as "[image/png image, 1024 bytes]".
pub(super) fn describe_message_content(block: &Value) -> String {
    let kind = block["type"].as_str().unwrap_or_default();
    match kind {
        "image" | "audio" => format!(
            "[{} {kind}, {} bytes]",
            block["mimeType"].as_str().unwrap_or("unknown"),
            decoded_len(block["data"].as_str().unwrap_or_default())
        ),
        "resource" if block["resource"].get("blob").is_some() => {
            let resource = &block["resource"];
            format!(
                "[resource: {}, {}, {} bytes]",
                resource["uri"].as_str().unwrap_or_default(),
                resource["mimeType"].as_str().unwrap_or("binary"),
                decoded_len(resource["blob"].as_str().unwrap_or_default())
            )
        }
        _ => describe_block(block),
    }
}

/// How many bytes base64 `data` holds.
pub(super) fn decoded_len(data: &str) -> usize {
    base64::engine::general_purpose::STANDARD
        .decode(data)
        .map_or_else(|_| data.len() / 4 * 3, |bytes| bytes.len())
}

pub(super) fn pretty(value: &Value) -> String {
    serde_json::to_string_pretty(value).expect("a JSON value always serializes")
}

/// The `tools` table: name, title, hints, first line of the description; and, when some
/// tool has an MCP Apps view or visibility, a `VIEW` column before the description.
pub(super) fn tools_table(tools: &[Tool]) -> String {
    let rows: Vec<[String; 5]> = tools
        .iter()
        .map(|tool| {
            let title = tool
                .title
                .clone()
                .or_else(|| {
                    let title = tool.annotations.as_ref()?.get("title")?;
                    title.as_str().map(str::to_owned)
                })
                .unwrap_or_default();
            let description = first_line(tool.description.as_deref());
            [
                tool.name.clone(),
                title,
                hints(tool),
                view(tool),
                description,
            ]
        })
        .collect();
    if rows.iter().any(|[.., view, _]| !view.is_empty()) {
        return table(["NAME", "TITLE", "HINTS", "VIEW", "DESCRIPTION"], &rows);
    }
    let rows: Vec<[String; 4]> = rows
        .into_iter()
        .map(|[name, title, hints, _, description]| [name, title, hints, description])
        .collect();
    table(["NAME", "TITLE", "HINTS", "DESCRIPTION"], &rows)
}

/// A tool's MCP Apps view and who may call it, when either differs from a plain tool's:
/// `ui://weather/view (app only)`.
fn view(tool: &Tool) -> String {
    let uri = tool.view_uri().unwrap_or_default();
    let who = match tool.visibility().as_slice() {
        ["app"] => "(app only)",
        ["model"] => "(model only)",
        _ => "",
    };
    [uri, who]
        .into_iter()
        .filter(|part| !part.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The `resources` table: resources, then templates (their URI is the template).
pub(super) fn resources_table(resources: &[Resource], templates: &[ResourceTemplate]) -> String {
    let listed = resources.iter().map(|resource| {
        (
            &resource.uri,
            &resource.name,
            &resource.title,
            &resource.mime_type,
            &resource.description,
        )
    });
    let templated = templates.iter().map(|template| {
        (
            &template.uri_template,
            &template.name,
            &template.title,
            &template.mime_type,
            &template.description,
        )
    });
    let rows: Vec<[String; 5]> = listed
        .chain(templated)
        .map(|(uri, name, title, mime_type, description)| {
            [
                uri.clone(),
                name.clone(),
                title.clone().unwrap_or_default(),
                mime_type.clone().unwrap_or_default(),
                first_line(description.as_deref()),
            ]
        })
        .collect();
    table(["URI", "NAME", "TITLE", "MIME TYPE", "DESCRIPTION"], &rows)
}

/// The `prompts` table: name, title, arguments (`?` after an optional one), description.
pub(super) fn prompts_table(prompts: &[Prompt]) -> String {
    let rows: Vec<[String; 4]> = prompts
        .iter()
        .map(|prompt| {
            let arguments: Vec<String> = prompt
                .arguments
                .iter()
                .map(|argument| {
                    let optional = if argument.required { "" } else { "?" };
                    format!("{}{optional}", argument.name)
                })
                .collect();
            [
                prompt.name.clone(),
                prompt.title.clone().unwrap_or_default(),
                arguments.join(", "),
                first_line(prompt.description.as_deref()),
            ]
        })
        .collect();
    table(["NAME", "TITLE", "ARGUMENTS", "DESCRIPTION"], &rows)
}

/// The `skills` table: name, URI, number of files, description.
pub(super) fn skills_table(skills: &[Skill]) -> String {
    let rows: Vec<[String; 4]> = skills
        .iter()
        .map(|skill| {
            let files = match &skill.resources {
                SkillResources::Files(files) => files.len().to_string(),
                SkillResources::Dynamic(_) => "dynamic".to_owned(),
            };
            [
                skill.name().to_owned(),
                skill.uri.clone(),
                files,
                first_line(Some(skill.description())),
            ]
        })
        .collect();
    table(["NAME", "URI", "FILES", "DESCRIPTION"], &rows)
}

pub(super) fn first_line(text: Option<&str>) -> String {
    text.and_then(|text| text.lines().next())
        .unwrap_or_default()
        .to_owned()
}

/// Columns padded to their widest cell, two spaces apart, no trailing spaces.
pub(super) fn table<const N: usize>(header: [&str; N], rows: &[[String; N]]) -> String {
    let header = header.map(str::to_owned);
    let mut widths = header.clone().map(|cell| cell.chars().count());
    for row in rows {
        for (width, cell) in widths.iter_mut().zip(row) {
            *width = (*width).max(cell.chars().count());
        }
    }
    let mut table = String::new();
    for row in std::iter::once(&header).chain(rows) {
        let line: Vec<String> = row
            .iter()
            .zip(widths)
            .map(|(cell, width)| format!("{cell:width$}"))
            .collect();
        table.push_str(line.join("  ").trim_end());
        table.push('\n');
    }
    table
}

pub(super) fn hints(tool: &Tool) -> String {
    let stated = [
        ("readOnlyHint", "read-only", "writes"),
        ("destructiveHint", "destructive", "not destructive"),
        ("idempotentHint", "idempotent", "not idempotent"),
        ("openWorldHint", "open-world", "closed-world"),
    ];
    let hints: Vec<&str> = stated
        .iter()
        .filter_map(|(key, yes, no)| tool.hint(key).map(|hint| if hint { *yes } else { *no }))
        .collect();
    hints.join(", ")
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn renders_messages_contents_and_tables() {
        let rendered: PromptMessages = serde_json::from_value(json!({
            "description": "A review",
            "messages": [
                {"role": "user", "content": {"type": "text", "text": "Review this."}},
                {"role": "user", "content": {"type": "image", "mimeType": "image/png", "data": "AAECAw=="}},
                {"role": "assistant", "content": {"type": "resource",
                    "resource": {"uri": "docs://a", "mimeType": "text/plain", "text": "body"}}},
            ],
        }))
        .unwrap();
        assert_eq!(
            describe_messages(&rendered),
            "description: A review\n\nuser:\nReview this.\n\nuser:\n[image/png image, 4 bytes]\n\n\
             assistant:\n[resource: docs://a]\nbody"
        );

        let one: ReadResult =
            serde_json::from_value(json!({"contents": [{"uri": "a://1", "text": "# Hi"}]}))
                .unwrap();
        assert_eq!(describe_contents(&one), "# Hi");
        let two: ReadResult = serde_json::from_value(json!({"contents": [
            {"uri": "a://1", "text": "# Hi"},
            {"uri": "a://2", "mimeType": "image/png", "blob": "AAEC"},
        ]}))
        .unwrap();
        assert_eq!(
            describe_contents(&two),
            "[resource: a://1]\n# Hi\n[resource: a://2]\n[image/png, 3 bytes]"
        );

        let resources: Vec<Resource> = serde_json::from_value(json!([
            {"uri": "docs://readme", "name": "readme", "mimeType": "text/markdown",
             "description": "The README.\nMore."},
        ]))
        .unwrap();
        let templates: Vec<ResourceTemplate> = serde_json::from_value(json!([
            {"uriTemplate": "notes://{id}", "name": "note", "title": "Note"},
        ]))
        .unwrap();
        assert_eq!(
            resources_table(&resources, &templates),
            "URI            NAME    TITLE  MIME TYPE      DESCRIPTION\n\
             docs://readme  readme         text/markdown  The README.\n\
             notes://{id}   note    Note\n"
        );
        let tools: Vec<Tool> = serde_json::from_value(json!([
            {"name": "forecast", "inputSchema": {"type": "object"},
             "_meta": {"ui": {"resourceUri": "ui://w/view"}}},
            {"name": "refresh", "inputSchema": {"type": "object"},
             "_meta": {"ui": {"resourceUri": "ui://w/view", "visibility": ["app"]}}},
            {"name": "plain", "inputSchema": {"type": "object"}, "description": "Plain."},
            {"name": "older", "inputSchema": {"type": "object"},
             "_meta": {"ui/resourceUri": "ui://o/view"}},
        ]))
        .unwrap();
        assert_eq!(
            tools_table(&tools),
            "NAME      TITLE  HINTS  VIEW                    DESCRIPTION\n\
             forecast                ui://w/view\n\
             refresh                 ui://w/view (app only)\n\
             plain                                           Plain.\n\
             older                   ui://o/view\n"
        );
        let prompts: Vec<Prompt> = serde_json::from_value(json!([
            {"name": "review", "title": "Code review", "description": "Review code.",
             "arguments": [{"name": "language", "required": true}, {"name": "focus"}]},
            {"name": "hello"},
        ]))
        .unwrap();
        assert_eq!(
            prompts_table(&prompts),
            "NAME    TITLE        ARGUMENTS         DESCRIPTION\n\
             review  Code review  language, focus?  Review code.\n\
             hello\n"
        );
    }
}
