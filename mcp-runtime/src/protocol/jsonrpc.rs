//! JSON-RPC 2.0 framing: classifying what the client sent and building what goes back.
//!
//! A line is decoded straight into the members a message is classified by (see
//! [`Decoded`]) rather than into a `serde_json::Value` tree, and responses are serialized
//! straight into bytes (see [`Response`]): no tree is built for the envelope either way.

use std::borrow::Cow;
use std::fmt;

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};

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
pub(crate) enum Incoming<'a> {
    /// A request: it gets exactly one response.
    Request {
        id: RequestId,
        method: Cow<'a, str>,
        params: Params<'a>,
    },
    /// A notification: never answered.
    Notification {
        method: Cow<'a, str>,
        params: Params<'a>,
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

impl<'a> Incoming<'a> {
    /// Classifies one decoded message (not a batch).
    pub fn classify(message: Message<'a>) -> Incoming<'a> {
        let Message::Object(members) = message else {
            return Incoming::Invalid {
                id: None,
                error: RpcError::new(
                    code::INVALID_REQUEST,
                    "Invalid request: a JSON-RPC message must be a JSON object.",
                ),
            };
        };
        let Members {
            is_jsonrpc_2_0,
            id,
            method,
            params,
            result,
            error,
        } = members;
        let readable_id = id.as_ref().filter(|id| is_valid_id(id)).cloned();
        let invalid = |message: &str| Incoming::Invalid {
            id: readable_id.clone(),
            error: RpcError::new(code::INVALID_REQUEST, format!("Invalid request: {message}")),
        };
        if !is_jsonrpc_2_0 {
            return invalid("`jsonrpc` must be \"2.0\".");
        }
        let params = match params {
            None => Params::default(),
            Some(ParamsMember::Object(params)) => params,
            Some(ParamsMember::NotObject) => {
                return match (readable_id.clone(), &id, method) {
                    (Some(id), _, _) => Incoming::Invalid {
                        id: Some(id),
                        error: RpcError::invalid_params(
                            "Invalid params: `params` must be an object.",
                        ),
                    },
                    // A notification is never answered, not even with an error: its
                    // unreadable params are left out, and it is handled (or ignored) as is.
                    (None, None, Some(StringMember::Text(method))) => Incoming::Notification {
                        method,
                        params: Params::default(),
                    },
                    _ => invalid("`params` must be an object."),
                };
            }
        };
        match (method, id) {
            (Some(StringMember::Text(method)), None) => Incoming::Notification { method, params },
            (Some(StringMember::Text(method)), Some(id)) if is_valid_id(&id) => {
                Incoming::Request { id, method, params }
            }
            (Some(StringMember::Text(_)), Some(_)) => {
                invalid("`id` must be a string or an integer.")
            }
            (Some(StringMember::Other(_)), _) => invalid("`method` must be a string."),
            // A response is never answered, not even one whose id is unreadable (`null`,
            // say): it matches no request the server sent, so it is ignored.
            (None, id) if result.is_some() || error.is_some() => {
                let id = id.filter(is_valid_id).unwrap_or(Value::Null);
                let outcome = match (result, error) {
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

/// Every visitor here accepts any JSON: scalars become this value.
macro_rules! scalars_are {
    ($value:expr) => {
        fn visit_bool<E: de::Error>(self, _: bool) -> Result<Self::Value, E> {
            Ok($value)
        }
        fn visit_i64<E: de::Error>(self, _: i64) -> Result<Self::Value, E> {
            Ok($value)
        }
        fn visit_u64<E: de::Error>(self, _: u64) -> Result<Self::Value, E> {
            Ok($value)
        }
        fn visit_f64<E: de::Error>(self, _: f64) -> Result<Self::Value, E> {
            Ok($value)
        }
        fn visit_str<E: de::Error>(self, _: &str) -> Result<Self::Value, E> {
            Ok($value)
        }
        fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok($value)
        }
    };
}

/// One line of input, decoded: a message, or a batch of them.
///
/// Decoding goes through the same parser, with the same checks, as decoding a
/// `serde_json::Value` (nesting depth, number range, string escapes), so a line is exactly
/// as valid either way; only the members a message is classified by are kept.
#[derive(Debug)]
pub(crate) enum Decoded<'a> {
    Message(Message<'a>),
    Batch(Vec<Message<'a>>),
}

/// One message as decoded, before it is classified.
#[derive(Debug)]
// Lives on the stack for the one line being handled: boxing the members would cost an
// allocation per message to save stack bytes nobody is short of.
#[allow(clippy::large_enum_variant)]
pub(crate) enum Message<'a> {
    Object(Members<'a>),
    /// A JSON value other than an object.
    NotObject,
}

/// The members of a message object that classify it (the last of a repeated member
/// counts, as in a `serde_json::Map`).
#[derive(Debug, Default)]
pub(crate) struct Members<'a> {
    /// `jsonrpc` is the string "2.0".
    is_jsonrpc_2_0: bool,
    id: Option<Value>,
    method: Option<StringMember<'a>>,
    params: Option<ParamsMember<'a>>,
    result: Option<Value>,
    error: Option<Value>,
}

/// The `params` member of a message.
#[derive(Debug)]
enum ParamsMember<'a> {
    Object(Params<'a>),
    NotObject,
}

/// A message's `params` object, decoded once: `tools/call`'s `name` (borrowed from the line
/// when it can be) and `arguments` apart, since every call reads them, and the other members
/// as they are. Nothing is lost: [`Params::into_map`] gives back the object as sent.
#[derive(Debug, Default)]
pub(crate) struct Params<'a> {
    pub name: Option<StringMember<'a>>,
    pub arguments: Option<Value>,
    /// Every member but `name` and `arguments` (`_meta` among them).
    pub others: Map<String, Value>,
}

/// A member that should be a string (a message's `method`, a call's tool `name`): borrowed
/// from the line when it can be.
#[derive(Debug)]
pub(crate) enum StringMember<'a> {
    Text(Cow<'a, str>),
    /// Not a string: kept as sent.
    Other(Value),
}

impl StringMember<'_> {
    fn from_value(value: Value) -> Self {
        match value {
            Value::String(text) => StringMember::Text(Cow::Owned(text)),
            other => StringMember::Other(other),
        }
    }
}

impl<'a> Params<'a> {
    fn from_map(mut members: Map<String, Value>) -> Params<'a> {
        Params {
            name: members.remove("name").map(StringMember::from_value),
            arguments: members.remove("arguments"),
            others: members,
        }
    }

    /// The `params` object as the client sent it.
    pub fn into_map(self) -> Map<String, Value> {
        let mut members = self.others;
        if let Some(name) = self.name {
            let name = match name {
                StringMember::Text(name) => Value::String(name.into_owned()),
                StringMember::Other(name) => name,
            };
            members.insert("name".to_owned(), name);
        }
        if let Some(arguments) = self.arguments {
            members.insert("arguments".to_owned(), arguments);
        }
        members
    }
}

impl Decoded<'static> {
    /// The same decoding, of a value already parsed (the HTTP transport's bodies).
    pub fn from_value(value: Value) -> Decoded<'static> {
        match value {
            Value::Array(messages) => {
                Decoded::Batch(messages.into_iter().map(Message::from_value).collect())
            }
            message => Decoded::Message(Message::from_value(message)),
        }
    }
}

impl Message<'static> {
    pub fn from_value(value: Value) -> Message<'static> {
        let Value::Object(mut members) = value else {
            return Message::NotObject;
        };
        Message::Object(Members {
            is_jsonrpc_2_0: members.get("jsonrpc").and_then(Value::as_str) == Some("2.0"),
            id: members.remove("id"),
            method: members.remove("method").map(StringMember::from_value),
            params: members.remove("params").map(|params| match params {
                Value::Object(params) => ParamsMember::Object(Params::from_map(params)),
                _ => ParamsMember::NotObject,
            }),
            result: members.remove("result"),
            error: members.remove("error"),
        })
    }
}

