//! The runtime's own JSON Schema validator (`mcp_runtime::testing::schema_problems`, what
//! checks every call's arguments) against `jsonschema`, the reference it replaced: every
//! input and output schema the test servers and the examples publish, each with values
//! generated to fit it and values broken in every way a client breaks them. Both must give
//! the same verdict and, where they refuse, the same errors (instance path and message) in
//! the same order.

use std::path::PathBuf;

use mcp_runtime::testing::schema_problems;
use mcp_tests::StdioClient;
use serde_json::{Map, Value, json};

/// The servers of `tests/src/bin` that start and list tools.
const SERVERS: [&str; 5] = [
    env!("CARGO_BIN_EXE_fixture"),
    env!("CARGO_BIN_EXE_argument_shapes"),
    env!("CARGO_BIN_EXE_dynamic_tools"),
    env!("CARGO_BIN_EXE_primitives"),
    env!("CARGO_BIN_EXE_tasks"),
];

/// Every tool a server lists, across pages.
fn listed_tools(program: &str) -> Vec<Value> {
    let mut client = StdioClient::spawn(program, &[]);
    client.initialize("2025-11-25");
    let mut tools = Vec::new();
    let mut params = json!({});
    loop {
        let result = client.request("tools/list", params)["result"].clone();
        tools.extend(result["tools"].as_array().cloned().unwrap_or_default());
        match result.get("nextCursor").and_then(Value::as_str) {
            Some(cursor) => params = json!({ "cursor": cursor }),
            None => return tools,
        }
    }
}

/// The tools of the examples' `tools/list` snapshots.
fn snapshot_tools() -> Vec<Value> {
    let examples = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../examples");
    let mut tools = Vec::new();
    for example in std::fs::read_dir(examples).expect("the examples") {
        let snapshots = example.expect("an entry").path().join("tests/snapshots");
        let Ok(files) = std::fs::read_dir(snapshots) else {
            continue;
        };
        for file in files {
            let path = file.expect("an entry").path();
            if path.to_string_lossy().ends_with(".tools.json") {
                let listed: Value =
                    serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
                tools.extend(listed.as_array().cloned().unwrap_or_default());
            }
        }
    }
    tools
}

/// A small deterministic generator (xorshift), so a disagreement can be reproduced.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    fn chance(&mut self) -> bool {
        self.next().is_multiple_of(2)
    }
}

/// The subschema a local `$ref` names.
fn resolved<'a>(root: &'a Value, schema: &'a Value) -> &'a Value {
    match schema.get("$ref").and_then(Value::as_str) {
        Some(reference) => reference
            .strip_prefix('#')
            .and_then(|pointer| root.pointer(pointer))
            .unwrap_or(schema),
        None => schema,
    }
}

fn bound(schema: &Value, keyword: &str) -> Option<f64> {
    schema.get(keyword).and_then(Value::as_f64)
}

