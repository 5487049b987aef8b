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

#[test]
fn skills_are_listed_and_a_skill_printed_with_its_files_verified() {
    let output = run(env!("CARGO_BIN_EXE_conformance"), &[], "skills");
    assert!(output.status.success());
    let table = String::from_utf8(output.stdout).unwrap();
    assert!(table.starts_with("NAME"), "{table}");
    assert!(
        table.contains("skill://acme/billing/refunds/SKILL.md"),
        "{table}"
    );
    assert!(table.contains("skill://pdf-forms/SKILL.md"), "{table}");

    let output = run(
        env!("CARGO_BIN_EXE_conformance"),
        &[],
        "skill skill://pdf-forms/SKILL.md",
    );
    assert!(output.status.success());
    let printed = String::from_utf8(output.stdout).unwrap();
    assert!(printed.contains("\"license\": \"Apache-2.0\""), "{printed}");
    for file in [
        "SKILL.md",
        "scripts/fill.py",
        "templates/invoice.md",
        "templates/regional/eu-invoice.md",
    ] {
        assert!(
            printed.contains(&format!("ok        skill://pdf-forms/{file} (")),
            "{file}: {printed}"
        );
    }

    let output = run(
        env!("CARGO_BIN_EXE_conformance"),
        &[],
        "skill skill://nothing/SKILL.md",
    );
    assert!(!output.status.success());
    let err = String::from_utf8(output.stderr).unwrap();
    assert!(
        err.contains("no skill is served at skill://nothing/SKILL.md"),
        "{err}"
    );
}
