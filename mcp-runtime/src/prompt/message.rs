//! What a prompt renders to: [`PromptMessage`]s, the [`IntoPromptMessages`] conversion every
//! `#[mcp_prompt]` function's return type goes through, and the async and blocking paths
//! the macro runs prompts on.

use std::borrow::Cow;
use std::fmt::Display;
use std::future::Future;
use std::pin::Pin;

use serde_json::{Value, json};

use crate::content::{Content, Role};
use crate::context::log_layer::with_current;
use crate::protocol::version::ProtocolVersion;
use crate::resource::contents::rejection_message;
use crate::tool::extract::ToolCall;
use crate::tool::result::{CallToolResult, ToolError};
use crate::tool::shape::content_block;

/// One message of a rendered prompt: who says it, and what.
///
/// ```
/// use mcp_runtime::{Content, PromptMessage};
///
/// let conversation = vec![
///     PromptMessage::user("What is in this picture?"),
///     PromptMessage::user(Content::image(b"\x89PNG...", "image/png")),
///     PromptMessage::assistant("A cat on a keyboard."),
/// ];
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct PromptMessage {
    /// Who speaks.
    pub role: Role,
    /// What is said: text, an image, audio, an embedded resource or a resource link.
    pub content: Content,
}

impl PromptMessage {
    /// A message from the user (text, or any [`Content`] block).
    pub fn user(content: impl Into<Content>) -> Self {
        PromptMessage {
            role: Role::User,
            content: content.into(),
        }
    }

    /// A message from the assistant.
    pub fn assistant(content: impl Into<Content>) -> Self {
        PromptMessage {
            role: Role::Assistant,
            content: content.into(),
        }
    }

    pub(crate) fn into_json(self, version: ProtocolVersion) -> Value {
        json!({
            "role": self.role,
            "content": content_block(self.content, version),
        })
    }
}

/// One rendering's outcome.
#[doc(hidden)]
#[derive(Clone, Debug, PartialEq)]
pub enum PromptOutcome {
    /// The messages, and a description of this rendering if the function gave one.
    Rendered {
        description: Option<String>,
        messages: Vec<PromptMessage>,
    },
    /// The prompt failed; `public` when the error is a [`ToolError`] (always shown).
    Failed { message: String, public: bool },
    /// A parameter could not be produced (an argument that does not parse).
    Rejected(String),
}

/// A rendered prompt with a description of its own (`description` in `prompts/get`'s
/// result), for a prompt whose description depends on its arguments.
#[derive(Clone, Debug, PartialEq)]
pub struct RenderedPrompt {
    /// What this rendering is.
    pub description: Option<String>,
    /// The messages.
    pub messages: Vec<PromptMessage>,
}

/// Converts what a `#[mcp_prompt]` function returns into its messages.
///
/// | return type | messages |
/// |---|---|
/// | `String`, `&'static str`, `Cow<str>` | one user message holding the text |
/// | [`PromptMessage`], `Vec<PromptMessage>` | those messages |
/// | [`RenderedPrompt`] | its messages and description |
/// | `Result<T, E>` where `T` is any of the above and `E: Display` | `Err` → an error response with the message (hidden by [`Server::mask_error_details`](crate::Server::mask_error_details) unless `E` is [`ToolError`]) |
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be returned from an MCP prompt",
    label = "not a prompt result type",
    note = "a prompt may return `String` (one user message), `&'static str`, `PromptMessage`, `Vec<PromptMessage>` (a conversation), `RenderedPrompt`, or `Result<T, E>` of any of these with `E: Display`"
)]
pub trait IntoPromptMessages {
    /// Performs the conversion.
    fn into_prompt_outcome(self) -> PromptOutcome;
}

fn rendered(messages: Vec<PromptMessage>) -> PromptOutcome {
    PromptOutcome::Rendered {
        description: None,
        messages,
    }
}

impl IntoPromptMessages for String {
    fn into_prompt_outcome(self) -> PromptOutcome {
        rendered(vec![PromptMessage::user(self)])
    }
}

impl IntoPromptMessages for &'static str {
    fn into_prompt_outcome(self) -> PromptOutcome {
        rendered(vec![PromptMessage::user(self)])
    }
}

impl IntoPromptMessages for Cow<'static, str> {
    fn into_prompt_outcome(self) -> PromptOutcome {
        rendered(vec![PromptMessage::user(self.into_owned())])
    }
}

impl IntoPromptMessages for PromptMessage {
    fn into_prompt_outcome(self) -> PromptOutcome {
        rendered(vec![self])
    }
}

impl IntoPromptMessages for Vec<PromptMessage> {
    fn into_prompt_outcome(self) -> PromptOutcome {
        rendered(self)
    }
}

impl IntoPromptMessages for RenderedPrompt {
    fn into_prompt_outcome(self) -> PromptOutcome {
        PromptOutcome::Rendered {
            description: self.description,
            messages: self.messages,
        }
    }
}

impl<T, E> IntoPromptMessages for Result<T, E>
where
    T: IntoPromptMessages,
    E: Display + 'static,
{
    fn into_prompt_outcome(self) -> PromptOutcome {
        match self {
            Ok(value) => value.into_prompt_outcome(),
            Err(error) => PromptOutcome::Failed {
                public: (&error as &dyn std::any::Any).is::<ToolError>(),
                message: error.to_string(),
            },
        }
    }
}

/// The future of one rendering. Panics inside it are caught by the dispatcher.
#[doc(hidden)]
pub type PromptFuture = Pin<Box<dyn Future<Output = PromptOutcome> + Send + 'static>>;

/// Runs an `async fn` prompt: extract its parameters, then await it.
#[doc(hidden)]
pub fn prompt_async<F, Fut>(mut call: ToolCall, prompt: F) -> PromptFuture
where
    F: FnOnce(&mut ToolCall) -> Result<Fut, CallToolResult>,
    Fut: Future + Send + 'static,
    Fut::Output: IntoPromptMessages,
{
    match prompt(&mut call) {
        Ok(running) => Box::pin(async move { running.await.into_prompt_outcome() }),
        Err(rejected) => Box::pin(std::future::ready(PromptOutcome::Rejected(
            rejection_message(rejected),
        ))),
    }
}

/// Runs a plain `fn` prompt on a thread of its own, as plain `fn` tools run.
#[doc(hidden)]
pub fn prompt_blocking<F, G, R>(mut call: ToolCall, prompt: F) -> PromptFuture
where
    F: FnOnce(&mut ToolCall) -> Result<G, CallToolResult>,
    G: FnOnce() -> R + Send + 'static,
    R: IntoPromptMessages + 'static,
{
    let run = match prompt(&mut call) {
        Ok(run) => run,
        Err(rejected) => {
            return Box::pin(std::future::ready(PromptOutcome::Rejected(
                rejection_message(rejected),
            )));
        }
    };
    let context = call.context().clone();
    let forwarded = context.forwards_tracing().then_some(context);
    Box::pin(async move {
        let blocking = crate::tool::blocking::run(move || {
            with_current(forwarded, || run().into_prompt_outcome())
        });
        match blocking.await {
            Ok(outcome) => outcome,
            Err(panic) => std::panic::resume_unwind(panic),
        }
    })
}
