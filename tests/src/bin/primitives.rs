//! A server exercising every resource, resource template, prompt and completion shape the
//! runtime supports, for the end-to-end tests (`tests/tests/resources_prompts.rs`).
//! `primitives [--mask-errors] [--call-timeout-ms N]`, over stdio.

use std::time::Duration;

use mcp_runtime::{
    Completing, Content, Context, DynamicPrompt, DynamicResource, EmbeddedResource, Json, Notifier,
    PromptMessage, PromptSet, RenderedPrompt, ResourceContents, ResourceLink, ResourceSet, Server,
    State, ToolError, mcp_prompt, mcp_resource, mcp_tool,
};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// What the server keeps: names of items, for the template and its completion.
struct Inventory {
    items: Vec<&'static str>,
}

/// A short text.
#[mcp_resource(
    uri = "fixed://text",
    mime_type = "text/plain",
    title = "Some text",
    size = 5,
    audience = ["user", "assistant"],
    priority = 0.5,
    last_modified = "2025-01-12T15:00:58Z",
    icon = "https://example.com/text.png"
)]
async fn text() -> &'static str {
    "hello"
}

/// Four bytes.
#[mcp_resource(uri = "fixed://blob", mime_type = "application/octet-stream")]
async fn blob() -> Vec<u8> {
    vec![0, 1, 2, 255]
}

/// A JSON document.
#[derive(Serialize, JsonSchema)]
struct Document {
    name: String,
    size: u32,
}

/// A JSON document, no type stated.
#[mcp_resource(uri = "fixed://json")]
async fn json_document() -> Json<Document> {
    Json(Document {
        name: "report".into(),
        size: 3,
    })
}

/// Two parts, each with its own URI and type.
#[mcp_resource(uri = "fixed://parts")]
async fn parts() -> Vec<EmbeddedResource> {
    vec![
        EmbeddedResource {
            uri: "fixed://parts#1".into(),
            mime_type: Some("text/markdown".into()),
            contents: ResourceContents::Text("# One".into()),
        },
        EmbeddedResource {
            uri: "fixed://parts#2".into(),
            mime_type: Some("image/png".into()),
            contents: ResourceContents::Blob("iVBORw0KGgo=".into()),
        },
    ]
}

/// Fails with a private error.
#[mcp_resource(uri = "fixed://fails")]
async fn fails() -> Result<String, String> {
    Err("secret database detail".into())
}

/// Fails with a public error.
#[mcp_resource(uri = "fixed://refuses")]
async fn refuses() -> Result<String, ToolError> {
    Err(ToolError::new("you may not read this"))
}

/// Panics.
#[mcp_resource(uri = "fixed://panics")]
async fn panics() -> String {
    panic!("secret panic detail")
}

/// Read on a thread of its own.
#[mcp_resource(uri = "fixed://blocking", mime_type = "text/plain")]
fn blocking() -> String {
    std::thread::sleep(Duration::from_millis(5));
    "read on a thread".into()
}

/// Takes its time.
#[mcp_resource(uri = "fixed://slow")]
async fn slow(ctx: Context) -> String {
    tokio::select! {
        () = tokio::time::sleep(Duration::from_secs(30)) => "finished".into(),
        () = ctx.cancelled() => "cancelled".into(),
    }
}

/// Who is reading, in which revision.
#[mcp_resource(uri = "fixed://reader", mime_type = "text/plain")]
async fn reader(ctx: Context) -> String {
    let client = ctx
        .client_info()
        .and_then(|info| info["name"].as_str().map(str::to_owned))
        .unwrap_or_else(|| "unknown".into());
    format!("{client} at {}", ctx.protocol_version())
}