impl<'de> Deserialize<'de> for Decoded<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Line;
        impl<'de> Visitor<'de> for Line {
            type Value = Decoded<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a JSON-RPC message or batch")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                let mut messages = Vec::new();
                while let Some(message) = seq.next_element()? {
                    messages.push(message);
                }
                Ok(Decoded::Batch(messages))
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
                Members::visit(map).map(|members| Decoded::Message(Message::Object(members)))
            }
            scalars_are!(Decoded::Message(Message::NotObject));
        }
        deserializer.deserialize_any(Line)
    }
}

impl<'de> Deserialize<'de> for Message<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct OneMessage;
        impl<'de> Visitor<'de> for OneMessage {
            type Value = Message<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a JSON-RPC message")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
                check_seq(seq).map(|()| Message::NotObject)
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
                Members::visit(map).map(Message::Object)
            }
            scalars_are!(Message::NotObject);
        }
        deserializer.deserialize_any(OneMessage)
    }
}

impl<'de> Members<'de> {
    fn visit<A: MapAccess<'de>>(mut map: A) -> Result<Self, A::Error> {
        let mut members = Members::default();
        while let Some(key) = map.next_key::<Key>()? {
            match key {
                Key::Jsonrpc => members.is_jsonrpc_2_0 = map.next_value::<IsVersion2>()?.0,
                Key::Id => members.id = Some(map.next_value()?),
                Key::Method => members.method = Some(map.next_value()?),
                Key::Params => members.params = Some(map.next_value()?),
                Key::Result => members.result = Some(map.next_value()?),
                Key::Error => members.error = Some(map.next_value()?),
                Key::Other => map.next_value::<Checked>().map(drop)?,
            }
        }
        Ok(members)
    }
}

