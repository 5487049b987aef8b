//! Decoding a line in one pass: the envelope's members, a batch, and for `tools/call` the
//! tool's name and its `arguments` as raw JSON (both borrowed from the line), with no
//! `Value` tree built for the envelope. The wire layer never names a tool: what a call's
//! arguments mean is for its tool to decode (`tool::arguments`).

use std::borrow::Cow;
use std::fmt;

use serde::de::{self, Deserialize, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;
use serde_json::{Map, Value};

use super::check::{Checked, check_arguments, check_map, check_seq, scalars_are};
use crate::protocol::meta::{MetaObject, RequestMeta};

/// One line of input, decoded: a message, or a batch of them.
///
/// Decoding goes through the same parser, with the same checks, as decoding a
/// `serde_json::Value` (nesting depth, number range, string escapes), so a line is exactly
/// as valid either way; only the members a message is classified by are kept.
#[derive(Debug)]
// On the stack for the one line being handled, as `Message` is.
#[allow(clippy::large_enum_variant)]
pub(crate) enum Decoded<'a> {
    Message(Message<'a>),
    Batch(Vec<Message<'a>>),
}

/// One message as decoded, before it is classified.
#[derive(Debug)]
pub(crate) enum Message<'a> {
    /// Boxed, and decoded in place in its box: the members are large, and unboxed they
    /// would be copied by each of serde's visitors, `Result`s and enums on the way to the
    /// session; one allocation costs less than those copies.
    Object(Box<Members<'a>>),
    /// A JSON value other than an object.
    NotObject,
}

/// The members of a message object that classify it (the last of a repeated member
/// counts, as in a `serde_json::Map`).
#[derive(Debug, Default)]
pub(crate) struct Members<'a> {
    /// `jsonrpc` is the string "2.0".
    pub(super) is_jsonrpc_2_0: bool,
    pub(super) id: Option<Value>,
    pub(super) method: Option<StringMember<'a>>,
    pub(super) params: Option<ParamsMember<'a>>,
    pub(super) result: Option<Value>,
    pub(super) error: Option<Value>,
}

/// The `params` member of a message.
#[derive(Debug)]
pub(super) enum ParamsMember<'a> {
    Object(Params<'a>),
    NotObject,
}

/// A message's `params` object, decoded once: `tools/call`'s `name` (borrowed from the line
/// when it can be), `arguments` and `_meta` apart, since every call reads them, and the
/// other members as they are. Nothing is lost: [`Params::into_map`] gives back the object
/// as sent.
#[derive(Debug, Default)]
pub(crate) struct Params<'a> {
    pub name: Option<StringMember<'a>>,
    pub arguments: Option<Arguments<'a>>,
    pub meta: Option<MetaMember>,
    /// Every member but `name`, `arguments` and `_meta`.
    pub others: Map<String, Value>,
}

/// The `arguments` member of `params`.
pub(crate) enum Arguments<'a> {
    /// A `tools/call`'s, as the JSON text sent: its tool decodes it. Checked as a `Value`
    /// would be (nesting depth within the message, number range, escapes), so a line is
    /// exactly as valid as it is to `serde_json`.
    Raw(&'a RawValue),
    /// Parsed: any other method's (or a call whose `method` follows its `params`).
    Value(Value),
}

impl Arguments<'_> {
    /// The arguments as a `Value`.
    pub fn into_value(self) -> Value {
        match self {
            Arguments::Raw(raw) => serde_json::from_str(raw.get())
                .expect("raw arguments are checked when they are decoded"),
            Arguments::Value(value) => value,
        }
    }
}

/// The arguments as a `Value`, however they were kept: they mean the same either way.
impl fmt::Debug for Arguments<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let value = match self {
            Arguments::Raw(raw) => serde_json::from_str(raw.get()).map_err(|_| fmt::Error)?,
            Arguments::Value(value) => value.clone(),
        };
        f.debug_tuple("Arguments").field(&value).finish()
    }
}

