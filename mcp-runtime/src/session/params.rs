//! What the request methods read from their params, each refusal in the same words.

use serde_json::{Map, Value};

use crate::protocol::jsonrpc::RpcError;

/// The string member `key` of a request's params; `missing` says what the method needs when
/// it is absent.
pub(super) fn required_string<'a>(
    params: &'a Map<String, Value>,
    key: &str,
    missing: &str,
) -> Result<&'a str, RpcError> {
    match params.get(key) {
        Some(Value::String(text)) => Ok(text),
        Some(_) => Err(RpcError::invalid_params(format!(
            "Invalid params: `{key}` must be a string."
        ))),
        None => Err(RpcError::invalid_params(format!(
            "Invalid params: {missing}"
        ))),
    }
}
