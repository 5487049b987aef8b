//! Tool schemas as the pickiest clients read them: only `format`s JSON Schema defines
//! (schemars' `uint64`, `int32`, `double`… make the MCP Inspector's Ajv print `unknown
//! format "uint64" ignored` per field), and integer bounds within ±(2^53 − 1), which a
//! JavaScript client holds exactly. The server checks arguments against the schema it
//! publishes, so a 64-bit argument beyond that bound is refused, on the typed path and the
//! general one alike. Where the interop clients are installed (`bash interop/setup.sh`), Ajv
//! itself, in strict mode with `ajv-formats`, compiles every schema without a warning.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

use mcp_tests::{StdioClient, first_text};
use serde_json::{Value, json};

/// 2^53 − 1: JavaScript's `Number.MAX_SAFE_INTEGER`.
const MAX_SAFE_INTEGER: i64 = (1 << 53) - 1;

/// The formats JSON Schema 2020-12 defines (§7.3).
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

/// The servers whose tools are checked, as this package builds them.
const SERVERS: [&str; 4] = [
    env!("CARGO_BIN_EXE_fixture"),
    env!("CARGO_BIN_EXE_argument_shapes"),
    env!("CARGO_BIN_EXE_primitives"),
    env!("CARGO_BIN_EXE_tasks"),
];

/// Every tool `program` lists, after `initialize` under the newest handshake revision.
fn tools(program: &str) -> Vec<Value> {
    let mut client = StdioClient::spawn(program, &[]);
    client.initialize("2025-11-25");
    let listed = client.request("tools/list", json!({}))["result"]["tools"].clone();
    listed.as_array().expect("a list of tools").clone()
}

/// Every schema of every tool of every server, named `server tool inputSchema`.
fn every_schema() -> Vec<(String, Value)> {
    let mut schemas = Vec::new();
    for program in SERVERS {
        let server = Path::new(program).file_name().unwrap().to_string_lossy();
        for tool in tools(program) {
            for key in ["inputSchema", "outputSchema"] {
                if let Some(schema) = tool.get(key) {
                    schemas.push((format!("{server} {} {key}", tool["name"]), schema.clone()));
                }
            }
        }
    }
    schemas
}

/// What in `schema` a picky client refuses or rounds: a `format` JSON Schema does not
/// define, a bound beyond ±(2^53 − 1). Values (`const`, `default`, `enum`, `examples`)
/// are data, not schemas, and are not looked into.
fn unportable(schema: &Value, at: &str, found: &mut Vec<String>) {
    match schema {
        Value::Object(members) => {
            for (key, value) in members {
                let here = format!("{at}/{key}");
                match (key.as_str(), value) {
                    ("const" | "default" | "enum" | "examples", _) => {}
                    ("format", Value::String(format)) => {
                        if !STANDARD_FORMATS.contains(&format.as_str()) {
                            found.push(format!("{here}: format {format:?}"));
                        }
                    }
                    (
                        "minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum",
                        Value::Number(bound),
                    ) => {
                        let bound = bound.as_f64().expect("a number");
                        if bound.abs() > MAX_SAFE_INTEGER as f64 {
                            found.push(format!("{here}: {bound}"));
                        }
                    }
                    _ => unportable(value, &here, found),
                }
            }
        }
        Value::Array(items) => {
            for (index, item) in items.iter().enumerate() {
                unportable(item, &format!("{at}/{index}"), found);
            }
        }
        _ => {}
    }
}

#[test]
fn every_schema_uses_only_standard_formats_and_bounds_javascript_holds() {
    let schemas = every_schema();
    assert!(schemas.len() > 50, "only {} schemas", schemas.len());
    let mut found = Vec::new();
    for (name, schema) in &schemas {
        unportable(schema, name, &mut found);
    }
    assert!(found.is_empty(), "{found:#?}");
}

#[test]
fn integer_bounds_are_the_types_own_up_to_what_javascript_holds() {
    let fixture = tools(env!("CARGO_BIN_EXE_fixture"));
    let widths = fixture
        .iter()
        .find(|tool| tool["name"] == "widths")
        .unwrap();
    let properties = &widths["inputSchema"]["properties"];
    let range = |name: &str| {
        let property = &properties[name];
        assert_eq!(property["type"], "integer", "{property}");
        assert!(property.get("format").is_none(), "{property}");
        (property["minimum"].clone(), property["maximum"].clone())
    };
    assert_eq!(range("int"), (json!(i32::MIN), json!(i32::MAX)));
    assert_eq!(range("short"), (json!(0), json!(u16::MAX)));
    assert_eq!(range("wide"), (json!(0), json!(u32::MAX)));
    assert_eq!(range("long"), (json!(0), json!(MAX_SAFE_INTEGER)));
    let numbers = fixture
        .iter()
        .find(|tool| tool["name"] == "numbers")
        .unwrap();
    let count = &numbers["inputSchema"]["properties"]["count"];
    assert_eq!(
        (count["minimum"].clone(), count["maximum"].clone()),
        (json!(-MAX_SAFE_INTEGER), json!(MAX_SAFE_INTEGER))
    );
    assert_eq!(
        numbers["inputSchema"]["properties"]["ratio"],
        json!({"type": "number", "description": "Any finite number."})
    );
    // Standard formats stay: they say what a string holds.
    let schedule = fixture
        .iter()
        .find(|tool| tool["name"] == "schedule")
        .unwrap();
    let properties = &schedule["inputSchema"]["properties"];
    assert_eq!(properties["at"]["format"], "date-time");
    assert_eq!(properties["day"]["format"], "date");
    assert_eq!(properties["id"]["format"], "uuid");
}

