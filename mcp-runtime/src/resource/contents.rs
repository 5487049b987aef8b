//! What a resource read returns: [`IntoResourceContents`], the conversion every
//! `#[mcp_resource]` function's return type goes through, and the async and blocking paths
//! the macro runs reads on.

use std::borrow::Cow;
use std::fmt::Display;
use std::future::Future;
use std::pin::Pin;

use serde::Serialize;
use serde_json::{Map, Value};

use crate::apps::View;
use crate::content::{EmbeddedResource, ResourceContents};
use crate::context::log_layer::with_current;
use crate::tool::extract::ToolCall;
use crate::tool::result::{CallToolResult, Json, ToolError};

/// One read's outcome before the runtime knows the URI and MIME type to give it.
#[doc(hidden)]
#[derive(Clone, Debug, PartialEq)]
pub enum ReadOutcome {
    /// Text, with the resource's MIME type.
    Text(String),
    /// Bytes, sent base64-encoded with the resource's MIME type.
    Blob(Vec<u8>),
    /// JSON text (`application/json` unless the resource states a type).
    Json(String),
    /// Complete contents, each with its own URI and type.
    Contents(Vec<EmbeddedResource>),
    /// An MCP Apps view: HTML served as `text/html;profile=mcp-app`, with its `_meta`.
    View {
        html: String,
        meta: Option<Map<String, Value>>,
    },
    /// Nothing at this URI (`None`): the spec's resource-not-found error.
    NotFound,
    /// The read failed; `public` when the error is a [`ToolError`] (always shown).
    Failed { message: String, public: bool },
    /// A parameter could not be produced (a variable that does not parse).
    Rejected(String),
}

impl ReadOutcome {
    /// The `contents` of a `resources/read` result for `uri`, each item as JSON, or the
    /// failure.
    pub(crate) fn into_contents(
        self,
        uri: &str,
        mime_type: Option<&str>,
    ) -> Result<Vec<Value>, ReadFailure> {
        let item = |contents, default_type: Option<&str>| EmbeddedResource {
            uri: uri.to_owned(),
            mime_type: mime_type.or(default_type).map(str::to_owned),
            contents,
        };
        let contents = match self {
            ReadOutcome::Text(text) => vec![item(ResourceContents::Text(text), None)],
            ReadOutcome::Blob(bytes) => vec![item(
                ResourceContents::Blob(crate::content::base64(&bytes)),
                None,
            )],
            ReadOutcome::Json(text) => {
                vec![item(ResourceContents::Text(text), Some("application/json"))]
            }
            ReadOutcome::Contents(contents) => contents,
            ReadOutcome::View { html, meta } => {
                // The spec requires this type of a view's contents, whatever the resource
                // states.
                let mut view = contents_json(&EmbeddedResource {
                    uri: uri.to_owned(),
                    mime_type: Some(crate::apps::MIME_TYPE.to_owned()),
                    contents: ResourceContents::Text(html),
                });
                if let (Some(meta), Value::Object(view)) = (meta, &mut view) {
                    view.insert("_meta".into(), Value::Object(meta));
                }
                return Ok(vec![view]);
            }
            ReadOutcome::Failed { message, public } => {
                return Err(ReadFailure::Failed { message, public });
            }
            ReadOutcome::Rejected(message) => return Err(ReadFailure::Rejected(message)),
            ReadOutcome::NotFound => return Err(ReadFailure::NotFound),
        };
        Ok(contents.iter().map(contents_json).collect())
    }
}

/// Why a read gave no contents: the outcomes of [`ReadOutcome`] that are not contents.
pub(crate) enum ReadFailure {
    /// The read failed; `public` when the error is a [`ToolError`].
    Failed { message: String, public: bool },
    /// A variable did not parse.
    Rejected(String),
    /// `None`: nothing at this URI.
    NotFound,
}

/// Converts what a `#[mcp_resource]` function returns into the contents of a read.
///
/// | return type | contents |
/// |---|---|
/// | `String`, `&'static str`, `Cow<str>` | one text item, with the resource's `mime_type` |
/// | `Vec<u8>`, `&'static [u8]` | one blob item (base64), with the resource's `mime_type` |
/// | [`Json<T>`] | one text item holding `T` as JSON, `application/json` unless stated |
/// | [`EmbeddedResource`], `Vec<EmbeddedResource>` | as they are: each with its own URI and type |
/// | [`View`] | one text item, `text/html;profile=mcp-app`, with the view's `_meta.ui` (MCP Apps) |
/// | `Option<T>` where `T` is any of these | `None` → the spec's resource-not-found error for the URI read (for a template whose item does not exist) |
/// | `Result<T, E>` where `T` is any of the above and `E: Display` | `Err` → an error response with the message (hidden by [`Server::mask_error_details`](crate::Server::mask_error_details) unless `E` is [`ToolError`]) |
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be returned from an MCP resource",
    label = "not a resource contents type",
    note = "a resource may return `String`, `&'static str`, `Vec<u8>` (a blob), `mcp_runtime::Json<T>` (T: Serialize), `EmbeddedResource`, `Vec<EmbeddedResource>`, `mcp_runtime::apps::View`, `Option<T>` (`None`: not found), or `Result<T, E>` of any of these with `E: Display`"
)]
pub trait IntoResourceContents {
    /// Performs the conversion.
    fn into_read_outcome(self) -> ReadOutcome;
}