enum Key {
    Jsonrpc,
    Id,
    Method,
    Params,
    Result,
    Error,
    Other,
}

impl<'de> Deserialize<'de> for Key {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct KeyName;
        impl Visitor<'_> for KeyName {
            type Value = Key;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a member name")
            }
            fn visit_str<E: de::Error>(self, name: &str) -> Result<Key, E> {
                Ok(match name {
                    "jsonrpc" => Key::Jsonrpc,
                    "id" => Key::Id,
                    "method" => Key::Method,
                    "params" => Key::Params,
                    "result" => Key::Result,
                    "error" => Key::Error,
                    _ => Key::Other,
                })
            }
        }
        deserializer.deserialize_str(KeyName)
    }
}

impl<'de> Deserialize<'de> for ParamsMember<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct ParamsObject;
        impl<'de> Visitor<'de> for ParamsObject {
            type Value = ParamsMember<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("params")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
                check_seq(seq).map(|()| ParamsMember::NotObject)
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut params = Params::default();
                // Keys as a `serde_json::Map` reads them: the last of a repeated one counts.
                while let Some(key) = map.next_key::<ParamsKey>()? {
                    match key {
                        ParamsKey::Name => params.name = Some(map.next_value()?),
                        ParamsKey::Arguments => params.arguments = Some(map.next_value()?),
                        ParamsKey::Other(key) => {
                            params.others.insert(key, map.next_value()?);
                        }
                    }
                }
                Ok(ParamsMember::Object(params))
            }
            scalars_are!(ParamsMember::NotObject);
        }
        deserializer.deserialize_any(ParamsObject)
    }
}

enum ParamsKey {
    Name,
    Arguments,
    Other(String),
}

impl<'de> Deserialize<'de> for ParamsKey {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct KeyName;
        impl Visitor<'_> for KeyName {
            type Value = ParamsKey;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a member name")
            }
            fn visit_str<E: de::Error>(self, name: &str) -> Result<ParamsKey, E> {
                Ok(match name {
                    "name" => ParamsKey::Name,
                    "arguments" => ParamsKey::Arguments,
                    other => ParamsKey::Other(other.to_owned()),
                })
            }
            fn visit_string<E: de::Error>(self, name: String) -> Result<ParamsKey, E> {
                Ok(match name.as_str() {
                    "name" => ParamsKey::Name,
                    "arguments" => ParamsKey::Arguments,
                    _ => ParamsKey::Other(name),
                })
            }
        }
        deserializer.deserialize_str(KeyName)
    }
}

impl<'de> Deserialize<'de> for StringMember<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Name;
        impl<'de> Visitor<'de> for Name {
            type Value = StringMember<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_borrowed_str<E: de::Error>(self, name: &'de str) -> Result<Self::Value, E> {
                Ok(StringMember::Text(Cow::Borrowed(name)))
            }
            fn visit_string<E: de::Error>(self, name: String) -> Result<Self::Value, E> {
                Ok(StringMember::Text(Cow::Owned(name)))
            }
            fn visit_str<E: de::Error>(self, name: &str) -> Result<Self::Value, E> {
                Ok(StringMember::Text(Cow::Owned(name.to_owned())))
            }
            fn visit_bool<E: de::Error>(self, value: bool) -> Result<Self::Value, E> {
                Ok(StringMember::Other(value.into()))
            }
            fn visit_i64<E: de::Error>(self, value: i64) -> Result<Self::Value, E> {
                Ok(StringMember::Other(value.into()))
            }
            fn visit_u64<E: de::Error>(self, value: u64) -> Result<Self::Value, E> {
                Ok(StringMember::Other(value.into()))
            }
            fn visit_f64<E: de::Error>(self, value: f64) -> Result<Self::Value, E> {
                Ok(StringMember::Other(value.into()))
            }
            fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
                Ok(StringMember::Other(Value::Null))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
                Value::deserialize(de::value::SeqAccessDeserializer::new(seq))
                    .map(StringMember::Other)
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
                Value::deserialize(de::value::MapAccessDeserializer::new(map))
                    .map(StringMember::Other)
            }
        }
        deserializer.deserialize_any(Name)
    }
}

