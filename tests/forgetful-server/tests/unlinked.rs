//! A crate of tools the binary never names is left out by the linker; the binary says so at
//! start, naming the crate and the line that links it, and is quiet once it is named.

use std::process::{Command, Output};

fn tools(program: &str) -> Output {
    Command::new(program)
        .env("MCP_CLI", "tools")
        .output()
        .unwrap_or_else(|error| panic!("cannot start {program}: {error}"))
}

#[test]
fn a_crate_of_tools_the_binary_never_names_is_named_at_start() {
    let output = tools(env!("CARGO_BIN_EXE_mcp-test-forgetful-server"));
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    assert!(stdout.contains("ping"), "{stdout}");
    assert!(!stdout.contains("shout"), "{stdout}");
    assert!(
        stderr.contains("of `mcp_test_tool_library` are missing from this binary: `mcp-test-forgetful-server` depends on it"),
        "{stderr}"
    );
    assert!(
        stderr.contains("Add `use mcp_test_tool_library as _;`"),
        "{stderr}"
    );
    assert!(
        stderr.contains("unlinked = [\"mcp-test-tool-library\"]"),
        "{stderr}"
    );
    assert_eq!(
        stderr.matches("the linker leaves out").count(),
        1,
        "{stderr}"
    );
}

#[test]
fn a_named_crate_of_tools_is_served_without_a_warning() {
    let output = tools(env!("CARGO_BIN_EXE_remembers"));
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    assert!(
        stdout.contains("ping") && stdout.contains("shout"),
        "{stdout}"
    );
    assert!(!stderr.contains("linker"), "{stderr}");
}
