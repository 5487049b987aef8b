//! The validator's tests: its wording against `jsonschema`'s, and the official test suite.

mod suite;

use serde_json::Value;

/// `jsonschema`'s errors for `instance`, as (instance path, keyword, message), or `None`
/// when it cannot compile `schema`.
fn reference_errors(schema: &Value, instance: &Value) -> Option<Vec<(String, String, String)>> {
    let validator = jsonschema::draft202012::new(schema).ok()?;
    Some(
        validator
            .iter_errors(instance)
            .map(|error| {
                let keyword = error.kind().keyword().to_owned();
                (
                    error.instance_path().to_string(),
                    keyword,
                    error.to_string(),
                )
            })
            .collect(),
    )
}

use super::Schema;
use serde_json::json;

/// Our errors as (instance path, keyword, message).
fn our_errors(schema: &Schema, instance: &Value) -> Vec<(String, String, String)> {
    schema
        .errors(instance)
        .iter()
        .map(|e| {
            let keyword = e.keyword().to_owned();
            (e.instance_path().to_owned(), keyword, e.to_string())
        })
        .collect()
}

/// Schemas written by hand, each keyword's wording and the order of mixed errors.
#[test]
fn hand_written_schemas_fail_as_jsonschema_says() {
    let cases = [
        (
            json!({"additionalProperties": false}),
            json!({"a": 1, "b": 2}),
        ),
        (
            json!({"properties": {"a": {"type": "string"}}, "additionalProperties": false}),
            json!({"z": 1, "a": 1, "b": 2}),
        ),
        (
            json!({"properties": {"a": {"type": "string"}}, "required": ["b"], "additionalProperties": false}),
            json!({"a": 1, "z": 1}),
        ),
        (
            json!({"properties": {"a": {"type": "string"}}, "required": ["b", "c"], "additionalProperties": false}),
            json!({"a": 1, "z": 1}),
        ),
        (
            json!({"patternProperties": {"^x": {"type": "string"}}, "additionalProperties": false}),
            json!({"z": 1, "xa": 1, "b": 2}),
        ),
        (
            json!({"propertyNames": {"maxLength": 2}}),
            json!({"abc": 1, "abcd": 2}),
        ),
        (
            json!({"prefixItems": [{"type": "string"}], "items": false}),
            json!(["a", 1, 2]),
        ),
        (
            json!({"contains": {"type": "string"}, "maxContains": 1}),
            json!(["a", "b"]),
        ),
        (
            json!({"dependentRequired": {"a": ["b", "c"]}}),
            json!({"a": 1}),
        ),
        (json!({"dependencies": {"a": ["b"]}}), json!({"a": 1})),
        (json!({"type": ["string", "null", "integer"]}), json!(1.5)),
        (json!({"enum": [1, 2, 3, 4, 5]}), json!(7)),
        (json!({"enum": [1, "a"]}), json!(7)),
        (json!({"const": {"a": 1}}), json!(7)),
        (json!({"multipleOf": 0.1}), json!(0.35)),
        (json!({"multipleOf": 0.1}), json!(0.3)),
        (json!({"not": {"type": "string"}}), json!("x")),
        (json!({"oneOf": [{"minimum": 1}, {"maximum": 5}]}), json!(3)),
        (
            json!({"minLength": 2, "maxLength": 0, "pattern": "^a"}),
            json!("b"),
        ),
        (
            json!({"minProperties": 2, "maxProperties": 0}),
            json!({"a": 1}),
        ),
        (
            json!({"exclusiveMinimum": 5, "exclusiveMaximum": 1}),
            json!(3),
        ),
        (json!({"minimum": 5.5, "maximum": 1.0}), json!(3)),
        (
            json!({"maximum": 9_007_199_254_740_993_u64}),
            json!(9_007_199_254_740_992.0),
        ),
        (json!({"maximum": 65535}), json!(70000)),
        (json!({"minLength": 1.0}), json!("")),
        (json!({"uniqueItems": true}), json!([1, 1.0])),
        (json!({"format": "email"}), json!("not an address")),
        (json!({"$ref": "#", "type": "object"}), json!(1)),
    ];
    for (schema, instance) in cases {
        let ours = our_errors(&Schema::compile(&schema).unwrap(), &instance);
        assert_eq!(
            Some(ours),
            reference_errors(&schema, &instance),
            "{schema} with {instance}"
        );
    }
}

/// Malformed schemas are refused where `jsonschema` refuses them, mostly in its words.
#[test]
fn malformed_schemas_are_refused() {
    let cases = [
        (json!({"type": "integr"}), "/type", true),
        (
            json!({"properties": {"n": {"type": "integr"}}}),
            "/properties/n/type",
            true,
        ),
        (json!({"minimum": "5"}), "/minimum", true),
        (json!({"required": ["a", "a"]}), "/required", true),
        (json!({"minLength": -1}), "/minLength", true),
        (json!({"pattern": "(("}), "/pattern", true),
        (json!({"items": [{"type": "string"}]}), "/items", true),
        (json!({"$ref": "#/nope"}), "/$ref", false),
        (json!({"$ref": "other.json"}), "/$ref", false),
        (json!({"allOf": []}), "/allOf", false),
    ];
    for (schema, pointer, same_words) in cases {
        let ours = Schema::compile(&schema).err().unwrap();
        assert_eq!(ours.pointer(), pointer, "{schema}");
        let theirs = jsonschema::draft202012::new(&schema).err().unwrap();
        if same_words {
            assert_eq!(ours.to_string(), theirs.to_string(), "{schema}");
        }
    }
}

/// A `$ref` cycle that makes no progress ends, and a deep instance is bounded.
#[test]
fn cycles_and_depth_are_bounded() {
    let looping = json!({"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}}, "$ref": "#/$defs/a"});
    assert!(Schema::compile(&looping).unwrap().is_valid(&json!(1)));
    let tree = json!({"type": "array", "items": {"$ref": "#"}});
    let mut deep = json!([]);
    for _ in 0..400 {
        deep = json!([deep]);
    }
    let errors = Schema::compile(&tree).unwrap().errors(&deep);
    assert_eq!(errors.len(), 1);
    assert!(errors[0].to_string().contains("nests deeper"));
}