/// The `_meta` member of `params`.
#[derive(Debug)]
pub(crate) enum MetaMember {
    /// Boxed: the members read on every request are held inline, which would make every
    /// `params` that much larger.
    Object(Box<RequestMeta>),
    /// Not an object: kept as sent (and read as no `_meta` at all).
    Other(Value),
}

impl MetaMember {
    fn from_value(value: Value) -> MetaMember {
        match value {
            Value::Object(members) => MetaMember::Object(Box::new(RequestMeta::from_map(members))),
            other => MetaMember::Other(other),
        }
    }

    /// The object, when `_meta` is one.
    pub fn into_object(self) -> Option<RequestMeta> {
        match self {
            MetaMember::Object(meta) => Some(*meta),
            MetaMember::Other(_) => None,
        }
    }

    fn into_value(self) -> Value {
        match self {
            MetaMember::Object(meta) => Value::Object(meta.into_map()),
            MetaMember::Other(value) => value,
        }
    }
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
            arguments: members.remove("arguments").map(Arguments::Value),
            meta: members.remove("_meta").map(MetaMember::from_value),
            others: members,
        }
    }

    /// `_meta`, when it is an object.
    pub fn meta(&self) -> Option<&RequestMeta> {
        match self.meta.as_ref()? {
            MetaMember::Object(meta) => Some(meta),
            MetaMember::Other(_) => None,
        }
    }

    /// `_meta` when it is an object, and every other member: the object as the client sent
    /// it, for what reads `_meta` only through [`RequestMeta`].
    pub fn split_meta(mut self) -> (Option<RequestMeta>, Map<String, Value>) {
        // A `_meta` that is not an object stays among the members, as sent.
        let meta = self
            .meta
            .take_if(|meta| matches!(meta, MetaMember::Object(_)))
            .and_then(MetaMember::into_object);
        (meta, self.into_map())
    }

    /// The `params` object as the client sent it.
    pub fn into_map(self) -> Map<String, Value> {
        let mut members = self.others;
        if let Some(meta) = self.meta {
            members.insert("_meta".to_owned(), meta.into_value());
        }
        if let Some(name) = self.name {
            let name = match name {
                StringMember::Text(name) => Value::String(name.into_owned()),
                StringMember::Other(name) => name,
            };
            members.insert("name".to_owned(), name);
        }
        if let Some(arguments) = self.arguments {
            members.insert("arguments".to_owned(), arguments.into_value());
        }
        members
    }
}

/// What a transport reads of a message before the session handles it (over HTTP: the
/// routing headers checked against the body, the scopes a call needs, the session it
/// belongs to), straight from the decoded members.
#[cfg(feature = "http")]
impl<'a> Decoded<'a> {
    /// The message's members, unless this is a batch or not an object.
    pub fn single(&self) -> Option<&Members<'a>> {
        match self {
            Decoded::Message(Message::Object(members)) => Some(members),
            Decoded::Message(Message::NotObject) | Decoded::Batch(_) => None,
        }
    }
}

#[cfg(feature = "http")]
impl<'a> Members<'a> {
    /// `method`, when it is a string.
    pub fn method(&self) -> Option<&str> {
        self.method.as_ref().and_then(StringMember::text)
    }

    /// `id` as sent (`null` included).
    pub fn id(&self) -> Option<&Value> {
        self.id.as_ref()
    }

    /// Whether this is an answer: a `result` or an `error`, and no `method`.
    pub fn is_answer(&self) -> bool {
        self.method.is_none() && (self.result.is_some() || self.error.is_some())
    }

    /// `params`, when it is an object.
    pub fn params(&self) -> Option<&Params<'a>> {
        match &self.params {
            Some(ParamsMember::Object(params)) => Some(params),
            Some(ParamsMember::NotObject) | None => None,
        }
    }
}

