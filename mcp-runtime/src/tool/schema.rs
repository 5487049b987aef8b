//! How a tool's `inputSchema` and `outputSchema` are made from its Rust types.
//!
//! Input schemas are written for the pickiest clients: the root is always
//! `{"type": "object", "properties": {...}, "additionalProperties": false}`, subschemas are
//! inlined wherever the type is not recursive, `Option<T>` is the plain `T` schema (no
//! `["T", "null"]` types, no `anyOf` with `null`) and not `required`, every integer
//! states its type's `minimum` and `maximum` (within ±(2^53 − 1), what JavaScript holds),
//! and only the `format`s JSON Schema defines are kept. Output schemas describe what serde writes,
//! `null`s included, and a non-object output is wrapped in `{"result": …}`.
//!
//! Arguments are checked against the input schema reworded for people
//! ([`validation_schema`]): the same constraints, in the words a person reads best.

use schemars::generate::SchemaSettings;
use schemars::transform::Transform;
use serde_json::{Map, Value, json};

use crate::json_schema::{IntegerBounds, RemoveNull, StandardFormats, generator};
use crate::tool::descriptor::ToolDescriptor;
use crate::tool::extract::ParamDescriptor;
use crate::tool::header;

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
        IntegerBounds.transform(&mut schema);
        StandardFormats.transform(&mut schema);
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
            if let Some(header) = param.header {
                fields.insert(header::KEYWORD.into(), header.into());
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
            IntegerBounds.transform(schema);
            StandardFormats.transform(schema);
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
    let mut schema = (tool.output_schema)(&mut generator)?;
    // No bounds added: an output may use its type's whole range, which is what serde writes.
    StandardFormats.transform(&mut schema);
    let schema = schema.to_value();
    let mut definitions = generator.take_definitions(true);
    for definition in definitions.values_mut() {
        if let Ok(schema) = <&mut schemars::Schema>::try_from(definition) {
            StandardFormats.transform(schema);
        }
    }
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

/// The schema a call's arguments are checked against: `input`, with every `oneOf`/`anyOf`
/// whose branches each allow only given values (`const`, or `enum`) written as one `enum`
/// of those values. It allows exactly what `input` allows, but a value outside them is
/// refused as for a plain enum — `"closed" is not one of "open" or "done"` — rather than as
/// "not valid under any of the schemas listed in the 'oneOf' keyword". That is the schema
/// schemars gives a unit enum whose variants carry doc comments (`oneOf` of `const`s, each
/// with its description), and hand-written schemas use the same idiom.
pub(crate) fn validation_schema(input: &Value) -> Value {
    let mut schema = input.clone();
    enums_for_value_choices(&mut schema);
    schema
}

/// Rewrites value choices as `enum`s in `schema` and every subschema in it.
fn enums_for_value_choices(schema: &mut Value) {
    let Value::Object(object) = schema else {
        return;
    };
    for (keyword, value) in object.iter_mut() {
        match (keyword.as_str(), value) {
            (
                "properties" | "patternProperties" | "$defs" | "definitions" | "dependentSchemas",
                Value::Object(schemas),
            ) => schemas.values_mut().for_each(enums_for_value_choices),
            ("allOf" | "anyOf" | "oneOf" | "prefixItems", Value::Array(schemas)) => {
                schemas.iter_mut().for_each(enums_for_value_choices);
            }
            (
                "items"
                | "additionalItems"
                | "additionalProperties"
                | "unevaluatedItems"
                | "unevaluatedProperties"
                | "contains"
                | "propertyNames"
                | "not"
                | "if"
                | "then"
                | "else",
                subschema,
            ) => enums_for_value_choices(subschema),
            _ => {}
        }
    }
    if object.contains_key("enum") {
        return;
    }
    for keyword in ["oneOf", "anyOf"] {
        let Some(values) = object
            .get(keyword)
            .and_then(Value::as_array)
            .and_then(|branches| choice_values(branches))
        else {
            continue;
        };
        object.remove(keyword);
        object.insert("enum".into(), Value::Array(values));
        return;
    }
}

/// The values `branches` allow, in order, if each allows only given values and no value is
/// allowed twice (so `oneOf` and `anyOf` mean the same: one of them).
fn choice_values(branches: &[Value]) -> Option<Vec<Value>> {
    /// Keywords that do not restrict a value beyond its `const` or `enum`.
    const NOTES: [&str; 7] = [
        "type",
        "title",
        "description",
        "deprecated",
        "$comment",
        "examples",
        "default",
    ];
    let mut values: Vec<Value> = Vec::new();
    for branch in branches {
        let branch = branch.as_object()?;
        let mut allowed: Vec<&Value> = Vec::new();
        for (keyword, value) in branch {
            match (keyword.as_str(), value) {
                ("const", value) => allowed.push(value),
                ("enum", Value::Array(options)) => allowed.extend(options),
                (note, _) if NOTES.contains(&note) => {}
                _ => return None,
            }
        }
        if allowed.is_empty() || (branch.contains_key("const") && branch.contains_key("enum")) {
            return None;
        }
        // A value its branch's own `type` refuses is not allowed at all.
        let typed = |value: &&Value| branch.get("type").is_none_or(|kind| has_type(value, kind));
        for value in allowed.into_iter().filter(typed) {
            if values.contains(value) {
                return None;
            }
            values.push(value.clone());
        }
    }
    (!values.is_empty()).then_some(values)
}

/// Whether `value` is of the JSON Schema `type` (a name, or a list of names).
fn has_type(value: &Value, kind: &Value) -> bool {
    match kind {
        Value::Array(kinds) => kinds.iter().any(|kind| has_type(value, kind)),
        Value::String(kind) => match (kind.as_str(), value) {
            ("null", Value::Null)
            | ("boolean", Value::Bool(_))
            | ("string", Value::String(_))
            | ("number", Value::Number(_))
            | ("array", Value::Array(_))
            | ("object", Value::Object(_)) => true,
            ("integer", Value::Number(number)) => {
                number.is_i64()
                    || number.is_u64()
                    || number.as_f64().is_some_and(|n| n.fract() == 0.0)
            }
            _ => false,
        },
        _ => true,
    }
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
    use crate::tool::hints::ToolHints;
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
            header: None,
            schema,
            check: |_| Ok(()),
            typed: crate::tool::extract::TypedParam::RECEIVER,
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

    /// Whether the work is done.
    #[derive(schemars::JsonSchema, serde::Deserialize)]
    #[serde(rename_all = "lowercase")]
    #[allow(dead_code)]
    enum Status {
        /// Still to do.
        Open,
        /// Finished.
        Done,
    }

    #[derive(schemars::JsonSchema, serde::Deserialize)]
    #[allow(dead_code)]
    enum Partly {
        /// The only documented one.
        A,
        B,
        C,
    }

    #[derive(schemars::JsonSchema, serde::Deserialize)]
    #[allow(dead_code)]
    struct Ranged {
        offset: i32,
        #[schemars(range(min = 1, max = 10))]
        stars: u64,
        count: std::num::NonZeroU32,
        huge: u128,
    }

    #[test]
    fn every_integer_states_its_range() {
        let schema = input_schema(&[
            param("a", true, param_schema::<i32>),
            param("b", true, param_schema::<i64>),
            param("c", true, param_schema::<u32>),
            param("d", true, param_schema::<u64>),
            param("e", false, param_schema::<Option<usize>>),
            param("f", true, param_schema::<i8>),
            param("g", true, param_schema::<Vec<u16>>),
            param("r", true, param_schema::<Ranged>),
        ]);
        let range = |schema: &Value| (schema["minimum"].clone(), schema["maximum"].clone());
        let properties = &schema["properties"];
        assert_eq!(range(&properties["a"]), (json!(i32::MIN), json!(i32::MAX)));
        // Wider than 53 bits: bounded by what a JavaScript client holds.
        let safe = crate::json_schema::MAX_SAFE_INTEGER;
        assert_eq!(range(&properties["b"]), (json!(-safe), json!(safe)));
        assert_eq!(range(&properties["c"]), (json!(0), json!(u32::MAX)));
        assert_eq!(range(&properties["d"]), (json!(0), json!(safe)));
        assert_eq!(range(&properties["e"]), (json!(0), json!(safe)));
        assert_eq!(range(&properties["f"]), (json!(-128), json!(127)));
        assert_eq!(range(&properties["g"]["items"]), (json!(0), json!(65535)));
        let ranged = &properties["r"]["properties"];
        assert_eq!(range(&ranged["offset"]), (json!(i32::MIN), json!(i32::MAX)));
        assert_eq!(
            range(&ranged["stars"]),
            (json!(1), json!(10)),
            "stated bounds stay"
        );
        assert_eq!(range(&ranged["count"]), (json!(1), json!(u32::MAX)));
        assert_eq!(range(&ranged["huge"]), (json!(0), json!(safe)));
        let objects = [properties, ranged].map(|object| object.as_object().unwrap());
        for property in objects.into_iter().flat_map(|object| object.values()) {
            assert!(property.get("format").is_none(), "{property}");
        }
    }

    #[test]
    fn value_choices_are_checked_as_one_enum() {
        let schema = input_schema(&[
            param("status", true, param_schema::<Status>),
            param("partly", false, param_schema::<Option<Partly>>),
        ]);
        let status = &schema["properties"]["status"];
        assert_eq!(
            status["oneOf"][0],
            json!({"type": "string", "const": "open", "description": "Still to do."}),
            "published as schemars writes it: {status}"
        );
        let checked = validation_schema(&schema);
        let status = &checked["properties"]["status"];
        assert_eq!(status["enum"], json!(["open", "done"]), "{status}");
        assert!(status.get("oneOf").is_none());
        assert_eq!(status["description"], "doc");
        let partly = &checked["properties"]["partly"];
        assert_eq!(partly["enum"], json!(["B", "C", "A"]), "{partly}");

        for untouched in [
            json!({"oneOf": [{"const": 1}, {"type": "string"}]}),
            json!({"anyOf": [{"const": 1}, {"const": 1, "description": "twice"}]}),
            json!({"oneOf": [{"const": 1, "minimum": 2}]}),
            json!({"enum": [1], "oneOf": [{"const": 1}]}),
        ] {
            assert_eq!(validation_schema(&untouched), untouched);
        }
        assert_eq!(
            validation_schema(
                &json!({"anyOf": [{"type": "integer", "const": "x"}, {"enum": [2]}]})
            ),
            json!({"enum": [2]}),
            "a value its own branch's type refuses is not allowed"
        );
        assert_eq!(
            validation_schema(
                &json!({"properties": {"enum": {"items": {"oneOf": [{"const": 1}]}}}})
            ),
            json!({"properties": {"enum": {"items": {"enum": [1]}}}}),
            "subschemas are found by keyword, whatever a property is called"
        );
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
            icons: &[],
            ui: crate::apps::ToolUi::NONE,
            params: &[],
            output_schema,
            policy: Default::default(),
            layers: &[],
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