/// Whether the `jsonrpc` member is the string "2.0".
struct IsVersion2(bool);

impl<'de> Deserialize<'de> for IsVersion2 {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Version;
        impl<'de> Visitor<'de> for Version {
            type Value = IsVersion2;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a version")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
                check_seq(seq).map(|()| IsVersion2(false))
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
                check_map(map).map(|()| IsVersion2(false))
            }
            fn visit_str<E: de::Error>(self, version: &str) -> Result<Self::Value, E> {
                Ok(IsVersion2(version == "2.0"))
            }
            fn visit_bool<E: de::Error>(self, _: bool) -> Result<Self::Value, E> {
                Ok(IsVersion2(false))
            }
            fn visit_i64<E: de::Error>(self, _: i64) -> Result<Self::Value, E> {
                Ok(IsVersion2(false))
            }
            fn visit_u64<E: de::Error>(self, _: u64) -> Result<Self::Value, E> {
                Ok(IsVersion2(false))
            }
            fn visit_f64<E: de::Error>(self, _: f64) -> Result<Self::Value, E> {
                Ok(IsVersion2(false))
            }
            fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
                Ok(IsVersion2(false))
            }
        }
        deserializer.deserialize_any(Version)
    }
}

/// Any JSON value, parsed and checked as a `serde_json::Value` would be (unlike
/// `serde::de::IgnoredAny`, which serde_json skips without checking nesting depth or number range),
/// and not kept.
struct Checked;

impl<'de> Deserialize<'de> for Checked {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Anything;
        impl<'de> Visitor<'de> for Anything {
            type Value = Checked;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
                check_seq(seq).map(|()| Checked)
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
                check_map(map).map(|()| Checked)
            }
            scalars_are!(Checked);
        }
        deserializer.deserialize_any(Anything)
    }
}

fn check_seq<'de, A: SeqAccess<'de>>(mut seq: A) -> Result<(), A::Error> {
    while seq.next_element::<Checked>()?.is_some() {}
    Ok(())
}

