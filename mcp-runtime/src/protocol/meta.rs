//! The `_meta` keys the runtime reads and writes, spelled once.
//!
//! The stateless revision (2026-07-28) carries in every request what a handshake carried
//! before (protocol version, client capabilities and identity, log level), and the server
//! answers with its identity; these are the keys of those members, and a request's
//! `_meta` as decoded ([`RequestMeta`]).

use std::fmt;

use serde::de::{self, Deserialize, Deserializer, MapAccess, Visitor};
use serde_json::{Map, Value};

use super::client_info::ClientInfo;

/// The protocol revision a 2026-07-28 request is served under.
pub(crate) const PROTOCOL_VERSION: &str = "io.modelcontextprotocol/protocolVersion";
/// The capabilities of the client that sent a 2026-07-28 request.
pub(crate) const CLIENT_CAPABILITIES: &str = "io.modelcontextprotocol/clientCapabilities";
/// The name and version of the client that sent a 2026-07-28 request.
pub(crate) const CLIENT_INFO: &str = "io.modelcontextprotocol/clientInfo";
/// The server's identity on every 2026-07-28 result.
pub(crate) const SERVER_INFO: &str = "io.modelcontextprotocol/serverInfo";
/// The log level a 2026-07-28 request asks its log messages to be filtered at.
pub(crate) const LOG_LEVEL: &str = "io.modelcontextprotocol/logLevel";
/// The id of the `subscriptions/listen` request a notification belongs to.
pub(crate) const SUBSCRIPTION_ID: &str = "io.modelcontextprotocol/subscriptionId";
/// The token a request's progress notifications carry (every revision).
pub(crate) const PROGRESS_TOKEN: &str = "progressToken";

/// The members of a request's `_meta` the server reads on every request, but for the
/// client's identity (held as a [`ClientInfo`]).
const READ_EVERY_REQUEST: [&str; 4] = [
    PROTOCOL_VERSION,
    CLIENT_CAPABILITIES,
    LOG_LEVEL,
    PROGRESS_TOKEN,
];

/// A request's `_meta` object as decoded, read like a `serde_json::Map` (`get`, `remove`).
/// The members the server reads on every request (the protocol version, the client's
/// capabilities and identity, the log level, the progress token) are held apart: a
/// 2026-07-28 request carries them every time, and in slots they cost no `String` key and
/// no map entry to decode.
#[derive(Debug, Default, Clone, PartialEq)]
pub(crate) struct RequestMeta {
    /// By their place in [`READ_EVERY_REQUEST`].
    read: [Option<Value>; READ_EVERY_REQUEST.len()],
    /// [`CLIENT_INFO`].
    client_info: Option<ClientInfo>,
    others: Map<String, Value>,
}

impl RequestMeta {
    fn slot(key: &str) -> Option<usize> {
        READ_EVERY_REQUEST.iter().position(|read| *read == key)
    }

    pub fn get(&self, key: &str) -> Option<&Value> {
        match RequestMeta::slot(key) {
            Some(slot) => self.read[slot].as_ref(),
            None if key == CLIENT_INFO => self.client_info.as_ref().map(ClientInfo::value),
            None => self.others.get(key),
        }
    }

    pub fn remove(&mut self, key: &str) -> Option<Value> {
        match RequestMeta::slot(key) {
            Some(slot) => self.read[slot].take(),
            None if key == CLIENT_INFO => self.client_info.take().map(ClientInfo::into_value),
            None => self.others.remove(key),
        }
    }

    /// The client's identity, taken out as it was decoded (as text, from a message).
    pub fn take_client_info(&mut self) -> Option<ClientInfo> {
        self.client_info.take()
    }

    #[cfg(any(feature = "http", feature = "otel"))]
    pub fn contains_key(&self, key: &str) -> bool {
        self.get(key).is_some()
    }

    /// Every member's name.
    #[cfg(feature = "otel")]
    pub fn keys(&self) -> impl Iterator<Item = &str> {
        let read = READ_EVERY_REQUEST
            .iter()
            .zip(&self.read)
            .filter(|(_, value)| value.is_some())
            .map(|(key, _)| *key);
        let client_info = self.client_info.as_ref().map(|_| CLIENT_INFO);
        read.chain(client_info)
            .chain(self.others.keys().map(String::as_str))
    }

    /// A member as a `serde_json::Map` inserts it: the last of a repeated one counts.
    fn insert(&mut self, key: MetaKey, value: Value) {
        match key {
            MetaKey::Read(slot) => self.read[slot] = Some(value),
            MetaKey::ClientInfo => self.client_info = Some(ClientInfo::parsed(value)),
            MetaKey::Other(key) => {
                self.others.insert(key, value);
            }
        }
    }

    /// The object as a `serde_json::Map`.
    pub fn into_map(self) -> Map<String, Value> {
        let mut members = self.others;
        for (key, value) in READ_EVERY_REQUEST.iter().zip(self.read) {
            if let Some(value) = value {
                members.insert((*key).to_owned(), value);
            }
        }
        if let Some(client_info) = self.client_info {
            members.insert(CLIENT_INFO.to_owned(), client_info.into_value());
        }
        members
    }

    pub fn from_map(members: Map<String, Value>) -> RequestMeta {
        let mut meta = RequestMeta::default();
        for (key, value) in members {
            meta.insert(MetaKey::from_string(key), value);
        }
        meta
    }
}

/// A member name of `_meta`: one the server reads on every request (by its slot, or the
/// client's identity), or any other.
enum MetaKey {
    Read(usize),
    ClientInfo,
    Other(String),
}

impl MetaKey {
    fn known(key: &str) -> Option<MetaKey> {
        match RequestMeta::slot(key) {
            Some(slot) => Some(MetaKey::Read(slot)),
            None => (key == CLIENT_INFO).then_some(MetaKey::ClientInfo),
        }
    }

    fn from_string(key: String) -> MetaKey {
        MetaKey::known(&key).unwrap_or(MetaKey::Other(key))
    }
}

impl<'de> Deserialize<'de> for MetaKey {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct KeyName;
        impl Visitor<'_> for KeyName {
            type Value = MetaKey;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a member name")
            }
            fn visit_str<E: de::Error>(self, name: &str) -> Result<MetaKey, E> {
                Ok(MetaKey::known(name).unwrap_or_else(|| MetaKey::Other(name.to_owned())))
            }
            fn visit_string<E: de::Error>(self, name: String) -> Result<MetaKey, E> {
                Ok(MetaKey::from_string(name))
            }
        }
        deserializer.deserialize_str(KeyName)
    }
}

impl<'de> Deserialize<'de> for RequestMeta {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_map(MetaObject)
    }
}

/// Visits a `_meta` object's members.
pub(crate) struct MetaObject;

impl<'de> Visitor<'de> for MetaObject {
    type Value = RequestMeta;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an object")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<RequestMeta, A::Error> {
        let mut meta = RequestMeta::default();
        while let Some(key) = map.next_key::<MetaKey>()? {
            if let MetaKey::ClientInfo = key {
                meta.client_info = Some(map.next_value()?);
                continue;
            }
            let value = map.next_value()?;
            meta.insert(key, value);
        }
        Ok(meta)
    }
}