/// A value meant to fit `schema` (it need not: the validators must agree either way).
fn generate(root: &Value, schema: &Value, rng: &mut Rng, depth: usize) -> Value {
    let schema = resolved(root, schema);
    if depth > 6 {
        return Value::Null;
    }
    if let Some(value) = schema.get("const") {
        return value.clone();
    }
    if let Some(Value::Array(options)) = schema.get("enum") {
        return options[rng.below(options.len())].clone();
    }
    for keyword in ["anyOf", "oneOf", "allOf"] {
        if let Some(Value::Array(branches)) = schema.get(keyword) {
            let branch = &branches[rng.below(branches.len())];
            return generate(root, branch, rng, depth + 1);
        }
    }
    let kind = match schema.get("type") {
        Some(Value::String(kind)) => kind.clone(),
        Some(Value::Array(kinds)) => kinds[rng.below(kinds.len())]
            .as_str()
            .unwrap_or("null")
            .to_owned(),
        _ if schema.get("properties").is_some() => "object".to_owned(),
        _ => ["string", "integer", "boolean"][rng.below(3)].to_owned(),
    };
    match kind.as_str() {
        "object" => {
            let mut object = Map::new();
            let required: Vec<&str> = schema
                .get("required")
                .and_then(Value::as_array)
                .map(|names| names.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            if let Some(Value::Object(properties)) = schema.get("properties") {
                for (name, property) in properties {
                    if required.contains(&name.as_str()) || rng.chance() {
                        object.insert(name.clone(), generate(root, property, rng, depth + 1));
                    }
                }
            }
            if let Some(extra @ Value::Object(_)) = schema.get("additionalProperties")
                && rng.chance()
            {
                object.insert("extra".into(), generate(root, extra, rng, depth + 1));
            }
            Value::Object(object)
        }
        "array" => {
            let min = bound(schema, "minItems").unwrap_or(0.0) as usize;
            let max = bound(schema, "maxItems").map_or(min + 3, |max| max as usize);
            let count = min + rng.below(max.saturating_sub(min) + 1);
            let items = schema.get("items").cloned().unwrap_or(Value::Bool(true));
            (0..count)
                .map(|_| generate(root, &items, rng, depth + 1))
                .collect()
        }
        "string" => {
            let format = schema.get("format").and_then(Value::as_str);
            let text = match format {
                Some("date") => "2024-02-29".to_owned(),
                Some("date-time") => "2024-02-29T12:00:00Z".to_owned(),
                Some("uuid") => "67e55044-10b1-426f-9247-bb680e5fe0c8".to_owned(),
                _ => {
                    let min = bound(schema, "minLength").unwrap_or(0.0) as usize;
                    let length = min + rng.below(6);
                    "abcdé".chars().cycle().take(length).collect()
                }
            };
            Value::String(text)
        }
        "integer" => {
            let min = bound(schema, "minimum").unwrap_or(-1000.0);
            let max = bound(schema, "maximum").unwrap_or(1000.0);
            let choices = [min, max, (min + max) / 2.0, 0.0];
            json!(choices[rng.below(choices.len())].clamp(min, max).trunc() as i64)
        }
        "number" => json!([0.5, -2.25, 1e3, 7.0][rng.below(4)]),
        "boolean" => json!(rng.chance()),
        _ => Value::Null,
    }
}

/// Values of every JSON kind, and numbers at and past the edges clients send.
fn wrong_values() -> Vec<Value> {
    vec![
        Value::Null,
        json!(true),
        json!(0),
        json!(-1),
        json!(1.5),
        json!(2.0),
        json!(70000),
        json!(9_007_199_254_740_993_u64),
        json!(-9_007_199_254_740_993_i64),
        json!(u64::MAX),
        json!(1e300),
        json!(""),
        json!("x"),
        json!("2024-13-45"),
        json!([]),
        json!([1, "a", null]),
        json!({}),
        json!({"nested": {"deep": [1]}}),
    ]
}

/// `value` broken in the ways a client breaks arguments: each member replaced by a wrong
/// value, each removed, unknown members added, and the same one level further in.
fn broken(value: &Value, rng: &mut Rng, depth: usize) -> Vec<Value> {
    let mut variants = wrong_values();
    match value {
        Value::Object(object) => {
            for (key, member) in object {
                let mut without = object.clone();
                without.remove(key);
                variants.push(Value::Object(without));
                for wrong in wrong_values() {
                    let mut changed = object.clone();
                    changed.insert(key.clone(), wrong);
                    variants.push(Value::Object(changed));
                }
                if depth < 2 {
                    for inner in broken(member, rng, depth + 1) {
                        let mut changed = object.clone();
                        changed.insert(key.clone(), inner);
                        variants.push(Value::Object(changed));
                    }
                }
            }
            let mut extra = object.clone();
            extra.insert("isbn".into(), json!(1));
            extra.insert("zz_unknown".into(), json!("x"));
            variants.push(Value::Object(extra));
        }
        Value::Array(items) if !items.is_empty() && depth < 2 => {
            let at = rng.below(items.len());
            for inner in broken(&items[at], rng, depth + 1) {
                let mut changed = items.clone();
                changed[at] = inner;
                variants.push(Value::Array(changed));
            }
            let mut doubled = items.clone();
            doubled.extend(items.iter().cloned());
            variants.push(Value::Array(doubled));
        }
        _ => {}
    }
    variants
}

/// `jsonschema`'s errors, as (instance path, message).
fn reference(validator: &jsonschema::Validator, instance: &Value) -> Vec<(String, String)> {
    validator
        .iter_errors(instance)
        .map(|error| (error.instance_path().to_string(), error.to_string()))
        .collect()
}

#[test]
fn the_runtime_validator_agrees_with_jsonschema_on_every_published_schema() {
    let mut tools: Vec<Value> = SERVERS
        .iter()
        .flat_map(|server| listed_tools(server))
        .collect();
    tools.extend(snapshot_tools());
    let mut schemas = Vec::new();
    for tool in &tools {
        for field in ["inputSchema", "outputSchema"] {
            if let Some(schema) = tool.get(field) {
                schemas.push((format!("{}.{field}", tool["name"]), schema.clone()));
            }
        }
    }
    assert!(schemas.len() > 50, "only {} schemas found", schemas.len());
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let (mut instances, mut refused) = (0, 0);
    let mut disagreements = Vec::new();
    for (name, schema) in &schemas {
        let validator = jsonschema::draft202012::new(schema)
            .unwrap_or_else(|error| panic!("{name}: jsonschema refuses it: {error}"));
        schema_problems(schema, &json!({}))
            .unwrap_or_else(|error| panic!("{name}: the runtime refuses it: {error}"));
        let mut values = Vec::new();
        for _ in 0..4 {
            let valid = generate(schema, schema, &mut rng, 0);
            values.extend(broken(&valid, &mut rng, 0));
            values.push(valid);
        }
        for value in values {
            instances += 1;
            let theirs = reference(&validator, &value);
            let ours: Vec<(String, String)> = schema_problems(schema, &value)
                .unwrap()
                .into_iter()
                .map(|problem| (problem.instance_path, problem.message))
                .collect();
            refused += usize::from(!theirs.is_empty());
            if validator.is_valid(&value) != ours.is_empty() || theirs != ours {
                disagreements.push(format!(
                    "{name} with {value}:\n  ours   {ours:?}\n  theirs {theirs:?}"
                ));
            }
        }
    }
    println!(
        "{} schemas of {} tools, {instances} values ({refused} refused by both)",
        schemas.len(),
        tools.len()
    );
    assert!(
        disagreements.is_empty(),
        "{} disagreements:\n{}",
        disagreements.len(),
        disagreements[..disagreements.len().min(20)].join("\n")
    );
}
