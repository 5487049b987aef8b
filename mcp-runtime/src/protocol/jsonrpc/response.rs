//! Responses serialized straight into bytes: a success around a result written by its own
//! serializer, a failure, and a batch.

use serde_json::{Map, Value};

use super::error::RpcError;

/// A request id, kept as the exact JSON the client sent so it is echoed type and all.
pub(crate) type RequestId = Value;

/// How an error response names a request whose id could not be read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum UnknownId {
    /// Leave `id` out (2025-11-25 and later).
    Omit,
    /// Send `"id": null`, as JSON-RPC 2.0 says (before 2025-11-25).
    Null,
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

/// [`Response::success`]'s JSON, appended to `out`: for a transport that writes the
/// response into its own output, with no buffer of its own.
#[inline]
pub(crate) fn write_success(
    id: &RequestId,
    write_result: impl FnOnce(&mut Vec<u8>),
    out: &mut Vec<u8>,
) {
    out.extend_from_slice(b"{\"id\":");
    serde_json::to_writer(&mut *out, id).expect("an id always serializes");
    out.extend_from_slice(b",\"jsonrpc\":\"2.0\",\"result\":");
    write_result(out);
    out.push(b'}');
}

/// A response, serialized: one JSON text, without its line terminator.
#[derive(Clone, Debug)]
pub(crate) struct Response {
    json: Vec<u8>,
    /// The error's code, for an error response.
    error_code: Option<i64>,
    has_id: bool,
}

impl Response {
    /// `{"id":…,"jsonrpc":"2.0","result":…}`, the result written straight into it by
    /// `write_result` (members in the order a `serde_json::Map` writes them).
    pub fn success(id: &RequestId, write_result: impl FnOnce(&mut Vec<u8>)) -> Response {
        let mut json = Vec::with_capacity(256);
        write_success(id, write_result, &mut json);
        Response {
            json,
            error_code: None,
            has_id: true,
        }
    }

    /// An error response.
    pub fn failure(id: Option<&RequestId>, error: &RpcError, unknown_id: UnknownId) -> Response {
        let response = failure(id, error, unknown_id);
        Response {
            json: serde_json::to_vec(&response).expect("a JSON value always serializes"),
            error_code: Some(error.code),
            has_id: response.get("id").is_some(),
        }
    }

    /// The answer to a batch: an array of the responses.
    pub fn batch(responses: Vec<Response>) -> Vec<u8> {
        let mut json = Vec::with_capacity(responses.iter().map(|r| r.json.len() + 1).sum());
        json.push(b'[');
        for (index, response) in responses.iter().enumerate() {
            if index > 0 {
                json.push(b',');
            }
            json.extend_from_slice(&response.json);
        }
        json.push(b']');
        json
    }

    /// The serialized response.
    pub fn json(&self) -> &[u8] {
        &self.json
    }

    /// The serialized response, ending with a newline.
    pub fn into_line(self) -> Vec<u8> {
        let mut line = self.json;
        line.push(b'\n');
        line
    }

    /// The error's code, if this is an error response.
    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    pub fn error_code(&self) -> Option<i64> {
        self.error_code
    }

    /// Whether the response names its request (an error response to a request whose id
    /// could not be read may not).
    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    pub fn has_id(&self) -> bool {
        self.has_id
    }
}
