//! A JSON object read and written back in its own order, each member's value kept as written:
//! how `install` adds one entry to a host's configuration without reordering or reformatting
//! anything else in the file.

use std::fmt;

use serde::Deserialize;
use serde::de::{Deserializer, MapAccess, Visitor};
use serde_json::value::RawValue;

/// The members of one JSON object, in the order they were read or set.
#[derive(Debug, Default)]
pub(super) struct Object(Vec<(String, Box<RawValue>)>);

impl Object {
    /// Reads a JSON object; text that is only whitespace is the empty object (a host may
    /// create its configuration file empty).
    pub(super) fn parse(text: &str) -> Result<Object, serde_json::Error> {
        if text.trim().is_empty() {
            return Ok(Object::default());
        }
        serde_json::from_str(text)
    }

    /// The value of `key`, as written.
    pub(super) fn get(&self, key: &str) -> Option<&RawValue> {
        self.0
            .iter()
            .find(|(name, _)| name == key)
            .map(|(_, value)| &**value)
    }

    /// Sets `key` to JSON text, in its place if it is there, else last.
    pub(super) fn set_raw(&mut self, key: &str, json: String) -> Result<(), serde_json::Error> {
        let value = RawValue::from_string(json)?;
        match self.0.iter_mut().find(|(name, _)| name == key) {
            Some((_, slot)) => *slot = value,
            None => self.0.push((key.to_owned(), value)),
        }
        Ok(())
    }

    /// Sets `key` to `value`, written on the lines of an object nested `depth` deep.
    pub(super) fn set(
        &mut self,
        key: &str,
        value: &impl serde::Serialize,
        depth: usize,
    ) -> Result<(), serde_json::Error> {
        let pretty = serde_json::to_string_pretty(value)?;
        self.set_raw(key, indented(&pretty, depth + 1))
    }

    /// The object, two spaces an indent, as the value of a member `depth` objects deep; the
    /// values it read are written as they were.
    pub(super) fn to_pretty(&self, depth: usize) -> String {
        if self.0.is_empty() {
            return "{}".to_owned();
        }
        let inner = "  ".repeat(depth + 1);
        let members: Vec<String> = self
            .0
            .iter()
            .map(|(key, value)| {
                let key = serde_json::to_string(key).unwrap_or_default();
                format!("{inner}{key}: {}", value.get())
            })
            .collect();
        format!("{{\n{}\n{}}}", members.join(",\n"), "  ".repeat(depth))
    }
}

/// Pretty JSON moved right to sit `depth` indents deep (its first line stays where it is).
fn indented(pretty: &str, depth: usize) -> String {
    pretty.replace('\n', &format!("\n{}", "  ".repeat(depth)))
}

impl<'de> Deserialize<'de> for Object {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Members;
        impl<'de> Visitor<'de> for Members {
            type Value = Object;
            fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
                formatter.write_str("a JSON object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Object, A::Error> {
                let mut members = Vec::new();
                while let Some(member) = map.next_entry::<String, Box<RawValue>>()? {
                    members.push(member);
                }
                Ok(Object(members))
            }
        }
        deserializer.deserialize_map(Members)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn keeps_order_and_what_it_did_not_touch() {
        let text = "{\n  \"zeta\": [1,   2],\n  \"servers\": {\"old\": {\"command\": \"x\"}},\n  \"alpha\": true\n}";
        let mut top = Object::parse(text).unwrap();
        let mut servers = Object::parse(top.get("servers").unwrap().get()).unwrap();
        servers.set("new", &json!({"command": "y"}), 1).unwrap();
        top.set_raw("servers", servers.to_pretty(1)).unwrap();
        assert_eq!(
            top.to_pretty(0),
            "{\n  \"zeta\": [1,   2],\n  \"servers\": {\n    \"old\": {\"command\": \"x\"},\n    \
             \"new\": {\n      \"command\": \"y\"\n    }\n  },\n  \"alpha\": true\n}"
        );
        let reread: serde_json::Value = serde_json::from_str(&top.to_pretty(0)).unwrap();
        assert_eq!(reread["servers"]["new"], json!({"command": "y"}));
    }

    #[test]
    fn replaces_in_place_and_reads_empty_text_as_an_empty_object() {
        let mut object = Object::parse(" \n").unwrap();
        assert_eq!(object.to_pretty(0), "{}");
        object.set("a", &1, 0).unwrap();
        object.set("b", &2, 0).unwrap();
        object.set("a", &3, 0).unwrap();
        assert_eq!(object.to_pretty(0), "{\n  \"a\": 3,\n  \"b\": 2\n}");
        assert!(Object::parse("[1]").is_err());
        assert!(Object::parse("{\"a\": 1, // note\n}").is_err());
    }
}