/// One item, by its number.
#[mcp_resource(uri = "items://{id}", mime_type = "text/plain", title = "An item")]
async fn item(
    /// The item's number, from 0.
    #[mcp(complete = item_numbers)]
    id: u64,
    inventory: State<Inventory>,
) -> Result<String, ToolError> {
    let index = usize::try_from(id).map_err(|_| ToolError::new("no such item"))?;
    inventory
        .items
        .get(index)
        .map(|name| (*name).to_owned())
        .ok_or_else(|| ToolError::new(format!("there is no item {id}")))
}

/// Item numbers that start with the digits typed.
async fn item_numbers(request: Completing) -> Vec<String> {
    let count = request
        .state::<Inventory>()
        .map_or(0, |inventory| inventory.items.len());
    (0..count)
        .map(|number| number.to_string())
        .filter(|number| number.starts_with(request.value()))
        .collect()
}

/// A shelf, if there is one of that number: `None` is "resource not found".
#[mcp_resource(uri = "shelves://{number}", mime_type = "text/plain")]
async fn shelf(number: u32) -> Option<String> {
    (number < 2).then(|| format!("shelf {number}"))
}

/// A path of any depth.
#[mcp_resource(uri = "tree://{+path}", mime_type = "text/plain")]
async fn tree(path: String) -> String {
    format!("path {path}")
}

/// Two variables, one a boolean.
#[mcp_resource(uri = "pair://{name}/{flag}")]
async fn pair(name: String, flag: bool) -> String {
    format!("{name}: {flag}")
}

/// Says hello.
#[mcp_prompt(title = "Greeting", icon = "https://example.com/hello.png")]
async fn greet() -> &'static str {
    "Hello!"
}

/// Typed arguments: parsed from their text.
#[mcp_prompt]
async fn typed(
    /// How many times.
    count: u32,
    /// Whether to shout.
    shout: Option<bool>,
    /// Who to greet.
    #[mcp(default = String::from("friend"))]
    name: String,
) -> String {
    let greeting = format!("hi {name}").repeat(count as usize);
    if shout == Some(true) {
        greeting.to_uppercase()
    } else {
        greeting
    }
}

/// Every kind of message content.
#[mcp_prompt]
async fn conversation() -> Vec<PromptMessage> {
    vec![
        PromptMessage::user("What is in this picture?"),
        PromptMessage::user(Content::image(b"\x89PNG", "image/png")),
        PromptMessage::user(Content::audio(b"RIFF", "audio/wav")),
        PromptMessage::assistant(Content::resource_link(ResourceLink::new(
            "fixed://text",
            "text",
        ))),
        PromptMessage::assistant(Content::embedded_text(
            "fixed://text",
            "hello",
            Some("text/plain"),
        )),
    ]
}

/// A topic to write about.
#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Topic {
    /// The sea.
    Sea,
    /// Mountains.
    Mountains,
}

/// Its description depends on its arguments.
#[mcp_prompt]
async fn described(
    /// What to write about.
    #[mcp(complete = topics)]
    topic: Topic,
    /// In what style.
    #[mcp(complete = styles)]
    style: Option<String>,
) -> RenderedPrompt {
    let topic = match topic {
        Topic::Sea => "the sea",
        Topic::Mountains => "mountains",
    };
    RenderedPrompt {
        description: Some(format!("A poem about {topic}")),
        messages: vec![PromptMessage::user(format!(
            "Write a {} poem about {topic}.",
            style.as_deref().unwrap_or("short")
        ))],
    }
}

/// The topics.
fn topics(prefix: &str) -> Vec<&'static str> {
    ["sea", "mountains"]
        .into_iter()
        .filter(|topic| topic.starts_with(prefix))
        .collect()
}

/// 150 styles, more than one answer holds; those of the chosen topic first.
fn styles(prefix: &str, request: &Completing) -> Vec<String> {
    let topic = request.argument("topic").unwrap_or("any");
    (0..150)
        .map(|number| format!("{topic}-style-{number}"))
        .filter(|style| style.starts_with(prefix))
        .collect()
}

/// Fails with a public error.
#[mcp_prompt]
async fn refusing() -> Result<String, ToolError> {
    Err(ToolError::new("no prompt today"))
}

