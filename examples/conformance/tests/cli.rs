//! The command line built into every server binary: a call's progress and log messages go
//! to stderr.

use mcp_tests::examples::run_cli as run;

#[test]
fn progress_and_logs_go_to_stderr() {
    let output = run(
        env!("CARGO_BIN_EXE_conformance"),
        &[],
        "call test_tool_with_progress",
    );
    assert!(output.status.success());
    let err = String::from_utf8(output.stderr).unwrap();
    assert!(err.contains("progress 100/100"), "{err}");
    let output = run(
        env!("CARGO_BIN_EXE_conformance"),
        &[],
        "call test_tool_with_logging",
    );
    assert!(
        String::from_utf8(output.stderr)
            .unwrap()
            .contains("log [info]")
    );
}