fn check_map<'de, A: MapAccess<'de>>(mut map: A) -> Result<(), A::Error> {
    while map.next_key::<Checked>()?.is_some() {
        map.next_value::<Checked>()?;
    }
    Ok(())
}

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
        json.extend_from_slice(b"{\"id\":");
        serde_json::to_writer(&mut json, id).expect("an id always serializes");
        json.extend_from_slice(b",\"jsonrpc\":\"2.0\",\"result\":");
        write_result(&mut json);
        json.push(b'}');
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

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    impl Incoming<'static> {
        fn classify_value(message: Value) -> Self {
            Incoming::classify(Message::from_value(message))
        }
    }

    /// How a line is classified (or the parse error it gets), as text.
    fn described(line: &str) -> String {
        match serde_json::from_str::<Decoded>(line) {
            Ok(Decoded::Message(message)) => format!("{:?}", Incoming::classify(message)),
            Ok(Decoded::Batch(messages)) => {
                let classified: Vec<_> = messages.into_iter().map(Incoming::classify).collect();
                format!("batch {classified:?}")
            }
            Err(error) => format!("error {error}"),
        }
    }

    /// The same, by way of a `serde_json::Value` (as before lines were decoded directly).
    fn described_by_value(line: &str) -> String {
        match serde_json::from_str::<Value>(line) {
            Ok(value) => match Decoded::from_value(value) {
                Decoded::Message(message) => format!("{:?}", Incoming::classify(message)),
                Decoded::Batch(messages) => {
                    let classified: Vec<_> = messages.into_iter().map(Incoming::classify).collect();
                    format!("batch {classified:?}")
                }
            },
            Err(error) => format!("error {error}"),
        }
    }

    #[test]
    fn decoding_a_line_directly_matches_decoding_it_as_a_value() {
        let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
        let deep_member = format!(
            r#"{{"jsonrpc":"2.0","id":1,"method":"ping","x":{}1{}}}"#,
            "[".repeat(130),
            "]".repeat(130)
        );
        let deep_params = format!(
            r#"{{"jsonrpc":"2.0","id":1,"method":"ping","params":{{"a":{}1{}}}}}"#,
            "[".repeat(126),
            "]".repeat(126)
        );
        for line in [
            r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}"#,
            r#"{"method":"ping","id":"a","jsonrpc":"2.0"}"#,
            r#"{"jsonrpc":"2.0","id":1,"id":2,"method":"ping"}"#,
            r#"{"jsonrpc":"2.0","jsonrpc":"1.0","id":1,"method":"ping"}"#,
            r#"{"jsonrpc":"1.0","jsonrpc":"2.0","id":1,"method":"ping"}"#,
            r#"{"jsonrpc":["2.0"],"id":1,"method":"ping"}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"p\u0069ng"}"#,
            r#"{"\u006aconrpc":"2.0","jsonrpc":"2.0","id":1,"method":"ping"}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":{"a":[1,2]}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":null}"#,
            r#"{"jsonrpc":"2.0","id":null,"method":"ping"}"#,
            r#"{"jsonrpc":"2.0","id":1.0,"method":"ping"}"#,
            r#"{"jsonrpc":"2.0","id":-5,"method":"ping"}"#,
            r#"{"jsonrpc":"2.0","id":18446744073709551615,"method":"ping"}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"ping","params":[1]}"#,
            r#"{"jsonrpc":"2.0","method":"notifications/x","params":5}"#,
            r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a","name":"b","arguments":{"x":1},"arguments":null,"_meta":{"progressToken":1}}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"e\u0063ho\n"}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":[1,{"a":null}]}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":{"x":true}}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":2.5,"arguments":"x"}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":null,"\u006eame":"n"}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"arguments":{"a":1e400}}}"#,
            r#"{"jsonrpc":"2.0","id":"a","result":null}"#,
            r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"x"}}"#,
            r#"{"jsonrpc":"2.0","id":1}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"ping","extra":1e400}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"ping","extra":"\ud800"}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"ping",}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"ping"} x"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"ping""#,
            r#"[{"jsonrpc":"2.0","id":1,"method":"ping"},3,[],{"jsonrpc":"2.0"}]"#,
            "[]",
            "5",
            "\"text\"",
            "null",
            "1e400",
            "nope",
            "",
            &deep,
            &deep_member,
            &deep_params,
        ] {
            assert_eq!(described(line), described_by_value(line), "{line}");
        }
    }

    #[test]
    fn params_give_back_the_object_as_sent() {
        for params in [
            json!({}),
            json!({"name": "echo", "arguments": {"text": "hi"}, "_meta": {"progressToken": "p"}}),
            json!({"name": 5, "arguments": [1], "requestState": "s"}),
            json!({"name": {"a": [null]}, "other": {"b": 1}}),
            json!({"arguments": null}),
        ] {
            let line =
                json!({"jsonrpc": "2.0", "id": 1, "method": "m", "params": params}).to_string();
            let Ok(Decoded::Message(message)) = serde_json::from_str::<Decoded>(&line) else {
                panic!("{line} did not decode");
            };
            let Incoming::Request {
                params: decoded, ..
            } = Incoming::classify(message)
            else {
                panic!("{line} is not a request");
            };
            assert_eq!(Value::Object(decoded.into_map()), params, "{line}");
        }
    }

    #[test]
    fn classifies_requests_notifications_and_responses() {
        let request = Incoming::classify_value(json!({"jsonrpc":"2.0","id":7,"method":"ping"}));
        assert!(
            matches!(request, Incoming::Request { ref id, ref method, .. } if id == &json!(7) && method == "ping")
        );
        let note =
            Incoming::classify_value(json!({"jsonrpc":"2.0","method":"notifications/initialized"}));
        assert!(matches!(note, Incoming::Notification { .. }));
        let response = Incoming::classify_value(json!({"jsonrpc":"2.0","id":"a","result":{}}));
        assert!(matches!(response, Incoming::Response { .. }));
        // Never answered, even when malformed: a response with an unreadable id, and a
        // notification with unreadable params.
        let response = Incoming::classify_value(
            json!({"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"x"}}),
        );
        assert!(matches!(response, Incoming::Response { ref id, .. } if id.is_null()));
        let note = Incoming::classify_value(
            json!({"jsonrpc":"2.0","method":"notifications/x","params":5}),
        );
        assert!(matches!(
            note,
            Incoming::Notification { params: Params { name: None, arguments: None, ref others }, .. }
                if others.is_empty()
        ));
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
            match Incoming::classify_value(message.clone()) {
                Incoming::Invalid { id, error } => {
                    assert_eq!(error.code, expected_code, "{message}");
                    assert_eq!(id.is_some(), keeps_id, "{message}");
                }
                other => panic!("{message} classified as {other:?}"),
            }
        }
    }
}
