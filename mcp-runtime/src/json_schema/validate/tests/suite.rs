//! The official JSON-Schema-Test-Suite's draft 2020-12 cases (vendored in
//! `mcp-runtime/tests/schema-suite/`), each checked for its expected verdict and, against
//! `jsonschema`, for the same errors (instance path and message) in the same order.

use std::path::PathBuf;

use serde_json::Value;

use super::super::Schema;
use super::reference_errors;

/// Files left out, and why.
const SKIPPED_FILES: [(&str, &str); 3] = [
    (
        "refRemote.json",
        "remote references: the validator never fetches",
    ),
    (
        "vocabulary.json",
        "a custom meta-schema's `$vocabulary`: needs that meta-schema, a remote document",
    ),
    (
        "dynamicRef.json",
        "dynamic scope: `$dynamicRef` is read as a `$ref`, which schemars never emits",
    ),
];

/// Groups left out (file, description), and why.
const SKIPPED_GROUPS: [(&str, &str, &str); 7] = [
    (
        "defs.json",
        "validate definition against metaschema",
        "needs the draft 2020-12 meta-schema, a remote document",
    ),
    (
        "ref.json",
        "remote ref, containing refs itself",
        "needs the draft 2020-12 meta-schema, a remote document",
    ),
    ("ref.json", "$ref to $dynamicRef", "dynamic scope"),
    (
        "unevaluatedItems.json",
        "unevaluatedItems with $dynamicRef",
        "dynamic scope",
    ),
    (
        "unevaluatedProperties.json",
        "unevaluatedProperties with $dynamicRef",
        "dynamic scope",
    ),
    (
        "pattern.json",
        "pattern with Unicode property escape requires unicode mode",
        "Unicode property escapes (`\\p{Letter}`): regex-lite has no Unicode classes",
    ),
    (
        "patternProperties.json",
        "patternProperties with Unicode property escape",
        "Unicode property escapes (`\\p{Letter}`): regex-lite has no Unicode classes",
    ),
];

fn suite_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/schema-suite/draft2020-12")
}

#[test]
fn the_official_suite_passes_and_agrees_with_jsonschema() {
    let mut files: Vec<PathBuf> = std::fs::read_dir(suite_dir())
        .expect("the vendored suite")
        .map(|entry| entry.expect("a directory entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "json"))
        .collect();
    files.sort();
    let (mut cases, mut skipped) = (0, 0);
    let mut failures = Vec::new();
    for path in files {
        let file = path.file_name().unwrap().to_str().unwrap().to_owned();
        let groups: Vec<Value> =
            serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        if SKIPPED_FILES.iter().any(|(name, _)| *name == file) {
            skipped += groups
                .iter()
                .map(|g| g["tests"].as_array().unwrap().len())
                .sum::<usize>();
            continue;
        }
        for group in &groups {
            let description = group["description"].as_str().unwrap();
            let tests = group["tests"].as_array().unwrap();
            if SKIPPED_GROUPS
                .iter()
                .any(|(name, skipped, _)| *name == file && *skipped == description)
            {
                skipped += tests.len();
                continue;
            }
            let schema = match Schema::compile(&group["schema"]) {
                Ok(schema) => schema,
                Err(error) => {
                    failures.push(format!("{file}: {description}: does not compile: {error}"));
                    continue;
                }
            };
            for test in tests {
                cases += 1;
                let name = format!("{file}: {description}: {}", test["description"]);
                let data = &test["data"];
                let expected = test["valid"].as_bool().unwrap();
                let ours = schema.errors(data);
                if schema.is_valid(data) != expected || ours.is_empty() != expected {
                    failures.push(format!("{name}: expected valid={expected}, got {ours:?}"));
                }
                let ours: Vec<(String, String, String)> = ours
                    .iter()
                    .map(|e| {
                        let keyword = e.keyword().to_owned();
                        (e.instance_path().to_owned(), keyword, e.to_string())
                    })
                    .collect();
                if let Some(theirs) = reference_errors(&group["schema"], data)
                    && theirs != ours
                {
                    failures.push(format!(
                        "{name}: differs from jsonschema:\n  ours   {ours:?}\n  theirs {theirs:?}"
                    ));
                }
            }
        }
    }
    println!("{cases} cases run, {skipped} skipped");
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