#[cfg(feature = "http")]
impl Params<'_> {
    /// The string member `key`: `name`, or one of the others (`uri`, say).
    pub fn string(&self, key: &str) -> Option<&str> {
        match key {
            "name" => self.name.as_ref().and_then(StringMember::text),
            _ => self.others.get(key).and_then(Value::as_str),
        }
    }

    /// `arguments` as a `Value` (parsed again when kept raw, so only for what needs it).
    pub fn arguments_value(&self) -> Option<Cow<'_, Value>> {
        match self.arguments.as_ref()? {
            Arguments::Raw(raw) => serde_json::from_str(raw.get()).ok().map(Cow::Owned),
            Arguments::Value(value) => Some(Cow::Borrowed(value)),
        }
    }
}

#[cfg(feature = "http")]
impl StringMember<'_> {
    /// The text, when the member is a string.
    pub fn text(&self) -> Option<&str> {
        match self {
            StringMember::Text(text) => Some(text),
            StringMember::Other(_) => None,
        }
    }
}

impl Decoded<'static> {
    /// The same decoding, of a value already parsed (a client's answer forwarded by
    /// another instance of a fleet).
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
        Message::Object(Box::new(Members {
            is_jsonrpc_2_0: members.get("jsonrpc").and_then(Value::as_str) == Some("2.0"),
            id: members.remove("id"),
            method: members.remove("method").map(StringMember::from_value),
            params: members.remove("params").map(|params| match params {
                Value::Object(params) => ParamsMember::Object(Params::from_map(params)),
                _ => ParamsMember::NotObject,
            }),
            result: members.remove("result"),
            error: members.remove("error"),
        }))
    }
}

impl<'a> Decoded<'a> {
    /// Decodes a message or a batch, borrowing from `json`: it decodes as it does with
    /// `serde_json::from_slice` into a `Value`, and is refused with the same error.
    #[inline]
    pub fn decode(json: JsonInput<'a>) -> Result<Decoded<'a>, serde_json::Error> {
        let decoded = match json {
            JsonInput::Line(line) => decode_from(serde_json::Deserializer::from_str(line)),
            JsonInput::Body(body) => decode_from(serde_json::Deserializer::from_slice(body)),
        };
        // Arguments that fail their own check fail with an error of their own text: the
        // line's, as a `Value` would be refused, is told by checking the line again.
        decoded.map_err(|error| {
            match json {
                JsonInput::Line(line) => check_all(serde_json::Deserializer::from_str(line)),
                JsonInput::Body(body) => check_all(serde_json::Deserializer::from_slice(body)),
            }
            .err()
            .unwrap_or(error)
        })
    }
}

/// A message's JSON: a line of stdio (text already), or a body over HTTP (bytes).
#[derive(Clone, Copy, Debug)]
pub(crate) enum JsonInput<'a> {
    Line(&'a str),
    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    Body(&'a [u8]),
}

fn decode_from<'a, R: serde_json::de::Read<'a>>(
    mut deserializer: serde_json::Deserializer<R>,
) -> Result<Decoded<'a>, serde_json::Error> {
    let decoded = Decoded::deserialize(&mut deserializer)?;
    deserializer.end()?;
    Ok(decoded)
}

/// The whole input checked as a `Value` would be, for the error it gets.
fn check_all<'a, R: serde_json::de::Read<'a>>(
    mut deserializer: serde_json::Deserializer<R>,
) -> Result<(), serde_json::Error> {
    Checked::deserialize(&mut deserializer)?;
    deserializer.end()
}

/// A line: a message or a batch.
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
        Members::visit(map, MESSAGE_DEPTH).map(|members| Decoded::Message(Message::Object(members)))
    }
    scalars_are!(Decoded::Message(Message::NotObject));
}

impl<'de> Deserialize<'de> for Decoded<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
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
                Members::visit(map, MESSAGE_DEPTH + 1).map(Message::Object)
            }
            scalars_are!(Message::NotObject);
        }
        deserializer.deserialize_any(OneMessage)
    }
}

/// How many arrays and objects enclose a message's `arguments` (the message and its
/// `params`), one more in a batch; `serde_json` refuses a line nested 128 deep.
const MESSAGE_DEPTH: u8 = 2;

