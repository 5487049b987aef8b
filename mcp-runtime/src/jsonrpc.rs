//! JSON-RPC 2.0 framing: classifying what the client sent and building what goes back.

use serde_json::{Map, Value, json};

/// Standard JSON-RPC and MCP error codes.
pub(crate) mod code {
    pub const PARSE_ERROR: i64 = -32700;
    pub const INVALID_REQUEST: i64 = -32600;
    pub const METHOD_NOT_FOUND: i64 = -32601;
    pub const INVALID_PARAMS: i64 = -32602;
    pub const INTERNAL_ERROR: i64 = -32603;
    pub const UNSUPPORTED_PROTOCOL_VERSION: i64 = -32022;
}

/// A JSON-RPC error: code, one-sentence message, optional data.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct RpcError {
    pub code: i64,
    pub message: String,
    pub data: Option<Value>,
}

impl RpcError {
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

    pub fn invalid_params(message: impl Into<String>) -> Self {
        RpcError::new(code::INVALID_PARAMS, message)
    }

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

    fn to_json(&self) -> Value {
        let mut error = Map::new();
        error.insert("code".into(), self.code.into());
        error.insert("message".into(), self.message.clone().into());
        if let Some(data) = &self.data {
            error.insert("data".into(), data.clone());
        }
        Value::Object(error)
    }
}

/// A request id, kept as the exact JSON the client sent so it is echoed type and all.
pub(crate) type RequestId = Value;

/// One message from the client, classified.
#[derive(Debug)]
pub(crate) enum Incoming {
    /// A request: it gets exactly one response.
    Request {
        id: RequestId,
        method: String,
        params: Map<String, Value>,
    },
    /// A notification: never answered.
    Notification {
        method: String,
        params: Map<String, Value>,
    },
    /// A response to a request the server sent: its result, or the client's error.
    Response {
        id: RequestId,
        outcome: Result<Value, RpcError>,
    },
    /// Not a valid JSON-RPC message. `id` is set when it could be read.
    Invalid {
        id: Option<RequestId>,
        error: RpcError,
    },
}

fn is_valid_id(id: &Value) -> bool {
    match id {
        Value::String(_) => true,
        Value::Number(number) => number.is_i64() || number.is_u64(),
        _ => false,
    }
}

impl Incoming {
    /// Classifies one decoded JSON value (not a batch).
    pub fn classify(message: Value) -> Incoming {
        let Value::Object(mut message) = message else {
            return Incoming::Invalid {
                id: None,
                error: RpcError::new(
                    code::INVALID_REQUEST,
                    "Invalid request: a JSON-RPC message must be a JSON object.",
                ),
            };
        };
        let id = message.remove("id");
        let readable_id = id.as_ref().filter(|id| is_valid_id(id)).cloned();
        let invalid = |message: &str| Incoming::Invalid {
            id: readable_id.clone(),
            error: RpcError::new(code::INVALID_REQUEST, format!("Invalid request: {message}")),
        };
        if message.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
            return invalid("`jsonrpc` must be \"2.0\".");
        }
        let params = match message.remove("params") {
            None => Map::new(),
            Some(Value::Object(params)) => params,
            Some(_) => {
                return match (readable_id.clone(), &id, message.remove("method")) {
                    (Some(id), _, _) => Incoming::Invalid {
                        id: Some(id),
                        error: RpcError::invalid_params(
                            "Invalid params: `params` must be an object.",
                        ),
                    },
                    // A notification is never answered, not even with an error: its
                    // unreadable params are left out, and it is handled (or ignored) as is.
                    (None, None, Some(Value::String(method))) => Incoming::Notification {
                        method,
                        params: Map::new(),
                    },
                    _ => invalid("`params` must be an object."),
                };
            }
        };
        match (message.remove("method"), id) {
            (Some(Value::String(method)), None) => Incoming::Notification { method, params },
            (Some(Value::String(method)), Some(id)) if is_valid_id(&id) => {
                Incoming::Request { id, method, params }
            }
            (Some(Value::String(_)), Some(_)) => invalid("`id` must be a string or an integer."),
            (Some(_), _) => invalid("`method` must be a string."),
            // A response is never answered, not even one whose id is unreadable (`null`,
            // say): it matches no request the server sent, so it is ignored.
            (None, id) if message.contains_key("result") || message.contains_key("error") => {
                let id = id.filter(is_valid_id).unwrap_or(Value::Null);
                let outcome = match (message.remove("result"), message.remove("error")) {
                    (Some(result), None) => Ok(result),
                    (_, Some(error)) => Err(RpcError::from_json(&error)),
                    (None, None) => unreachable!("checked above"),
                };
                Incoming::Response { id, outcome }
            }
            (None, _) => invalid("a request needs a `method`."),
        }
    }
}

