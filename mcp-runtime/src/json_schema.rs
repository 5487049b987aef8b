//! How the runtime makes JSON Schemas from Rust types: one generator configuration, the
//! transforms that keep `Option<T>` a plain `T` and state each integer type's range, and
//! the flat form schema of an elicitation. Tool schemas (`tool::schema`) and requests to the client (`context`) both
//! build on it, which is why it stands apart from either.

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

/// States the range of every Rust integer type as `minimum` and `maximum`: schemars gives
/// them for `u8`, `u16`, `i8` and `i16` only (and `minimum: 0` for the wider unsigned
/// types), which leaves an `i32` or a `u64` unbounded for a client that does not read
/// `format`, and its out-of-range values to be refused only when decoded. Bounds
/// already there (`#[schemars(range(..))]`, `NonZeroU32`'s `minimum: 1`) are kept. 128-bit
/// integers are left as they are: their bounds are not JSON integers serde_json can hold.
#[derive(Clone, Copy)]
pub(crate) struct IntegerBounds;

/// The range of the Rust integer type schemars describes with this `format`.
fn integer_range(format: &str) -> Option<(Value, Value)> {
    fn range<T: Into<Value>>(min: T, max: T) -> Option<(Value, Value)> {
        Some((min.into(), max.into()))
    }
    match format {
        "int8" => range(i8::MIN, i8::MAX),
        "int16" => range(i16::MIN, i16::MAX),
        "int32" => range(i32::MIN, i32::MAX),
        "int64" => range(i64::MIN, i64::MAX),
        "int" => range(isize::MIN as i64, isize::MAX as i64),
        "uint8" => range(u8::MIN, u8::MAX),
        "uint16" => range(u16::MIN, u16::MAX),
        "uint32" => range(u32::MIN, u32::MAX),
        "uint64" => range(u64::MIN, u64::MAX),
        "uint" => range(usize::MIN as u64, usize::MAX as u64),
        _ => None,
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
        let range = object
            .get("format")
            .and_then(Value::as_str)
            .and_then(integer_range);
        if let (true, Some((min, max))) = (is_integer, range) {
            object.entry("minimum").or_insert(min);
            object.entry("maximum").or_insert(max);
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
