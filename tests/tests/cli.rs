//! `MCP_CLI` with JSON arguments, on the fixture server: objects and arrays are written as
//! is after `key=`, quotes and spaces included, and one that is not JSON is refused before
//! anything is sent, saying how to write it.

use std::process::{Command, Output};

fn fixture_cli(command: &str) -> Output {
    Command::new(env!("CARGO_BIN_EXE_fixture"))
        .env("MCP_CLI", command)
        .env_remove("RUST_LOG")
        .output()
        .expect("the fixture starts")
}

#[test]
fn objects_and_arrays_are_json_as_written() {
    let output = fixture_cli(
        r#"call rich small=1 colour=red points=[{"x": 1, "y": 2.5, "label": "a b"}] counts={"a": 1, "b c": 2}"#,
    );
    let out = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{output:?}");
    assert!(
        out.contains(r#""points": 1,"#) && out.contains(r#""counts": 2,"#),
        "{out}"
    );
}

#[test]
fn an_object_that_is_not_json_is_refused_with_how_to_write_it() {
    // What a shell leaves of `"counts={"a":1}"`.
    let output = fixture_cli("call rich small=1 colour=red points=[] counts={a:1}");
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    assert!(output.stdout.is_empty());
    assert_eq!(
        String::from_utf8_lossy(&output.stderr),
        "error: `counts` takes a JSON object, and `{a:1}` is not JSON (key must be a string at \
         line 1 column 2).\n\
         Write the JSON as is after `counts=`, and put the value of MCP_CLI in single quotes so \
         the shell keeps the JSON's double quotes:\n    \
         MCP_CLI='call rich counts={\"name\": \"value\"}' ...\n"
    );
}
