//! How a tool's `inputSchema` and `outputSchema` are made from its Rust types.
//!
//! Input schemas are written for the pickiest clients: the root is always
//! `{"type": "object", "properties": {...}, "additionalProperties": false}`, subschemas are
//! inlined wherever the type is not recursive, and `Option<T>` is the plain `T` schema (no
//! `["T", "null"]` types, no `anyOf` with `null`) and not `required`. Output schemas describe
//! what serde writes, `null`s included, and a non-object output is wrapped in `{"result": …}`.

use schemars::generate::{SchemaGenerator, SchemaSettings};
use schemars::transform::{Transform, transform_subschemas};
use serde_json::{Map, Value, json};

use crate::registry::{ParamDescriptor, ToolDescriptor};

/// The property that holds a non-object structured output.
pub(crate) const WRAPPED_OUTPUT_KEY: &str = "result";

fn generator(settings: SchemaSettings) -> SchemaGenerator {
    settings
        .with(|settings| {
            settings.inline_subschemas = true;
            settings.meta_schema = None;
        })
        .into_generator()
}

/// The `inputSchema` of a tool with these parameters.
pub(crate) fn input_schema(params: &[ParamDescriptor]) -> Value {
    let mut generator = generator(SchemaSettings::draft2020_12().for_deserialize());
    let mut properties = Map::new();
    let mut required = Vec::new();
    for param in params {
        let Some(mut schema) = (param.schema)(&mut generator) else {
            continue;
        };
        RemoveNull.transform(&mut schema);
        let mut schema = object_schema(schema.to_value());
        if let Value::Object(fields) = &mut schema {
            if let Some(description) = param.description {
                fields.insert("description".into(), description.into());
            }
            if let Some(default) = param.default.map(|default| default())
                && !default.is_null()
            {
                fields.insert("default".into(), default);
            }
        }
        properties.insert(param.name.into(), schema);
        if param.required {
            required.push(Value::from(param.name));
        }
    }
    let mut root = Map::new();
    root.insert("type".into(), "object".into());
    root.insert("properties".into(), Value::Object(properties));
    if !required.is_empty() {
        root.insert("required".into(), Value::Array(required));
    }
    root.insert("additionalProperties".into(), false.into());
    let mut definitions = generator.take_definitions(true);
    for definition in definitions.values_mut() {
        if let Ok(schema) = <&mut schemars::Schema>::try_from(definition) {
            RemoveNull.transform(schema);
        }
    }
    if !definitions.is_empty() {
        root.insert("$defs".into(), Value::Object(definitions));
    }
    Value::Object(root)
}

