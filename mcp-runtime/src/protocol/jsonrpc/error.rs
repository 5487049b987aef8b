//! The errors a JSON-RPC response carries: the standard and MCP codes, and the error
//! object itself.

use serde_json::{Map, Value};

/// Standard JSON-RPC and MCP error codes.
pub(crate) mod code {
    pub const PARSE_ERROR: i64 = -32700;
    pub const INVALID_REQUEST: i64 = -32600;
    pub const METHOD_NOT_FOUND: i64 = -32601;
    pub const INVALID_PARAMS: i64 = -32602;
    pub const INTERNAL_ERROR: i64 = -32603;
    pub const MISSING_REQUIRED_CLIENT_CAPABILITY: i64 = -32021;
    pub const UNSUPPORTED_PROTOCOL_VERSION: i64 = -32022;
}

/// A JSON-RPC error: code, one-sentence message, optional data.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct RpcError {
    pub code: i64,
    pub message: String,
    pub data: Option<Value>,
}

// Cold: an error is the rare way out of a request, and the compiler lays out the common
// path more tightly when told so.
impl RpcError {
    #[cold]
    pub fn new(code: i64, message: impl Into<String>) -> Self {
        RpcError {
            code,
            message: message.into(),
            data: None,
        }
    }

    pub fn with_data(mut self, data: Value) -> Self {
        self.data = Some(data);
        self
    }

    #[cold]
    pub fn invalid_params(message: impl Into<String>) -> Self {
        RpcError::new(code::INVALID_PARAMS, message)
    }

    #[cold]
    pub fn method_not_found(method: &str) -> Self {
        RpcError::new(
            code::METHOD_NOT_FOUND,
            format!("Method not found: {method}"),
        )
    }

    /// Reads the error object of a response the client sent; a malformed one still
    /// becomes an error, with whatever could be read.
    pub fn from_json(error: &Value) -> Self {
        RpcError {
            code: error
                .get("code")
                .and_then(Value::as_i64)
                .unwrap_or(code::INTERNAL_ERROR),
            message: error
                .get("message")
                .and_then(Value::as_str)
                .unwrap_or("(no message)")
                .to_owned(),
            data: error.get("data").cloned(),
        }
    }

    pub(super) fn to_json(&self) -> Value {
        let mut error = Map::new();
        error.insert("code".into(), self.code.into());
        error.insert("message".into(), self.message.clone().into());
        if let Some(data) = &self.data {
            error.insert("data".into(), data.clone());
        }
        Value::Object(error)
    }
}
