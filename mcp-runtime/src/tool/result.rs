//! Tool results: [`CallToolResult`], the [`IntoCallToolResult`] conversion every tool's
//! return type goes through, and [`Json`] for structured output.

use std::borrow::Cow;
use std::fmt::Display;

use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde::Serialize;
use serde_json::Value;

use crate::content::Content;

/// The outcome of one `tools/call`, before it is shaped for the client's protocol revision.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CallToolResult {
    /// Content blocks shown to the client (may be empty).
    pub content: Vec<Content>,
    /// Structured output, checked against the tool's `outputSchema` by clients.
    pub structured_content: Option<Value>,
    /// Whether the tool failed. A failed call is still a successful JSON-RPC response, so
    /// the model sees the message and can correct itself.
    pub is_error: bool,
    /// Whether this is the message of an error the tool did not mark public (any `Err`
    /// other than a [`ToolError`]): hidden from clients by
    /// [`Server::mask_error_details`](crate::Server::mask_error_details).
    pub(crate) private_error: bool,
    /// 2026-07-28: the call stopped to wait for input the client has not given; the
    /// client gets `input_required`, not this result. Set by the runtime only.
    pub(crate) awaits_input: bool,
    /// The client capability whose absence the tool gave up on (a [`ToolError`] made from
    /// [`ClientRequestError::Unsupported`](crate::ClientRequestError::Unsupported)): under
    /// 2026-07-28 the call is answered -32021 naming it.
    pub(crate) missing_capability: Option<&'static str>,
    /// The tool (or a layer) panicked: under 2026-07-28 a task then ends `failed`, as a
    /// server's internal failure does, rather than `completed` with this `isError`.
    pub(crate) panicked: bool,
}

impl CallToolResult {
    /// A successful result with these content blocks.
    pub fn success(content: impl IntoIterator<Item = Content>) -> Self {
        CallToolResult {
            content: content.into_iter().collect(),
            structured_content: None,
            is_error: false,
            private_error: false,
            awaits_input: false,
            missing_capability: None,
            panicked: false,
        }
    }

    /// A failed call (`isError: true`) whose text says what went wrong.
    pub fn error(message: impl Into<String>) -> Self {
        CallToolResult {
            content: vec![Content::text(message)],
            structured_content: None,
            is_error: true,
            private_error: false,
            awaits_input: false,
            missing_capability: None,
            panicked: false,
        }
    }

    /// Whether the call stopped to wait for input the client has not given yet (2026-07-28
    /// input rounds): the client is answered `input_required` and calls again with the
    /// input, so this placeholder result (no content) must not be kept or counted as an
    /// answer. Layers see it; they should pass it on.
    pub fn awaits_input(&self) -> bool {
        self.awaits_input
    }

    /// A successful result carrying `value` as `structuredContent` and as a JSON text block.
    pub fn structured(value: Value) -> Self {
        CallToolResult {
            content: vec![Content::text(value.to_string())],
            structured_content: Some(value),
            is_error: false,
            private_error: false,
            awaits_input: false,
            missing_capability: None,
            panicked: false,
        }
    }
}

/// Converts a tool's return value into a [`CallToolResult`].
///
/// | return type | result |
/// |---|---|
/// | `String`, `&'static str`, `Cow<str>`, `char`, numbers, `bool` | one text block |
/// | `()` | no content |
/// | [`Json<T>`] | `structuredContent` + the same JSON as text; `outputSchema` from `T` |
/// | [`Content`], `Vec<Content>` | those blocks |
/// | [`CallToolResult`] | as is |
/// | `Result<T, E>` where `T` is any of the above and `E: Display` | `Err` → `isError: true` with the error's message (hidden by [`Server::mask_error_details`](crate::Server::mask_error_details) unless `E` is [`ToolError`]) |
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be returned from an MCP tool",
    label = "not a tool result type",
    note = "a tool may return `String`, `&'static str`, a number, `bool`, `()`, `mcp_runtime::Json<T>` (T: Serialize + JsonSchema), `Content`, `Vec<Content>`, `CallToolResult`, or `Result<T, E>` of any of these with `E: Display`",
    note = "to return your own type as structured output, wrap it: `Json<{Self}>`"
)]
pub trait IntoCallToolResult {
    /// Performs the conversion.
    fn into_call_tool_result(self) -> CallToolResult;

    /// The schema of the structured output this type produces, if any.
    fn output_schema(_generator: &mut SchemaGenerator) -> Option<Schema> {
        None
    }
}

impl IntoCallToolResult for CallToolResult {
    fn into_call_tool_result(self) -> CallToolResult {
        self
    }
}

impl IntoCallToolResult for Content {
    fn into_call_tool_result(self) -> CallToolResult {
        // A `Vec` rather than an array: collected into itself, where an array's one block
        // (about 200 bytes) is copied out of it and into the list.
        CallToolResult::success(vec![self])
    }
}

impl IntoCallToolResult for Vec<Content> {
    fn into_call_tool_result(self) -> CallToolResult {
        CallToolResult::success(self)
    }
}

impl IntoCallToolResult for () {
    fn into_call_tool_result(self) -> CallToolResult {
        CallToolResult::success([])
    }
}

/// Text and plain values become one text block: strings as they are (an owned `String`
/// without a copy), everything else as it displays.
macro_rules! text_results {
    (strings: $($text:ty),* ; displayed: $($shown:ty),* $(,)?) => {
        $(
            impl IntoCallToolResult for $text {
                fn into_call_tool_result(self) -> CallToolResult {
                    CallToolResult::success(vec![Content::text(self)])
                }
            }
        )*
        $(
            impl IntoCallToolResult for $shown {
                fn into_call_tool_result(self) -> CallToolResult {
                    CallToolResult::success(vec![Content::text(self.to_string())])
                }
            }
        )*
    };
}

