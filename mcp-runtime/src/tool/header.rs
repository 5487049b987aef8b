//! `x-mcp-header` (2026-07-28, SEP-2243): a tool parameter mirrored into the HTTP header
//! `Mcp-Param-{name}`, so a gateway or load balancer can route on it without reading the
//! body. The annotation sits in the parameter's property of `inputSchema`; the HTTP
//! transport checks every mirrored header against the body, and stdio ignores it.

// Only the HTTP transport checks headers; the rest of a build without it reads the schema.
#![cfg_attr(not(feature = "http"), allow(dead_code))]

use std::borrow::Cow;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use serde_json::{Map, Value};

/// The schema keyword naming a property's header.
pub(crate) const KEYWORD: &str = "x-mcp-header";

/// What the header's name starts with, before the annotation.
pub(crate) const PREFIX: &str = "Mcp-Param-";

/// The sentinel around a Base64-encoded header value.
const ENCODED_START: &str = "=?base64?";
const ENCODED_END: &str = "?=";

/// One parameter mirrored into a header.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct HeaderParam {
    /// The annotation, as the schema spells it: the header is `Mcp-Param-` and this.
    pub name: String,
    /// The `properties` keys leading from the arguments to the value.
    pub path: Vec<String>,
}

impl HeaderParam {
    /// The header's full name, `Mcp-Param-{name}`.
    pub fn header(&self) -> String {
        format!("{PREFIX}{}", self.name)
    }

    /// The value the arguments hold for it: `None` when absent or `null`, where the client
    /// sends no header.
    pub fn value<'a>(&self, arguments: &'a Value) -> Option<&'a Value> {
        let mut value = arguments;
        for key in &self.path {
            value = value.get(key)?;
        }
        (!value.is_null()).then_some(value)
    }
}

/// Whether `name` can follow `Mcp-Param-` in a header name: one or more `tchar` (RFC 9110
/// section 5.6.2), which leaves out spaces, colons, control characters and non-ASCII.
pub(crate) fn is_header_name(name: &str) -> bool {
    !name.is_empty()
        && name
            .bytes()
            .all(|byte| byte.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&byte))
}

/// The parameters a tool's `inputSchema` mirrors into headers, or why its annotations are
/// invalid (clients drop such a tool from `tools/list`, so a server must not publish one).
pub(crate) fn header_params(schema: &Value) -> Result<Vec<HeaderParam>, String> {
    let mut found = Vec::new();
    let mut path = Vec::new();
    walk(schema, &mut path, Reach::Root, &mut found)?;
    for (index, param) in found.iter().enumerate() {
        if let Some(earlier) = found[..index]
            .iter()
            .find(|earlier| earlier.name.eq_ignore_ascii_case(&param.name))
        {
            return Err(format!(
                "`{KEYWORD}: \"{}\"` on `{}` repeats the one on `{}`; header names are \
                 case-insensitive, so each parameter needs its own",
                param.name,
                param.path.join("."),
                earlier.path.join("."),
            ));
        }
    }
    Ok(found)
}

/// Where a subschema sits: the root, a property reached through `properties` alone, or
/// anywhere else (under `items`, `oneOf`, `$defs`, ...), where an annotation is invalid.
#[derive(Clone, Copy, PartialEq)]
enum Reach {
    Root,
    Property,
    Elsewhere,
}

/// The keywords whose values are subschemas, or objects or arrays of subschemas (not
/// `default`, `enum`, `const` or `examples`, which hold instances).
const SUBSCHEMAS: [&str; 18] = [
    "items",
    "prefixItems",
    "contains",
    "additionalProperties",
    "patternProperties",
    "propertyNames",
    "unevaluatedItems",
    "unevaluatedProperties",
    "dependentSchemas",
    "allOf",
    "anyOf",
    "oneOf",
    "not",
    "if",
    "then",
    "else",
    "$defs",
    "definitions",
];