/// Fails with a private error.
#[mcp_prompt]
async fn failing() -> Result<String, String> {
    Err("secret prompt detail".into())
}

/// Rendered on a thread of its own.
#[mcp_prompt]
fn blocking_prompt(
    /// A word.
    word: String,
) -> PromptMessage {
    PromptMessage::assistant(format!("{word}!"))
}

/// Tells subscribers that a resource changed.
#[mcp_tool]
async fn touch(
    /// The resource's URI.
    uri: String,
    notifier: Notifier,
) -> &'static str {
    notifier.resource_updated(uri);
    "touched"
}

/// Tells clients that the lists of resources and prompts changed.
#[mcp_tool]
async fn change_lists(notifier: Notifier) -> &'static str {
    notifier.resource_list_changed();
    notifier.prompt_list_changed();
    "changed"
}

/// Disables (or enables again) a resource or a prompt at run time.
#[mcp_tool]
async fn toggle(
    /// A resource's URI or a prompt's name.
    key: String,
    /// Whether to enable it.
    enable: bool,
    resources: State<ResourceSet>,
    prompts: State<PromptSet>,
) -> String {
    let changed = if enable {
        resources.enable(&key) || prompts.enable(&key)
    } else {
        resources.disable(&key) || prompts.disable(&key)
    };
    format!("changed: {changed}")
}

/// Removes a resource or prompt added at run time.
#[mcp_tool]
async fn forget(
    /// A resource's URI or a prompt's name.
    key: String,
    resources: State<ResourceSet>,
    prompts: State<PromptSet>,
) -> String {
    format!(
        "removed: {}",
        resources.remove(&key) || prompts.remove(&key)
    )
}

/// Resources and a prompt defined at run time, as a server reading them from configuration
/// would add them.
fn add_run_time_entries(resources: &ResourceSet, prompts: &PromptSet) {
    resources
        .add(
            DynamicResource::new("dynamic://motd", "motd", |_request, _context| async {
                "maintenance tonight"
            })
            .title("Message of the day")
            .mime_type("text/plain")
            .size(19),
        )
        .expect("a new URI");
    resources
        .add(
            DynamicResource::new(
                "dynamic://{owner}/{+path}",
                "dynamic-file",
                |request, _context| async move {
                    format!(
                        "{} owns {} (read as {})",
                        request.variable("owner").unwrap_or_default(),
                        request.variable("path").unwrap_or_default(),
                        request.uri()
                    )
                },
            )
            .description("A file of an owner."),
        )
        .expect("a new URI template");
    prompts
        .add(
            DynamicPrompt::new("translate", |arguments, _context| async move {
                let text = &arguments["text"];
                match arguments.get("language") {
                    Some(language) => format!("Translate into {language}: {text}"),
                    None => format!("Translate into English: {text}"),
                }
            })
            .title("Translate")
            .description("Translate a text.")
            .required_argument("text", "What to translate.")
            .optional_argument("language", "Into which language (English by default)."),
        )
        .expect("a new name");
}

#[tokio::main]
async fn main() -> Result<(), mcp_runtime::Error> {
    let server = Server::new("primitives", "1.0.0").state(Inventory {
        items: vec!["apple", "pear", "plum"],
    });
    // Announces `listChanged: true` for resources and prompts.
    let _ = server.notifier();
    let (resources, prompts) = (server.resource_set(), server.prompt_set());
    add_run_time_entries(&resources, &prompts);
    let mut server = server.state(resources).state(prompts);
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        server = match flag.as_str() {
            "--mask-errors" => server.mask_error_details(),
            "--call-timeout-ms" => server.call_timeout(Duration::from_millis(
                args.next()
                    .and_then(|ms| ms.parse().ok())
                    .expect("milliseconds"),
            )),
            other => panic!("unknown argument: {other}"),
        };
    }
    server.serve_stdio().await
}