impl IntoResourceContents for String {
    fn into_read_outcome(self) -> ReadOutcome {
        ReadOutcome::Text(self)
    }
}

impl IntoResourceContents for &'static str {
    fn into_read_outcome(self) -> ReadOutcome {
        ReadOutcome::Text(self.to_owned())
    }
}

impl IntoResourceContents for Cow<'static, str> {
    fn into_read_outcome(self) -> ReadOutcome {
        ReadOutcome::Text(self.into_owned())
    }
}

impl IntoResourceContents for Vec<u8> {
    fn into_read_outcome(self) -> ReadOutcome {
        ReadOutcome::Blob(self)
    }
}

impl IntoResourceContents for &'static [u8] {
    fn into_read_outcome(self) -> ReadOutcome {
        ReadOutcome::Blob(self.to_vec())
    }
}

impl<T: Serialize> IntoResourceContents for Json<T> {
    fn into_read_outcome(self) -> ReadOutcome {
        match serde_json::to_string(&self.0) {
            Ok(text) => ReadOutcome::Json(text),
            Err(error) => ReadOutcome::Failed {
                message: format!("the resource could not be serialized: {error}"),
                public: false,
            },
        }
    }
}

impl IntoResourceContents for View {
    fn into_read_outcome(self) -> ReadOutcome {
        let (html, meta) = self.into_parts();
        ReadOutcome::View { html, meta }
    }
}

impl IntoResourceContents for EmbeddedResource {
    fn into_read_outcome(self) -> ReadOutcome {
        ReadOutcome::Contents(vec![self])
    }
}

impl IntoResourceContents for Vec<EmbeddedResource> {
    fn into_read_outcome(self) -> ReadOutcome {
        ReadOutcome::Contents(self)
    }
}

impl<T: IntoResourceContents> IntoResourceContents for Option<T> {
    fn into_read_outcome(self) -> ReadOutcome {
        match self {
            Some(value) => value.into_read_outcome(),
            None => ReadOutcome::NotFound,
        }
    }
}

impl<T, E> IntoResourceContents for Result<T, E>
where
    T: IntoResourceContents,
    E: Display + 'static,
{
    fn into_read_outcome(self) -> ReadOutcome {
        match self {
            Ok(value) => value.into_read_outcome(),
            Err(error) => ReadOutcome::Failed {
                public: (&error as &dyn std::any::Any).is::<ToolError>(),
                message: error.to_string(),
            },
        }
    }
}

/// The `contents` item of one embedded resource, as `resources/read` returns it.
fn contents_json(resource: &EmbeddedResource) -> Value {
    serde_json::to_value(resource).unwrap_or_else(|_| serde_json::json!({ "uri": resource.uri }))
}

/// The future of one read. Panics inside it are caught by the dispatcher.
#[doc(hidden)]
pub type ResourceFuture = Pin<Box<dyn Future<Output = ReadOutcome> + Send + 'static>>;

/// The message of a parameter that could not be produced.
pub(crate) fn rejection_message(rejected: CallToolResult) -> String {
    rejected
        .content
        .iter()
        .find_map(|block| block.as_text())
        .unwrap_or("invalid parameters")
        .to_owned()
}

/// Runs an `async fn` resource: extract its parameters, then await it.
#[doc(hidden)]
pub fn read_async<F, Fut>(mut call: ToolCall, resource: F) -> ResourceFuture
where
    F: FnOnce(&mut ToolCall) -> Result<Fut, CallToolResult>,
    Fut: Future + Send + 'static,
    Fut::Output: IntoResourceContents,
{
    match resource(&mut call) {
        Ok(running) => Box::pin(async move { running.await.into_read_outcome() }),
        Err(rejected) => Box::pin(std::future::ready(ReadOutcome::Rejected(
            rejection_message(rejected),
        ))),
    }
}

/// Runs a plain `fn` resource on a thread of its own, as plain `fn` tools run.
#[doc(hidden)]
pub fn read_blocking<F, G, R>(mut call: ToolCall, resource: F) -> ResourceFuture
where
    F: FnOnce(&mut ToolCall) -> Result<G, CallToolResult>,
    G: FnOnce() -> R + Send + 'static,
    R: IntoResourceContents + 'static,
{
    let run = match resource(&mut call) {
        Ok(run) => run,
        Err(rejected) => {
            return Box::pin(std::future::ready(ReadOutcome::Rejected(
                rejection_message(rejected),
            )));
        }
    };
    let context = call.context().clone();
    let forwarded = context.forwards_tracing().then_some(context);
    Box::pin(async move {
        let blocking = crate::tool::blocking::run(move || {
            with_current(forwarded, || run().into_read_outcome())
        });
        match blocking.await {
            Ok(outcome) => outcome,
            Err(panic) => std::panic::resume_unwind(panic),
        }
    })
}