fn walk(
    schema: &Value,
    path: &mut Vec<String>,
    reach: Reach,
    found: &mut Vec<HeaderParam>,
) -> Result<(), String> {
    let Value::Object(members) = schema else {
        return Ok(());
    };
    if let Some(name) = members.get(KEYWORD) {
        let place = if path.is_empty() {
            "the schema's root".to_owned()
        } else {
            format!("`{}`", path.join("."))
        };
        if reach != Reach::Property {
            return Err(format!(
                "`{KEYWORD}` on {place}: only a property reached from the root through \
                 `properties` alone may carry it (not through `items`, `oneOf`, `$ref`, ...)"
            ));
        }
        let name = match name.as_str() {
            Some(name) if is_header_name(name) => name,
            _ => {
                return Err(format!(
                    "`{KEYWORD}` on {place} must be a header name: one or more ASCII letters, \
                     digits or `!#$%&'*+-.^_`|~`, no space, colon or control character; got {name}"
                ));
            }
        };
        if !is_primitive(members) {
            return Err(format!(
                "`{KEYWORD}` on {place} needs a string, integer or boolean property (`\"type\"` \
                 one of those); numbers, objects, arrays and untyped values cannot be mirrored"
            ));
        }
        found.push(HeaderParam {
            name: name.to_owned(),
            path: path.clone(),
        });
    }
    if let Some(Value::Object(properties)) = members.get("properties") {
        let inner = if reach == Reach::Elsewhere {
            Reach::Elsewhere
        } else {
            Reach::Property
        };
        for (key, property) in properties {
            path.push(key.clone());
            let walked = walk(property, path, inner, found);
            path.pop();
            walked?;
        }
    }
    for keyword in SUBSCHEMAS {
        match members.get(keyword) {
            Some(Value::Array(schemas)) => {
                for schema in schemas {
                    walk(schema, path, Reach::Elsewhere, found)?;
                }
            }
            // Keywords whose object maps names to subschemas, rather than being one.
            Some(Value::Object(object))
                if matches!(
                    keyword,
                    "patternProperties" | "dependentSchemas" | "$defs" | "definitions"
                ) =>
            {
                for schema in object.values() {
                    walk(schema, path, Reach::Elsewhere, found)?;
                }
            }
            Some(schema @ Value::Object(_)) => walk(schema, path, Reach::Elsewhere, found)?,
            _ => {}
        }
    }
    Ok(())
}

/// Whether a property's `type` is `string`, `integer` or `boolean` (alone, or with `null`).
fn is_primitive(members: &Map<String, Value>) -> bool {
    let primitive = |name: &str| matches!(name, "string" | "integer" | "boolean");
    match members.get("type") {
        Some(Value::String(name)) => primitive(name),
        Some(Value::Array(names)) => {
            let names: Vec<_> = names.iter().filter_map(Value::as_str).collect();
            names.iter().filter(|name| primitive(name)).count() == 1
                && names.iter().all(|name| primitive(name) || *name == "null")
        }
        _ => false,
    }
}

/// A mirrored header's value as its client meant it: `=?base64?...?=` decoded (strict
/// Base64 with padding, then UTF-8), anything else as it is.
pub(crate) fn decode(sent: &str) -> Result<Cow<'_, str>, String> {
    let Some(encoded) = sent
        .strip_prefix(ENCODED_START)
        .and_then(|rest| rest.strip_suffix(ENCODED_END))
    else {
        return Ok(Cow::Borrowed(sent));
    };
    let bytes = STANDARD
        .decode(encoded)
        .map_err(|error| format!("`{sent}` is not valid Base64 ({error})"))?;
    String::from_utf8(bytes)
        .map(Cow::Owned)
        .map_err(|_| format!("`{sent}` does not decode to UTF-8 text"))
}

