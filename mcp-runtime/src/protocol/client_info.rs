//! What a client said about itself (`clientInfo` in `initialize`, or a 2026-07-28 request's
//! `_meta`), kept as JSON text until something reads it.
//!
//! A 2026-07-28 request carries the client's identity every time, and tools seldom read it,
//! so no request should pay for building it into a `serde_json::Value` (an allocation for
//! its object and for each name and string). Here it is checked exactly as that decoding
//! checks it (the same parser, at the same place in the message, so the same errors),
//! written out as compact JSON text into one buffer, and parsed into a `Value` the first
//! time it is read.

use std::fmt;
use std::sync::OnceLock;

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::Value;

/// A client's self-description.
#[derive(Clone)]
pub(crate) struct ClientInfo {
    /// Compact JSON text that decodes to the value as it was sent; empty when `parsed` was
    /// given up front.
    text: Vec<u8>,
    parsed: OnceLock<Value>,
}

impl ClientInfo {
    /// An identity already decoded (`initialize`'s params, a fleet's session record).
    pub fn parsed(value: Value) -> Self {
        ClientInfo {
            text: Vec::new(),
            parsed: OnceLock::from(value),
        }
    }

    /// An identity as compact JSON text, which must decode (`serde_json::to_vec` of a
    /// `Value`); decoded the first time it is read.
    pub fn text(text: Vec<u8>) -> Self {
        ClientInfo {
            text,
            parsed: OnceLock::new(),
        }
    }

    /// Reads the next value of `deserializer`, which may be any JSON value.
    pub fn decode<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let mut text = Vec::with_capacity(64);
        deserializer.deserialize_any(Rewrite(&mut text))?;
        Ok(ClientInfo {
            text,
            parsed: OnceLock::new(),
        })
    }

    pub fn value(&self) -> &Value {
        self.parsed.get_or_init(|| {
            // Text written by `Rewrite` from what the parser accepted: it parses back (and
            // nests no deeper than it did inside the message).
            serde_json::from_slice(&self.text).unwrap_or(Value::Null)
        })
    }

    pub fn into_value(self) -> Value {
        self.value();
        self.parsed.into_inner().unwrap_or(Value::Null)
    }
}

impl<'de> serde::Deserialize<'de> for ClientInfo {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        ClientInfo::decode(deserializer)
    }
}

impl PartialEq for ClientInfo {
    fn eq(&self, other: &Self) -> bool {
        self.value() == other.value()
    }
}

/// As the value it holds, however it is held.
impl fmt::Debug for ClientInfo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("ClientInfo").field(self.value()).finish()
    }
}

/// Visits one JSON value, appending it to the text as compact JSON. The parser hands every
/// part over as `serde_json::Value`'s decoding receives it: numbers as `u64`, `i64` or a
/// finite `f64`, strings unescaped; each is written back as `serde_json` writes a `Value`
/// (a number in the shortest form that reads back the same, a string escaped).
struct Rewrite<'a>(&'a mut Vec<u8>);

impl Rewrite<'_> {
    fn write<T: serde::Serialize + ?Sized, E>(self, part: &T) -> Result<(), E> {
        // Into a `Vec`, which cannot fail.
        let _ = serde_json::to_writer(self.0, part);
        Ok(())
    }
}

impl<'de> DeserializeSeed<'de> for Rewrite<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Rewrite<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any valid JSON value")
    }

    fn visit_bool<E: de::Error>(self, value: bool) -> Result<(), E> {
        self.write(&value)
    }

    fn visit_i64<E: de::Error>(self, value: i64) -> Result<(), E> {
        self.write(&value)
    }

    fn visit_u64<E: de::Error>(self, value: u64) -> Result<(), E> {
        self.write(&value)
    }

    fn visit_f64<E: de::Error>(self, value: f64) -> Result<(), E> {
        self.write(&value)
    }

    fn visit_str<E: de::Error>(self, value: &str) -> Result<(), E> {
        self.write(value)
    }

    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        self.0.extend_from_slice(b"null");
        Ok(())
    }

    fn visit_none<E: de::Error>(self) -> Result<(), E> {
        self.visit_unit()
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut elements: A) -> Result<(), A::Error> {
        self.0.push(b'[');
        comma_separated(self.0, |text| {
            Ok(elements.next_element_seed(Rewrite(text))?.is_some())
        })?;
        self.0.push(b']');
        Ok(())
    }

    fn visit_map<A: MapAccess<'de>>(self, mut members: A) -> Result<(), A::Error> {
        self.0.push(b'{');
        comma_separated(self.0, |text| {
            // A name is a string: the same visitor writes it. Names repeated are written
            // as often; reading the text back keeps the last, as `Value` does.
            if members.next_key_seed(Rewrite(text))?.is_none() {
                return Ok(false);
            }
            text.push(b':');
            members.next_value_seed(Rewrite(&mut *text))?;
            Ok(true)
        })?;
        self.0.push(b'}');
        Ok(())
    }
}

/// Writes what `next` writes until it says there is no more (`false`), with commas between.
fn comma_separated<E>(
    text: &mut Vec<u8>,
    mut next: impl FnMut(&mut Vec<u8>) -> Result<bool, E>,
) -> Result<(), E> {
    let mut first = true;
    loop {
        let mark = text.len();
        if !first {
            text.push(b',');
        }
        if !next(text)? {
            text.truncate(mark);
            return Ok(());
        }
        first = false;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Decoded from a message as `serde_json::Value` decodes it: the same value, the same
    /// errors.
    #[test]
    fn decodes_what_value_decodes_and_refuses_what_it_refuses() {
        let deep = format!("{}1{}", "[".repeat(200), "]".repeat(200));
        for text in [
            r#"{"name":"c","version":"1.0"}"#,
            r#"{"name":"c\"\\\n\u00e9\ud83d\ude00","version":1}"#,
            r#"{"a":[1,-2,3.5,-0.0,1e300,18446744073709551615,-9223372036854775808,true,false,null,{}]}"#,
            r#"{"a":1,"a":2}"#,
            r#"{ "spaced" : [ 1 , 2 ] }"#,
            r#"[]"#,
            r#""text""#,
            r#"0.1"#,
            r#"123456789012345678901234567890"#,
            r#"{"n":1e400}"#,
            r#"{"s":"\ud800"}"#,
            r#"{"a":1,}"#,
            r#"{"a" 1}"#,
            &deep,
        ] {
            let expected = serde_json::from_str::<Value>(text).map_err(|error| error.to_string());
            let mut deserializer = serde_json::Deserializer::from_str(text);
            let decoded = ClientInfo::decode(&mut deserializer)
                .and_then(|info| deserializer.end().map(|()| info))
                .map(ClientInfo::into_value)
                .map_err(|error| error.to_string());
            assert_eq!(decoded, expected, "{text}");
        }
    }

    #[test]
    fn reads_the_same_however_it_is_held() {
        let value = serde_json::json!({"name": "c", "version": "1"});
        let mut deserializer = serde_json::Deserializer::from_str(r#"{"name":"c","version":"1"}"#);
        let decoded = ClientInfo::decode(&mut deserializer).unwrap();
        assert_eq!(decoded, ClientInfo::parsed(value.clone()));
        assert_eq!(decoded.value(), &value);
        assert_eq!(
            format!("{decoded:?}"),
            format!("{:?}", ClientInfo::parsed(value))
        );
    }
}