/// The `requestedSchema` of an elicitation asking for a `T`. The spec allows only a flat
/// object whose properties are strings, numbers, integers, booleans or string enums, so
/// anything nested is refused with a message naming the field.
pub(crate) fn elicitation_schema<T: schemars::JsonSchema>() -> Result<Value, String> {
    let mut generator = generator(SchemaSettings::draft2020_12().for_deserialize());
    let mut schema = generator.subschema_for::<T>();
    RemoveNull.transform(&mut schema);
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

/// The `outputSchema` of a tool, and whether its structured output is wrapped as
/// `{"result": …}` because the type's own schema is not an object.
pub(crate) fn output_schema(tool: &ToolDescriptor) -> Option<(Value, bool)> {
    let mut generator = generator(SchemaSettings::draft2020_12().for_serialize());
    let schema = (tool.output_schema)(&mut generator)?.to_value();
    let definitions = generator.take_definitions(true);
    let wrapped = schema.get("type").and_then(Value::as_str) != Some("object");
    let mut root = if wrapped {
        json!({
            "type": "object",
            "properties": { WRAPPED_OUTPUT_KEY: object_schema(schema) },
            "required": [WRAPPED_OUTPUT_KEY],
        })
    } else {
        schema
    };
    if !definitions.is_empty() {
        root["$defs"] = Value::Object(definitions);
    }
    Some((root, wrapped))
}

/// Property schemas must be objects in the older revisions' schema.json: `true` (any
/// value, e.g. `serde_json::Value`) becomes `{}`, `false` becomes `{"not": {}}`.
fn object_schema(schema: Value) -> Value {
    match schema {
        Value::Bool(true) => json!({}),
        Value::Bool(false) => json!({ "not": {} }),
        other => other,
    }
}

/// Undoes schemars' `Option<T>` → "T or null" so an optional argument is described by
/// plain `T`; whether it may be left out is said by `required` instead.
#[derive(Clone, Copy)]
struct RemoveNull;

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
    use crate::__private::{output_schema as output_of, param_schema};
    use crate::registry::{SourceLocation, ToolHints};
    use crate::result::Json;

    #[derive(schemars::JsonSchema, serde::Serialize, serde::Deserialize)]
    #[allow(dead_code)]
    struct Nested {
        /// A name.
        name: String,
        nickname: Option<String>,
    }

    fn param(
        name: &'static str,
        required: bool,
        schema: fn(&mut SchemaGenerator) -> Option<schemars::Schema>,
    ) -> ParamDescriptor {
        ParamDescriptor {
            name,
            description: Some("doc"),
            required,
            default: None,
            schema,
            check: |_| Ok(()),
        }
    }

    #[test]
    fn tools_without_parameters_still_list_properties() {
        assert_eq!(
            input_schema(&[]),
            json!({"type": "object", "properties": {}, "additionalProperties": false})
        );
    }

    #[test]
    fn optional_parameters_are_plain_and_not_required() {
        let schema = input_schema(&[
            param("count", true, param_schema::<u8>),
            param("label", false, param_schema::<Option<String>>),
            param("nested", false, param_schema::<Option<Nested>>),
            param("anything", true, param_schema::<serde_json::Value>),
            param("context", true, param_schema::<crate::Context>),
        ]);
        assert_eq!(schema["required"], json!(["count", "anything"]));
        assert_eq!(
            schema["properties"]["label"],
            json!({"type": "string", "description": "doc"})
        );
        assert_eq!(schema["properties"]["count"]["maximum"], 255);
        assert_eq!(
            schema["properties"]["anything"],
            json!({"description": "doc"})
        );
        let nested = &schema["properties"]["nested"];
        assert_eq!(nested["type"], "object", "{nested}");
        assert_eq!(nested["properties"]["nickname"], json!({"type": "string"}));
        assert!(!schema.to_string().contains("null"), "{schema}");
    }

    #[test]
    fn defaults_are_published_beside_the_description() {
        let mut limit = param("limit", false, param_schema::<u32>);
        limit.default = Some(|| json!(10));
        let mut unserializable = param("map", false, param_schema::<u32>);
        unserializable.default = Some(|| Value::Null);
        let schema = input_schema(&[limit, unserializable]);
        assert_eq!(schema["properties"]["limit"]["default"], json!(10));
        assert_eq!(schema["properties"]["limit"]["description"], "doc");
        assert!(schema["properties"]["map"].get("default").is_none());
        assert!(schema.get("required").is_none());
    }

    fn tool_returning(
        output_schema: fn(&mut SchemaGenerator) -> Option<schemars::Schema>,
    ) -> ToolDescriptor {
        fn never(_: crate::extract::ToolCall) -> crate::invoke::ToolFuture {
            unreachable!()
        }
        ToolDescriptor {
            name: "t",
            title: None,
            description: None,
            hints: ToolHints::default(),
            tags: &[],
            params: &[],
            output_schema,
            policy: Default::default(),
            invoke: never,
            location: SourceLocation {
                file: file!(),
                line: line!(),
                module_path: module_path!(),
            },
        }
    }

    #[test]
    fn object_outputs_are_published_as_is_and_others_wrapped() {
        let (schema, wrapped) = output_schema(&tool_returning(output_of::<Json<Nested>>)).unwrap();
        assert!(!wrapped);
        assert_eq!(schema["type"], "object");
        assert_eq!(
            schema["properties"]["nickname"]["type"],
            json!(["string", "null"]),
            "outputs keep null: serde writes it"
        );

        let (schema, wrapped) =
            output_schema(&tool_returning(output_of::<Result<Json<Vec<u32>>, String>>)).unwrap();
        assert!(wrapped);
        assert_eq!(schema["required"], json!(["result"]));
        assert_eq!(schema["properties"]["result"]["type"], "array");

        assert!(output_schema(&tool_returning(output_of::<String>)).is_none());
    }
}
