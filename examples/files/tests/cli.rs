//! The command line built into every server binary: the files example keeps its own
//! arguments (the directory it serves) beside `MCP_CLI`.

use std::path::Path;

use mcp_tests::examples::run_cli as run;

#[test]
fn the_application_keeps_its_own_arguments() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../interop/fixtures/files-root");
    let files = |command: &str| {
        run(
            env!("CARGO_BIN_EXE_files"),
            &[root.to_str().unwrap()],
            command,
        )
    };
    let listed = files("tools");
    assert!(listed.status.success());
    assert!(String::from_utf8_lossy(&listed.stdout).contains("read_file"));
    let outside = files("call read_file path=../secret");
    assert_eq!(outside.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&outside.stderr).contains("outside the served directory"));
}