/// Whether a header, decoded, says what the body's value says: the same text, the same
/// integer (compared as numbers, so `42.0` is `42`), `true` or `false`.
pub(crate) fn agrees(value: &Value, decoded: &str) -> bool {
    match value {
        Value::String(text) => text == decoded,
        Value::Bool(flag) => decoded == if *flag { "true" } else { "false" },
        Value::Number(number) => match (number.as_i64(), decoded.parse::<i64>()) {
            (Some(body), Ok(header)) => body == header,
            _ => match (number.as_f64(), decoded.trim().parse::<f64>()) {
                (Some(body), Ok(header)) => body == header,
                _ => false,
            },
        },
        // Not a value a header can carry: the arguments' validation refuses it.
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn finds_properties_reached_through_properties_alone() {
        let schema = json!({
            "type": "object",
            "properties": {
                "region": { "type": "string", "x-mcp-header": "Region" },
                "query": { "type": "string" },
                "target": {
                    "type": "object",
                    "properties": { "zone": { "type": ["integer", "null"], "x-mcp-header": "Zone" } }
                },
                "loud": { "type": "boolean", "x-mcp-header": "Loud", "default": { "x-mcp-header": 1 } }
            }
        });
        let found = header_params(&schema).unwrap();
        let names: Vec<_> = found
            .iter()
            .map(|param| (param.header(), param.path.join(".")))
            .collect();
        assert_eq!(
            names,
            [
                ("Mcp-Param-Loud".to_owned(), "loud".to_owned()),
                ("Mcp-Param-Region".to_owned(), "region".to_owned()),
                ("Mcp-Param-Zone".to_owned(), "target.zone".to_owned()),
            ]
        );
        let arguments = json!({ "region": "eu", "target": { "zone": null } });
        assert_eq!(found[1].value(&arguments), Some(&json!("eu")));
        assert_eq!(found[2].value(&arguments), None);
        assert_eq!(found[0].value(&arguments), None);
    }

    #[test]
    fn refuses_what_clients_refuse() {
        let with = |property: Value| json!({ "type": "object", "properties": { "p": property } });
        let refused = [
            (
                with(json!({ "type": "string", "x-mcp-header": "" })),
                "must be a header name",
            ),
            (
                with(json!({ "type": "string", "x-mcp-header": "My Region" })),
                "must be a header name",
            ),
            (
                with(json!({ "type": "string", "x-mcp-header": "Region:1" })),
                "must be a header name",
            ),
            (
                with(json!({ "type": "string", "x-mcp-header": "Région" })),
                "must be a header name",
            ),
            (
                with(json!({ "type": "string", "x-mcp-header": "Tab\t" })),
                "must be a header name",
            ),
            (
                with(json!({ "type": "number", "x-mcp-header": "Score" })),
                "string, integer or boolean",
            ),
            (
                with(json!({ "type": "object", "x-mcp-header": "Data" })),
                "string, integer or boolean",
            ),
            (
                with(json!({ "type": "array", "x-mcp-header": "Items" })),
                "string, integer or boolean",
            ),
            (
                with(json!({ "type": "null", "x-mcp-header": "Nil" })),
                "string, integer or boolean",
            ),
            (
                with(json!({ "x-mcp-header": "Untyped" })),
                "string, integer or boolean",
            ),
            (
                with(
                    json!({ "type": "array", "items": { "type": "string", "x-mcp-header": "I" } }),
                ),
                "through `properties` alone",
            ),
            (
                with(json!({ "oneOf": [{ "type": "string", "x-mcp-header": "O" }] })),
                "through `properties` alone",
            ),
            (
                json!({ "type": "object", "$defs": { "d": { "type": "string", "x-mcp-header": "D" } } }),
                "through `properties` alone",
            ),
            (
                json!({ "type": "object", "x-mcp-header": "Root" }),
                "the schema's root",
            ),
            (
                json!({ "type": "object", "properties": {
                "a": { "type": "string", "x-mcp-header": "MyField" },
                "b": { "type": "string", "x-mcp-header": "myfield" } } }),
                "case-insensitive",
            ),
        ];
        for (schema, wanted) in refused {
            let error = header_params(&schema).unwrap_err();
            assert!(error.contains(wanted), "{schema}: {error}");
        }
    }

    #[test]
    fn decodes_the_base64_sentinel_strictly() {
        assert_eq!(decode("us-west1").unwrap(), "us-west1");
        assert_eq!(decode("=?base64?SGVsbG8=?=").unwrap(), "Hello");
        assert_eq!(
            decode("=?base64?SGVsbG8sIOS4lueVjA==?=").unwrap(),
            "Hello, 世界"
        );
        // Without both markers the value is literal.
        assert_eq!(decode("=?base64?SGVsbG8=").unwrap(), "=?base64?SGVsbG8=");
        assert_eq!(decode("SGVsbG8=?=").unwrap(), "SGVsbG8=?=");
        assert!(decode("=?base64?SGVsbG8?=").is_err(), "missing padding");
        assert!(
            decode("=?base64?SGVs!!!bG8=?=").is_err(),
            "not the alphabet"
        );
        assert!(decode("=?base64?/w==?=").is_err(), "not UTF-8");
    }

    #[test]
    fn compares_as_the_type_says() {
        assert!(agrees(&json!("a b"), "a b"));
        assert!(!agrees(&json!("a"), "A"));
        assert!(agrees(&json!(42), "42"));
        assert!(agrees(&json!(42), "42.0"));
        assert!(agrees(&json!(-7), "-7"));
        assert!(!agrees(&json!(42), "43"));
        assert!(!agrees(&json!(42), "forty-two"));
        assert!(agrees(&json!(true), "true"));
        assert!(!agrees(&json!(true), "True"));
        assert!(!agrees(&json!(false), "0"));
    }
}