impl<'de> Members<'de> {
    /// The members of a message whose `arguments` sit inside `depth` arrays and objects.
    fn visit<A: MapAccess<'de>>(mut map: A, depth: u8) -> Result<Box<Self>, A::Error> {
        let mut members = Box::<Members>::default();
        while let Some(key) = map.next_key::<Key>()? {
            match key {
                Key::Jsonrpc => members.is_jsonrpc_2_0 = map.next_value::<IsVersion2>()?.0,
                Key::Id => members.id = Some(map.next_value()?),
                Key::Method => members.method = Some(map.next_value()?),
                Key::Params => {
                    let is_call = matches!(&members.method, Some(StringMember::Text(method)) if method == "tools/call");
                    members.params = Some(map.next_value_seed(ParamsSeed { is_call, depth })?);
                }
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

/// A message's `params`: whether they are a `tools/call`'s (whose `arguments` are kept as
/// sent), and how many arrays and objects enclose their `arguments`.
struct ParamsSeed {
    is_call: bool,
    depth: u8,
}

impl<'de> DeserializeSeed<'de> for ParamsSeed {
    type Value = ParamsMember<'de>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for ParamsSeed {
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
                ParamsKey::Arguments if self.is_call => {
                    let raw: &'de RawValue = map.next_value()?;
                    // Skipped, not parsed, as the raw text was taken: checked here instead.
                    check_arguments(raw.get(), self.depth).map_err(de::Error::custom)?;
                    params.arguments = Some(Arguments::Raw(raw));
                }
                ParamsKey::Arguments => {
                    params.arguments = Some(Arguments::Value(map.next_value()?))
                }
                ParamsKey::Meta => params.meta = Some(map.next_value()?),
                ParamsKey::Other(key) => {
                    params.others.insert(key, map.next_value()?);
                }
            }
        }
        Ok(ParamsMember::Object(params))
    }
    scalars_are!(ParamsMember::NotObject);
}

enum ParamsKey {
    Name,
    Arguments,
    Meta,
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
                    "_meta" => ParamsKey::Meta,
                    other => ParamsKey::Other(other.to_owned()),
                })
            }
            fn visit_string<E: de::Error>(self, name: String) -> Result<ParamsKey, E> {
                Ok(match name.as_str() {
                    "name" => ParamsKey::Name,
                    "arguments" => ParamsKey::Arguments,
                    "_meta" => ParamsKey::Meta,
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

impl<'de> Deserialize<'de> for MetaMember {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        /// An object as [`RequestMeta`], anything else as the `Value` it is.
        struct AnyMeta;
        impl<'de> Visitor<'de> for AnyMeta {
            type Value = MetaMember;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("_meta")
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<MetaMember, A::Error> {
                MetaObject
                    .visit_map(map)
                    .map(|meta| MetaMember::Object(Box::new(meta)))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<MetaMember, A::Error> {
                let mut items = Vec::new();
                while let Some(item) = seq.next_element()? {
                    items.push(item);
                }
                Ok(MetaMember::Other(Value::Array(items)))
            }
            fn visit_bool<E: de::Error>(self, value: bool) -> Result<MetaMember, E> {
                Ok(MetaMember::Other(value.into()))
            }
            fn visit_i64<E: de::Error>(self, value: i64) -> Result<MetaMember, E> {
                Ok(MetaMember::Other(value.into()))
            }
            fn visit_u64<E: de::Error>(self, value: u64) -> Result<MetaMember, E> {
                Ok(MetaMember::Other(value.into()))
            }
            fn visit_f64<E: de::Error>(self, value: f64) -> Result<MetaMember, E> {
                Ok(MetaMember::Other(value.into()))
            }
            fn visit_str<E: de::Error>(self, value: &str) -> Result<MetaMember, E> {
                Ok(MetaMember::Other(value.into()))
            }
            fn visit_string<E: de::Error>(self, value: String) -> Result<MetaMember, E> {
                Ok(MetaMember::Other(value.into()))
            }
            fn visit_unit<E: de::Error>(self) -> Result<MetaMember, E> {
                Ok(MetaMember::Other(Value::Null))
            }
        }
        deserializer.deserialize_any(AnyMeta)
    }
}
