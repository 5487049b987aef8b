use std::borrow::Cow;

use mcp_runtime::{
    Completing, Content, Context, PromptMessage, RenderedPrompt, State, ToolError, mcp_prompt,
};

struct Style;

/// Every return type of `IntoPromptMessages`.
#[mcp_prompt]
async fn string() -> String {
    String::new()
}

#[mcp_prompt]
fn str_slice() -> &'static str {
    "hello"
}

#[mcp_prompt]
async fn cow() -> Cow<'static, str> {
    Cow::Borrowed("")
}

#[mcp_prompt]
async fn message() -> PromptMessage {
    PromptMessage::assistant(Content::text("hi"))
}

#[mcp_prompt]
fn conversation() -> Vec<PromptMessage> {
    vec![PromptMessage::user("a"), PromptMessage::assistant("b")]
}

#[mcp_prompt]
async fn rendered() -> RenderedPrompt {
    RenderedPrompt {
        description: Some("described".to_owned()),
        messages: Vec::new(),
    }
}

#[mcp_prompt]
async fn fallible() -> Result<String, ToolError> {
    Ok(String::new())
}

#[mcp_prompt]
fn fallible_io() -> std::io::Result<Vec<PromptMessage>> {
    Ok(Vec::new())
}

/// Reviews code.
///
/// # Arguments
///
/// * `code` - The code to review.
#[mcp_prompt(
    name = "code-review",
    title = "Code review",
    description = "Reviews code",
    icon = "https://example.com/review.jpeg",
)]
async fn review(
    code: String,
    /// The language.
    #[mcp(complete = languages)]
    language: Option<String>,
    #[mcp(default = 3, rename = "max-findings", complete = counts)]
    max_findings: u32,
    #[mcp(default)]
    strict: bool,
    #[mcp(complete = tones)]
    tone: String,
    #[mcp(complete = styles)]
    style: String,
    ctx: Context,
    state: State<Style>,
) -> Vec<PromptMessage> {
    let _ = (ctx, &*state, strict, tone, style);
    vec![PromptMessage::user(format!("{code} {language:?} {max_findings}"))]
}

/// A prompt of the same name as a tool elsewhere: prompts have names of their own.
#[mcp_prompt(name = "add")]
fn add_prompt() -> String {
    String::new()
}

#[mcp_runtime::mcp_tool]
fn add(a: i32, b: i32) -> i32 {
    a + b
}

fn languages(prefix: &str) -> Vec<String> {
    vec![prefix.to_owned()]
}

fn counts(prefix: &str, request: &Completing) -> Vec<&'static str> {
    let _ = (prefix, request.argument("code"));
    vec!["1", "2"]
}

async fn tones(prefix: String) -> Vec<String> {
    vec![prefix]
}

async fn styles(request: Completing) -> Vec<String> {
    vec![request.value().to_owned()]
}

fn main() {}
