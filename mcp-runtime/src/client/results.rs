//! What the client hands back for tools and in general: a tool and a call's result, a
//! notification, a progress report, and the error of a request that failed.

use std::fmt;

use serde::Deserialize;
use serde_json::{Map, Value, json};

/// A JSON-RPC error response, or the connection ending before the answer came.
///
/// ```
/// # #[cfg(feature = "testing")] { // public as `testing::ResponseError`
/// use mcp_runtime::testing::ResponseError;
///
/// let error = ResponseError::new(-32602, "Invalid params: unknown tool `nope`.");
/// assert_eq!(error.code, ResponseError::INVALID_PARAMS);
/// assert_eq!(error.to_string(), "error -32602: Invalid params: unknown tool `nope`.");
/// # }
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct ResponseError {
    /// The JSON-RPC error code.
    pub code: i64,
    /// What went wrong.
    pub message: String,
    /// Additional information, if the sender gave any.
    pub data: Option<Value>,
}

impl ResponseError {
    /// -32601: the method does not exist (on the side that was asked).
    pub const METHOD_NOT_FOUND: i64 = -32601;
    /// -32602: invalid parameters (unknown tool, bad cursor, ...).
    pub const INVALID_PARAMS: i64 = -32602;
    /// Not sent by any server: the connection closed before the answer came. (The server
    /// failed to start, or was closed.)
    pub const CONNECTION_CLOSED: i64 = -32099;
    /// Not sent by any server: a call started as a task was answered with its result (the
    /// tool, or the server, does not run it as a task); the result is in `data`.
    pub const NOT_A_TASK: i64 = -32098;
    /// Not sent by any server: a skill file's bytes differ from its skill entry's size or
    /// digest (the message says which), so a host must not use them.
    pub const VERIFICATION_FAILED: i64 = -32097;

    /// An error with this code and message, and no data.
    pub fn new(code: i64, message: impl Into<String>) -> Self {
        ResponseError {
            code,
            message: message.into(),
            data: None,
        }
    }

    pub(super) fn from_response(error: &Value) -> Self {
        ResponseError {
            code: error["code"].as_i64().unwrap_or_default(),
            message: error["message"].as_str().unwrap_or_default().to_owned(),
            data: error.get("data").cloned(),
        }
    }

    pub(super) fn to_json(&self) -> Value {
        let mut error = json!({ "code": self.code, "message": self.message });
        if let Some(data) = &self.data {
            error["data"] = data.clone();
        }
        error
    }
}

impl fmt::Display for ResponseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "error {}: {}", self.code, self.message)
    }
}

impl std::error::Error for ResponseError {}

/// A notification the server sent (progress, a log message, ...).
#[derive(Clone, Debug, PartialEq)]
pub struct Notification {
    /// E.g. `notifications/message`.
    pub method: String,
    /// Its params (`Value::Null` if it had none).
    pub params: Value,
}

/// One `notifications/progress` of a call.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct Progress {
    /// How much is done.
    pub progress: f64,
    /// The total, if known.
    #[serde(default)]
    pub total: Option<f64>,
    /// What is happening.
    #[serde(default)]
    pub message: Option<String>,
}

/// A tool as `tools/list` describes it.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Tool {
    /// The tool's name.
    pub name: String,
    /// Its display name (2025-06-18 and later).
    #[serde(default)]
    pub title: Option<String>,
    /// Its description.
    #[serde(default)]
    pub description: Option<String>,
    /// The JSON Schema of its arguments.
    pub input_schema: Value,
    /// The JSON Schema of its structured output (2025-06-18 and later), if it has one.
    #[serde(default)]
    pub output_schema: Option<Value>,
    /// Behaviour hints (`readOnlyHint`, ...) and, for 2025-03-26, the title.
    #[serde(default)]
    pub annotations: Option<Map<String, Value>>,
    /// How the tool runs (2025-11-25: `taskSupport`), if the server says.
    #[serde(default)]
    pub execution: Option<Map<String, Value>>,
    /// Its `_meta` (MCP Apps: `ui.resourceUri`, `ui.visibility`), if it has one.
    #[serde(default, rename = "_meta")]
    pub meta: Option<Map<String, Value>>,
}

impl Tool {
    /// The URI of its MCP Apps view (`_meta.ui.resourceUri`, or the deprecated flat
    /// `_meta["ui/resourceUri"]` of older servers), if it names one.
    pub fn view_uri(&self) -> Option<&str> {
        let meta = self.meta.as_ref()?;
        let nested = meta.get("ui").and_then(|ui| ui.get("resourceUri"));
        nested.or_else(|| meta.get("ui/resourceUri"))?.as_str()
    }

    /// Who may call it (`_meta.ui.visibility`): `["model", "app"]` when not listed, the
    /// spec's default.
    pub fn visibility(&self) -> Vec<&str> {
        let listed = self
            .meta
            .as_ref()
            .and_then(|meta| meta.get("ui")?.get("visibility")?.as_array());
        match listed {
            Some(listed) => listed.iter().filter_map(Value::as_str).collect(),
            None => vec!["model", "app"],
        }
    }

    /// Whether the tool runs as a task, as 2025-11-25 lists it (`execution.taskSupport`):
    /// `"forbidden"`, `"optional"` or `"required"`; `None` when not listed (other
    /// revisions list none).
    pub fn task_support(&self) -> Option<&str> {
        self.execution.as_ref()?.get("taskSupport")?.as_str()
    }

    /// The value of an annotation hint such as `readOnlyHint`, if the tool states it.
    pub fn hint(&self, name: &str) -> Option<bool> {
        self.annotations.as_ref()?.get(name)?.as_bool()
    }
}

/// The result of `tools/call`.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ToolResult {
    /// The content blocks, as sent.
    #[serde(default)]
    pub content: Vec<Value>,
    /// The structured output (2025-06-18 and later), if the tool has some.
    #[serde(default)]
    pub structured_content: Option<Value>,
    /// Whether the tool failed (a tool error, not a protocol error).
    #[serde(default)]
    pub is_error: bool,
}

impl ToolResult {
    /// The text of every text block, one per line.
    pub fn text(&self) -> String {
        self.content
            .iter()
            .filter(|block| block["type"] == "text")
            .filter_map(|block| block["text"].as_str())
            .collect::<Vec<_>>()
            .join("\n")
    }
}