text_results!(
    strings: String, &'static str, Cow<'static, str>, char;
    displayed: bool,
    i8,
    i16,
    i32,
    i64,
    i128,
    isize,
    u8,
    u16,
    u32,
    u64,
    u128,
    usize,
    f32,
    f64,
);

impl<T, E> IntoCallToolResult for Result<T, E>
where
    T: IntoCallToolResult,
    E: Display + 'static,
{
    fn into_call_tool_result(self) -> CallToolResult {
        match self {
            Ok(value) => value.into_call_tool_result(),
            Err(error) => {
                let public = (&error as &dyn std::any::Any).downcast_ref::<ToolError>();
                let mut result = CallToolResult::error(error.to_string());
                result.private_error = public.is_none();
                result.missing_capability = public.and_then(|error| error.missing_capability);
                result
            }
        }
    }

    fn output_schema(generator: &mut SchemaGenerator) -> Option<Schema> {
        T::output_schema(generator)
    }
}

/// An error whose message is meant for the client: always shown, even when the server
/// [masks error details](crate::Server::mask_error_details). Return it from a tool
/// (`Result<T, ToolError>`) for failures the model should read and act on — "no such
/// city", "the quota is used up" — and let other error types carry internal detail.
///
/// A panic whose payload is a `ToolError` (`std::panic::panic_any(ToolError::new(..))`)
/// shows its message too; any other panic is reported only as "the tool panicked".
///
/// ```
/// use mcp_runtime::{mcp_tool, ToolError};
///
/// /// Look up a user.
/// #[mcp_tool(read_only)]
/// async fn user(id: u64) -> Result<String, ToolError> {
///     if id == 0 {
///         return Err(ToolError::new("user ids start at 1"));
///     }
///     Ok(format!("user {id}"))
/// }
/// ```
///
/// A `ToolError` made from [`ClientRequestError::Unsupported`](crate::ClientRequestError::Unsupported)
/// (`ctx.sample(..).await?` when the client did not declare `sampling`) remembers the missing
/// capability: under 2026-07-28 the call is then answered with the JSON-RPC error -32021 that
/// names it, as that revision asks of a request that needs an undeclared capability; in
/// earlier revisions it is the usual `isError` result.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ToolError {
    message: String,
    missing_capability: Option<&'static str>,
}

impl ToolError {
    /// An error with this message for the client.
    pub fn new(message: impl Into<String>) -> Self {
        ToolError {
            message: message.into(),
            missing_capability: None,
        }
    }

    /// The message.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl Display for ToolError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ToolError {}

impl From<String> for ToolError {
    fn from(message: String) -> Self {
        ToolError::new(message)
    }
}

impl From<&str> for ToolError {
    fn from(message: &str) -> Self {
        ToolError::new(message)
    }
}

/// So `ctx.elicit(..).await?` works in a tool returning `Result<_, ToolError>`.
impl From<crate::ClientRequestError> for ToolError {
    fn from(error: crate::ClientRequestError) -> Self {
        let missing_capability = match &error {
            crate::ClientRequestError::Unsupported { capability, .. } => Some(*capability),
            _ => None,
        };
        ToolError {
            message: error.to_string(),
            missing_capability,
        }
    }
}

/// Structured tool output: `T` is sent as `structuredContent` (and mirrored as a JSON text
/// block for clients that only read text), and `tools/list` advertises `T`'s schema as the
/// tool's `outputSchema`.
///
/// MCP requires structured output to be a JSON object (before 2026-07-28). When `T`'s schema
/// is not an object — a `Vec`, a number, an enum — the runtime wraps it as
/// `{"result": <value>}`, in the `outputSchema` and in every `structuredContent`, for every
/// protocol revision, so one schema describes the data whichever revision a client speaks.
///
/// ```
/// use mcp_runtime::{mcp_tool, Json};
///
/// #[derive(serde::Serialize, schemars::JsonSchema)]
/// struct Weather { temperature: f64, conditions: String }
///
/// /// Current weather for a city.
/// #[mcp_tool(read_only, open_world)]
/// async fn weather(city: String) -> Json<Weather> {
///     Json(Weather { temperature: 21.5, conditions: format!("sunny in {city}") })
/// }
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Json<T>(pub T);

/// What a tool's `Json<T>` output needs of `T`: a bound of the crate's own, so that a type
/// without them gets an error that names the fix rather than two about schemars' trait.
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a tool's structured output",
    label = "`Json<{Self}>` needs `{Self}: serde::Serialize + schemars::JsonSchema`",
    note = "structured output is sent as JSON and its schema published as the tool's `outputSchema`: add `#[derive(serde::Serialize, schemars::JsonSchema)]` to `{Self}` (both crates at the versions mcp-runtime uses: serde 1, schemars 1)"
)]
pub trait StructuredOutput: Serialize + JsonSchema {}

#[diagnostic::do_not_recommend]
impl<T: Serialize + JsonSchema> StructuredOutput for T {}

impl<T: StructuredOutput> IntoCallToolResult for Json<T> {
    fn into_call_tool_result(self) -> CallToolResult {
        match serde_json::to_value(&self.0) {
            Ok(value) => CallToolResult::structured(value),
            Err(error) => {
                tracing::error!(%error, "a tool's structured output could not be serialized");
                CallToolResult::error(format!(
                    "the tool's output could not be serialized: {error}"
                ))
            }
        }
    }

    fn output_schema(generator: &mut SchemaGenerator) -> Option<Schema> {
        Some(generator.subschema_for::<T>())
    }
}