#[test]
fn a_64_bit_argument_beyond_the_published_bound_is_refused_as_the_schema_says() {
    // `integers` takes the typed path (it decodes straight into `i64`, `u8`, `i32`, `u64`);
    // `numbers` has the same `i64` on the general path, after a schema check.
    let mut client = StdioClient::spawn(env!("CARGO_BIN_EXE_argument_shapes"), &[]);
    client.initialize("2025-11-25");
    let mut call = |name: &str, arguments: Value| {
        client.request("tools/call", json!({"name": name, "arguments": arguments}))["result"]
            .clone()
    };
    let at_bound = call(
        "integers",
        json!({"a": -MAX_SAFE_INTEGER, "b": 1, "c": 1, "d": MAX_SAFE_INTEGER}),
    );
    assert_ne!(at_bound["isError"], true, "{at_bound}");
    assert_eq!(
        first_text(&at_bound),
        "(-9007199254740991, 1, 1, 9007199254740991)"
    );
    let beyond = call(
        "integers",
        json!({"a": 1, "b": 1, "c": 1, "d": MAX_SAFE_INTEGER + 1}),
    );
    assert_eq!(beyond["isError"], true, "{beyond}");
    assert_eq!(
        first_text(&beyond),
        "Invalid arguments for tool `integers`: `d`: 9007199254740992 is greater than the \
         maximum of 9007199254740991"
    );
    let below = call(
        "integers",
        json!({"a": -MAX_SAFE_INTEGER - 1, "b": 1, "c": 1, "d": 1}),
    );
    assert_eq!(
        first_text(&below),
        "Invalid arguments for tool `integers`: `a`: -9007199254740992 is less than the \
         minimum of -9007199254740991"
    );
}

/// The Node binary and the directory whose `node_modules` has Ajv and `ajv-formats`, if the
/// interop clients are installed.
fn ajv() -> Option<(String, std::path::PathBuf)> {
    let interop = Path::new(env!("CARGO_MANIFEST_DIR")).join("../interop/node");
    let modules = interop.join("node_modules");
    if !modules.join("ajv/package.json").is_file()
        || !modules.join("ajv-formats/package.json").is_file()
    {
        return None;
    }
    let pinned = modules.join("node/bin/node");
    let node = if pinned.is_file() {
        pinned.to_string_lossy().into_owned()
    } else {
        "node".to_owned()
    };
    Some((node, interop))
}

/// Compiles each schema (given as `{name: schema}` on stdin) with Ajv's JSON Schema 2020-12
/// class in strict mode, the formats of `ajv-formats` added, and prints every error thrown
/// and every warning logged, as a JSON list.
const AJV_CHECK: &str = r#"
const Ajv2020 = require("ajv/dist/2020").default;
const addFormats = require("ajv-formats").default;
const schemas = JSON.parse(require("fs").readFileSync(0, "utf8"));
const problems = [];
for (const [name, schema] of Object.entries(schemas)) {
  const said = (...words) => problems.push(`${name}: ${words.join(" ")}`);
  const ajv = new Ajv2020({ strict: true, logger: { log() {}, warn: said, error: said } });
  addFormats(ajv);
  try { ajv.compile(schema); } catch (error) { said(error.message); }
}
process.stdout.write(JSON.stringify(problems));
"#;

#[test]
fn ajv_compiles_every_schema_in_strict_mode_without_a_warning() {
    let Some((node, dir)) = ajv() else {
        eprintln!(
            "skipping the Ajv check: interop/node/node_modules has no ajv and ajv-formats \
             (run `bash interop/setup.sh`); the schemas' formats and bounds are still checked \
             by every_schema_uses_only_standard_formats_and_bounds_javascript_holds"
        );
        return;
    };
    let schemas: serde_json::Map<String, Value> = every_schema().into_iter().collect();
    let mut child = Command::new(&node)
        .args(["-e", AJV_CHECK])
        .current_dir(&dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|error| panic!("cannot start {node}: {error}"));
    let input = serde_json::to_vec(&schemas).unwrap();
    child.stdin.take().unwrap().write_all(&input).unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let problems: Vec<String> = serde_json::from_slice(&output.stdout).expect("a JSON list");
    assert!(problems.is_empty(), "{problems:#?}");
}
