//! How the runtime makes JSON Schemas from Rust types: one generator configuration, the
//! transforms that keep `Option<T>` a plain `T`, state each integer type's range within
//! what a JavaScript client holds and drop `format`s JSON Schema does not define, and
//! the flat form schema of an elicitation. Tool schemas (`tool::schema`) and requests to the client (`context`) both
//! build on it, which is why it stands apart from either.

pub(crate) mod validate;

use schemars::generate::{SchemaGenerator, SchemaSettings};
use schemars::transform::{Transform, transform_subschemas};
use serde_json::{Map, Value};

/// A generator that inlines subschemas and writes no `$schema`: what clients read.
pub(crate) fn generator(settings: SchemaSettings) -> SchemaGenerator {
    settings
        .with(|settings| {
            settings.inline_subschemas = true;
            settings.meta_schema = None;
        })
        .into_generator()
}

/// The `requestedSchema` of an elicitation asking for a `T`. The spec allows only a flat
/// object whose properties are strings, numbers, integers, booleans or string enums, so
/// anything nested is refused with a message naming the field.
pub(crate) fn elicitation_schema<T: schemars::JsonSchema>() -> Result<Value, String> {
    let mut generator = generator(SchemaSettings::draft2020_12().for_deserialize());
    let mut schema = generator.subschema_for::<T>();
    RemoveNull.transform(&mut schema);
    IntegerBounds.transform(&mut schema);
    StandardFormats.transform(&mut schema);
    let schema = schema.to_value();
    let type_name = T::schema_name();
    if schema.get("type").and_then(Value::as_str) != Some("object") {
        return Err(format!(
            "`{type_name}` cannot be asked for with elicitation: it must be a struct with named fields"
        ));
    }
    let mut properties = Map::new();
    for (name, property) in schema
        .get("properties")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
    {
        let primitive = match property.get("type").and_then(Value::as_str) {
            Some("string" | "number" | "integer" | "boolean") => true,
            Some("array") => property.pointer("/items/enum").is_some_and(Value::is_array),
            _ => false,
        };
        if !primitive {
            return Err(format!(
                "`{type_name}` cannot be asked for with elicitation: field `{name}` is not a \
                 string, number, boolean or unit enum (elicitation forms are flat)"
            ));
        }
        let mut property = property.clone();
        if let Value::Object(fields) = &mut property {
            // Integer formats such as `uint8` are not part of the restricted form schema;
            // the range keywords beside them say the same thing.
            if fields.get("type").and_then(Value::as_str) != Some("string") {
                fields.remove("format");
            }
        }
        properties.insert(name.clone(), property);
    }
    let mut requested = Map::new();
    requested.insert("type".into(), "object".into());
    requested.insert("properties".into(), Value::Object(properties));
    if let Some(required) = schema.get("required") {
        requested.insert("required".into(), required.clone());
    }
    Ok(Value::Object(requested))
}

/// The largest integer every JSON client holds exactly: JavaScript's
/// `Number.MAX_SAFE_INTEGER`, 2^53 − 1. A wider bound would be rounded by such a client.
pub(crate) const MAX_SAFE_INTEGER: i64 = (1 << 53) - 1;

/// States the range of every Rust integer type as `minimum` and `maximum`, within
/// ±[`MAX_SAFE_INTEGER`]: schemars gives them for `u8`, `u16`, `i8` and `i16` only (and
/// `minimum: 0` for the wider unsigned types), which leaves an `i32` or a `u64` unbounded
/// for a client that does not read `format`. An integer type wider than 53 bits (`i64`,
/// `u64`, `isize`, `usize`, the 128-bit ones) is bounded by ±(2^53 − 1), because a
/// JavaScript client cannot send, or even read, a larger one exactly; the server checks
/// arguments against this same schema, so it refuses a larger value too, and a tool that
/// needs the whole 64-bit range takes it as a string. Bounds already there
/// (`#[schemars(range(..))]`, `NonZeroU32`'s `minimum: 1`) are kept, clamped likewise.
#[derive(Clone, Copy)]
pub(crate) struct IntegerBounds;

/// The range of the Rust integer type schemars describes with this `format`, clamped to
/// ±[`MAX_SAFE_INTEGER`].
fn integer_range(format: &str) -> Option<(i64, i64)> {
    let (min, max): (i128, i128) = match format {
        "int8" => (i8::MIN.into(), i8::MAX.into()),
        "int16" => (i16::MIN.into(), i16::MAX.into()),
        "int32" => (i32::MIN.into(), i32::MAX.into()),
        "int64" | "int" | "int128" => (i128::MIN, i128::MAX),
        "uint8" => (0, u8::MAX.into()),
        "uint16" => (0, u16::MAX.into()),
        "uint32" => (0, u32::MAX.into()),
        "uint64" | "uint" | "uint128" => (0, i128::MAX),
        _ => return None,
    };
    let safe = i128::from(MAX_SAFE_INTEGER);
    let clamp = |bound: i128| bound.clamp(-safe, safe) as i64;
    Some((clamp(min), clamp(max)))
}

