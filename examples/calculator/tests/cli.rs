//! The command line built into every server binary, tried on the calculator:
//! `MCP_CLI="..." calculator`.

use std::path::Path;

use mcp_tests::examples::run_cli as run;

fn calculator(command: &str) -> (i32, String, String) {
    let output = run(env!("CARGO_BIN_EXE_calculator"), &[], command);
    (
        output.status.code().expect("an exit code"),
        String::from_utf8(output.stdout).unwrap(),
        String::from_utf8(output.stderr).unwrap(),
    )
}

#[test]
fn tools_prints_a_table() {
    let (status, out, _) = calculator("tools");
    assert_eq!(status, 0);
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[0].starts_with("NAME"), "{out}");
    assert!(lines[0].contains("TITLE") && lines[0].contains("HINTS"));
    let add = lines.iter().find(|line| line.starts_with("add ")).unwrap();
    for cell in ["Adder", "read-only, idempotent", "Add two integers."] {
        assert!(add.contains(cell), "{add}");
    }
    // One line per tool, after the header; only the description's first line.
    assert_eq!(lines.len(), 1 + 7, "{out}");
    assert!(!out.contains("Overflow is reported"));
}

#[test]
fn call_coerces_arguments_and_prints_the_result() {
    assert_eq!(
        calculator("call add a=2 b=-5"),
        (0, "-3\n".to_owned(), String::new())
    );
    assert_eq!(calculator(r#"call add '{"a": 1, "b": 2}'"#).1, "3\n");

    let (status, out, _) = calculator("call statistics values=[1,2,3.5]");
    assert_eq!(status, 0);
    assert!(
        out.contains("structuredContent:\n{\n  \"count\": 3,"),
        "{out}"
    );
}

#[test]
fn a_bad_call_fails_with_the_error_a_client_gets() {
    // Wrong type: the server's own argument validation answers, as for any client.
    let (status, out, err) = calculator("call add a=1 b=two");
    assert_eq!(status, 1);
    assert_eq!(out, "");
    assert!(err.contains("the tool failed"), "{err}");
    assert!(err.contains("`b`") && err.contains("integer"), "{err}");

    // A tool error.
    let (status, _, err) = calculator("call divide dividend=1 divisor=0");
    assert_eq!(status, 1);
    assert!(err.contains("cannot divide by zero"), "{err}");

    // A protocol error.
    let (status, _, err) = calculator("call nope");
    assert_eq!(status, 1);
    assert!(err.contains("-32602"), "{err}");

    // A usage error.
    assert_eq!(calculator("frobnicate").0, 2);
}

#[test]
fn schema_shows_input_and_output_schemas() {
    let (status, out, _) = calculator("schema factorize");
    assert_eq!(status, 0);
    let (input, output) = out.split_once("\noutput schema:\n").expect("both schemas");
    assert!(input.starts_with("input schema:\n{"), "{out}");
    assert!(input.contains("\"n\""));
    let output: serde_json::Value = serde_json::from_str(output).unwrap();
    assert_eq!(output["properties"]["result"]["type"], "array");
    assert!(calculator("schema add").1.contains("output schema: none"));
    assert_eq!(calculator("schema nope").0, 1);
}

#[test]
fn list_json_matches_the_checked_in_listing() {
    for revision in ["2025-11-25", "2026-07-28"] {
        let (status, out, _) = calculator(&format!("list-json --revision {revision}"));
        assert_eq!(status, 0);
        let result: serde_json::Value = serde_json::from_str(&out).unwrap();
        let snapshot =
            Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots/calculator.tools.json");
        let snapshot: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(snapshot).unwrap()).unwrap();
        assert_eq!(result["tools"], snapshot, "{revision}");
        assert_eq!(result.get("resultType").is_some(), revision == "2026-07-28");
    }
}

#[test]
fn revisions_and_help() {
    let (status, out, _) = calculator("revisions");
    assert_eq!(status, 0);
    assert_eq!(out.lines().count(), 5);
    assert!(out.contains("2026-07-28") && out.contains("2024-11-05"));
    let (status, out, _) = calculator("help");
    assert_eq!(status, 0);
    for command in ["tools", "schema", "list-json", "call", "revisions"] {
        assert!(out.contains(command), "{out}");
    }
}