/// How an error response names a request whose id could not be read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum UnknownId {
    /// Leave `id` out (2025-11-25 and later).
    Omit,
    /// Send `"id": null`, as JSON-RPC 2.0 says (before 2025-11-25).
    Null,
}

pub(crate) fn success(id: &RequestId, result: Value) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "result": result })
}

pub(crate) fn failure(id: Option<&RequestId>, error: &RpcError, unknown_id: UnknownId) -> Value {
    let mut response = Map::new();
    response.insert("jsonrpc".into(), "2.0".into());
    match (id, unknown_id) {
        (Some(id), _) => {
            response.insert("id".into(), id.clone());
        }
        (None, UnknownId::Null) => {
            response.insert("id".into(), Value::Null);
        }
        (None, UnknownId::Omit) => {}
    }
    response.insert("error".into(), error.to_json());
    Value::Object(response)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classifies_requests_notifications_and_responses() {
        let request = Incoming::classify(json!({"jsonrpc":"2.0","id":7,"method":"ping"}));
        assert!(
            matches!(request, Incoming::Request { ref id, ref method, .. } if id == &json!(7) && method == "ping")
        );
        let note =
            Incoming::classify(json!({"jsonrpc":"2.0","method":"notifications/initialized"}));
        assert!(matches!(note, Incoming::Notification { .. }));
        let response = Incoming::classify(json!({"jsonrpc":"2.0","id":"a","result":{}}));
        assert!(matches!(response, Incoming::Response { .. }));
        // Never answered, even when malformed: a response with an unreadable id, and a
        // notification with unreadable params.
        let response = Incoming::classify(
            json!({"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"x"}}),
        );
        assert!(matches!(response, Incoming::Response { ref id, .. } if id.is_null()));
        let note =
            Incoming::classify(json!({"jsonrpc":"2.0","method":"notifications/x","params":5}));
        assert!(matches!(note, Incoming::Notification { ref params, .. } if params.is_empty()));
    }

    #[test]
    fn rejects_bad_ids_versions_and_params() {
        for (message, expected_code, keeps_id) in [
            (
                json!({"jsonrpc":"2.0","id":1.5,"method":"ping"}),
                code::INVALID_REQUEST,
                false,
            ),
            (
                json!({"jsonrpc":"2.0","id":null,"method":"ping"}),
                code::INVALID_REQUEST,
                false,
            ),
            (
                json!({"jsonrpc":"2.0","id":{"a":1},"method":"ping"}),
                code::INVALID_REQUEST,
                false,
            ),
            (
                json!({"jsonrpc":"1.0","id":1,"method":"ping"}),
                code::INVALID_REQUEST,
                true,
            ),
            (json!({"id":1,"method":"ping"}), code::INVALID_REQUEST, true),
            (
                json!({"jsonrpc":"2.0","id":1,"method":"ping","params":[1]}),
                code::INVALID_PARAMS,
                true,
            ),
            (json!({"jsonrpc":"2.0","id":1}), code::INVALID_REQUEST, true),
            (json!([1]), code::INVALID_REQUEST, false),
            (json!("hello"), code::INVALID_REQUEST, false),
        ] {
            match Incoming::classify(message.clone()) {
                Incoming::Invalid { id, error } => {
                    assert_eq!(error.code, expected_code, "{message}");
                    assert_eq!(id.is_some(), keeps_id, "{message}");
                }
                other => panic!("{message} classified as {other:?}"),
            }
        }
    }
}