/// `bound`, moved within ±[`MAX_SAFE_INTEGER`] if it lies beyond.
fn clamped(bound: &Value) -> Option<Value> {
    let value = bound.as_f64()?;
    let safe = MAX_SAFE_INTEGER as f64;
    if value > safe {
        Some(MAX_SAFE_INTEGER.into())
    } else if value < -safe {
        Some((-MAX_SAFE_INTEGER).into())
    } else {
        None
    }
}

impl Transform for IntegerBounds {
    fn transform(&mut self, schema: &mut schemars::Schema) {
        transform_subschemas(self, schema);
        let Some(object) = schema.as_object_mut() else {
            return;
        };
        let is_integer = match object.get("type") {
            Some(Value::String(kind)) => kind == "integer",
            Some(Value::Array(kinds)) => kinds.iter().any(|kind| kind == "integer"),
            _ => false,
        };
        if !is_integer {
            return;
        }
        let range = object
            .get("format")
            .and_then(Value::as_str)
            .and_then(integer_range);
        if let Some((min, max)) = range {
            object.entry("minimum").or_insert(min.into());
            object.entry("maximum").or_insert(max.into());
        }
        for keyword in ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"] {
            if let Some(bound) = object.get_mut(keyword)
                && let Some(safe) = clamped(bound)
            {
                *bound = safe;
            }
        }
    }
}

/// Whether a decoded argument lies within the bounds [`IntegerBounds`] publishes for its
/// type: what typed decoding (`tool::arguments`) asks so that it takes only what the
/// schema check would.
pub(crate) trait WithinBounds {
    fn within_bounds(&self) -> bool;
}

macro_rules! within_bounds {
    (unbounded: $($plain:ty),* ; signed: $($signed:ty),* ; unsigned: $($unsigned:ty),*) => {
        $(impl WithinBounds for $plain {
            fn within_bounds(&self) -> bool {
                true
            }
        })*
        $(impl WithinBounds for $signed {
            fn within_bounds(&self) -> bool {
                (-(MAX_SAFE_INTEGER as i128)..=MAX_SAFE_INTEGER as i128).contains(&(*self as i128))
            }
        })*
        $(impl WithinBounds for $unsigned {
            fn within_bounds(&self) -> bool {
                (*self as u128) <= MAX_SAFE_INTEGER as u128
            }
        })*
    };
}

within_bounds!(
    unbounded: String, bool, f32, f64, i8, i16, i32, u8, u16, u32;
    signed: i64, isize;
    unsigned: u64, usize
);

impl<T: WithinBounds> WithinBounds for Vec<T> {
    fn within_bounds(&self) -> bool {
        self.iter().all(T::within_bounds)
    }
}

/// `value`, or an error if it lies beyond its published bounds (typed decoding then leaves
/// the arguments to the general path, which refuses them in the schema check's words).
pub(crate) fn within_bounds<X: WithinBounds, E: serde::de::Error>(value: X) -> Result<X, E> {
    if value.within_bounds() {
        Ok(value)
    } else {
        Err(E::custom("beyond the published bounds"))
    }
}

/// The `format`s JSON Schema 2020-12 defines (§7.3): the only ones a strict validator such
/// as Ajv knows without being told.
const STANDARD_FORMATS: [&str; 19] = [
    "date-time",
    "date",
    "time",
    "duration",
    "email",
    "idn-email",
    "hostname",
    "idn-hostname",
    "ipv4",
    "ipv6",
    "uri",
    "uri-reference",
    "iri",
    "iri-reference",
    "uuid",
    "uri-template",
    "json-pointer",
    "relative-json-pointer",
    "regex",
];

/// Drops every `format` JSON Schema does not define (schemars' `uint64`, `int32`, `double`,
/// `ip`, `partial-date-time`…): Ajv warns `unknown format "uint64" ignored` for each, and
/// the range keywords [`IntegerBounds`] writes say what the integer ones meant. Run after
/// [`IntegerBounds`], which reads them.
#[derive(Clone, Copy)]
pub(crate) struct StandardFormats;

impl Transform for StandardFormats {
    fn transform(&mut self, schema: &mut schemars::Schema) {
        transform_subschemas(self, schema);
        let Some(object) = schema.as_object_mut() else {
            return;
        };
        let standard = match object.get("format") {
            Some(Value::String(format)) => STANDARD_FORMATS.contains(&format.as_str()),
            Some(_) => false,
            None => return,
        };
        if !standard {
            object.remove("format");
        }
    }
}

