//! How a tool's `inputSchema` and `outputSchema` are made from its Rust types.
//!
//! Input schemas are written for the pickiest clients: the root is always
//! `{"type": "object", "properties": {...}, "additionalProperties": false}`, subschemas are
//! inlined wherever the type is not recursive, and `Option<T>` is the plain `T` schema (no
//! `["T", "null"]` types, no `anyOf` with `null`) and not `required`. Output schemas describe
//! what serde writes, `null`s included, and a non-object output is wrapped in `{"result": …}`.

use schemars::generate::SchemaSettings;
use schemars::transform::Transform;
use serde_json::{Map, Value, json};

use crate::json_schema::{RemoveNull, generator};
use crate::tool::descriptor::{ParamDescriptor, ToolDescriptor};

/// The property that holds a non-object structured output.
pub(crate) const WRAPPED_OUTPUT_KEY: &str = "result";

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::__private::{output_schema as output_of, param_schema};
    use crate::location::SourceLocation;
    use crate::tool::descriptor::ToolHints;
    use crate::tool::result::Json;
    use schemars::SchemaGenerator;

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
        fn never(_: crate::tool::extract::ToolCall) -> crate::tool::invoke::ToolFuture {
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