/// Undoes schemars' `Option<T>` → "T or null" so an optional argument is described by
/// plain `T`; whether it may be left out is said by `required` instead.
#[derive(Clone, Copy)]
pub(crate) struct RemoveNull;

fn is_null_schema(schema: &Value) -> bool {
    schema.get("type").and_then(Value::as_str) == Some("null")
}

impl Transform for RemoveNull {
    fn transform(&mut self, schema: &mut schemars::Schema) {
        transform_subschemas(self, schema);
        let Some(object) = schema.as_object_mut() else {
            return;
        };
        if let Some(Value::Array(types)) = object.get_mut("type") {
            types.retain(|ty| ty != "null");
            if types.len() == 1 {
                let single = types.remove(0);
                object.insert("type".into(), single);
            }
        }
        if let Some(Value::Array(values)) = object.get_mut("enum") {
            values.retain(|value| !value.is_null());
        }
        for keyword in ["anyOf", "oneOf"] {
            let Some(Value::Array(branches)) = object.get(keyword) else {
                continue;
            };
            if branches.len() == 2 && branches.iter().any(is_null_schema) {
                let Some(kept) = branches
                    .iter()
                    .find(|branch| !is_null_schema(branch))
                    .cloned()
                else {
                    continue;
                };
                object.remove(keyword);
                if let Value::Object(kept) = kept {
                    for (key, value) in kept {
                        object.entry(key).or_insert(value);
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The schema of `T` as a tool argument is published.
    fn published<T: schemars::JsonSchema>() -> Value {
        let mut generator = generator(SchemaSettings::draft2020_12().for_deserialize());
        let mut schema = generator.subschema_for::<T>();
        IntegerBounds.transform(&mut schema);
        StandardFormats.transform(&mut schema);
        schema.to_value()
    }

    #[test]
    fn integers_wider_than_53_bits_are_bounded_by_what_javascript_holds() {
        let safe = MAX_SAFE_INTEGER;
        for (schema, min, max) in [
            (published::<u64>(), 0, safe),
            (published::<usize>(), 0, safe),
            (published::<u128>(), 0, safe),
            (published::<i64>(), -safe, safe),
            (published::<isize>(), -safe, safe),
            (published::<i128>(), -safe, safe),
            (published::<u32>(), 0, u32::MAX.into()),
            (published::<i32>(), i32::MIN.into(), i32::MAX.into()),
            (published::<u16>(), 0, u16::MAX.into()),
            (published::<i8>(), i8::MIN.into(), i8::MAX.into()),
        ] {
            assert_eq!(
                schema,
                json!({"type": "integer", "minimum": min, "maximum": max})
            );
        }
        assert_eq!(published::<std::num::NonZeroU64>()["maximum"], safe);
        assert_eq!(published::<std::num::NonZeroU64>()["minimum"], 1);
    }

    #[test]
    fn bounds_given_beyond_what_javascript_holds_are_clamped() {
        let mut schema = schemars::json_schema!({
            "type": "integer",
            "minimum": -1e300,
            "exclusiveMaximum": u64::MAX,
        });
        IntegerBounds.transform(&mut schema);
        assert_eq!(
            schema.to_value(),
            json!({"type": "integer", "minimum": -MAX_SAFE_INTEGER, "exclusiveMaximum": MAX_SAFE_INTEGER})
        );
    }

    #[test]
    fn only_formats_json_schema_defines_are_kept() {
        assert_eq!(published::<f64>(), json!({"type": "number"}));
        assert_eq!(published::<std::net::IpAddr>(), json!({"type": "string"}));
        assert_eq!(
            published::<std::net::Ipv4Addr>(),
            json!({"type": "string", "format": "ipv4"})
        );
        let mut schema = schemars::json_schema!({
            "type": "object",
            "properties": {
                "when": {"type": "string", "format": "date-time"},
                "site": {"type": "string", "format": "uri"},
                "local": {"type": "string", "format": "partial-date-time"},
            },
        });
        StandardFormats.transform(&mut schema);
        assert_eq!(
            schema.to_value()["properties"],
            json!({
                "when": {"type": "string", "format": "date-time"},
                "site": {"type": "string", "format": "uri"},
                "local": {"type": "string"},
            })
        );
    }

    #[test]
    fn typed_decoding_takes_only_values_within_the_published_bounds() {
        assert!(9_007_199_254_740_991_u64.within_bounds());
        assert!(!9_007_199_254_740_992_u64.within_bounds());
        assert!((-9_007_199_254_740_991_i64).within_bounds());
        assert!(!i64::MIN.within_bounds());
        assert!(!vec![1_usize, usize::MAX].within_bounds());
        assert!(u32::MAX.within_bounds());
    }
}
