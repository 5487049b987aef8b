//! `MCP_CLI` with JSON arguments, on the fixture server: objects and arrays are written as
//! is after `key=`, quotes and spaces included, and one that is not JSON is refused before
//! anything is sent, saying how to write it. And `task`, on the tasks server, in both eras:
//! status changes on stderr, the result on stdout, exit status 1 for a task that fails or
//! is cancelled.

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

fn tasks_cli(command: &str) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tasks"))
        .env("MCP_CLI", command)
        .env_remove("RUST_LOG")
        .output()
        .expect("the tasks server starts")
}

const REVISIONS: [&str; 2] = ["2025-11-25", "2026-07-28"];

/// The `task <id>: <status>` lines of stderr, without the ids.
fn statuses(stderr: &str) -> Vec<String> {
    stderr
        .lines()
        .filter_map(|line| line.strip_prefix("task "))
        .filter_map(|line| line.split_once(": "))
        .map(|(_, status)| status.to_owned())
        .collect()
}

#[test]
fn task_runs_a_tool_as_a_task_and_prints_its_result() {
    for revision in REVISIONS {
        // Three steps of 400 ms: the progress message, stored after the first, is the
        // task's status message for 800 ms, which the command's polls (every 100 ms) see.
        let command = format!("task report quarter=Q3 steps=3 step_ms=400 -r {revision}");
        let output = tasks_cli(&command);
        let out = String::from_utf8_lossy(&output.stdout);
        let err = String::from_utf8_lossy(&output.stderr);
        assert!(output.status.success(), "{revision}: {output:?}");
        assert!(out.contains(r#""quarter": "Q3""#), "{revision}: {out}");
        assert_eq!(
            statuses(&err),
            ["working", "working (building)", "completed"],
            "{revision}: {err}"
        );
        let id = err.lines().next().unwrap();
        assert_eq!(id.len(), "task : working".len() + 32, "{revision}: {err}");
        if revision == "2025-11-25" {
            // The task's progress and log messages come over the connection.
            assert!(err.contains("progress 3/3 building"), "{err}");
            assert!(err.contains("log [info] step 3 of 3"), "{err}");
        }
    }
}

#[test]
fn a_task_that_fails_or_is_cancelled_exits_with_1() {
    for revision in REVISIONS {
        let output = tasks_cli(&format!("task fails -r {revision}"));
        let err = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "{revision}: {output:?}");
        assert!(output.stdout.is_empty(), "{revision}: {output:?}");
        assert!(
            err.contains("the tool failed:\nthe report source is offline"),
            "{revision}: {err}"
        );
        // A tool error fails a 2025-11-25 task; it completes a 2026-07-28 one.
        let last = if revision == "2025-11-25" {
            "failed (The tool reported an error (isError).)"
        } else {
            "completed"
        };
        assert_eq!(statuses(&err), ["working", last], "{revision}: {err}");

        let output = tasks_cli(&format!("task build ms=60000 --timeout 300 -r {revision}"));
        let err = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "{revision}: {output:?}");
        assert!(output.stdout.is_empty(), "{revision}: {output:?}");
        assert!(
            err.contains("not ended after 300 ms: cancelling it"),
            "{err}"
        );
        assert_eq!(
            statuses(&err).last().map(String::as_str),
            Some("cancelled (Cancelled at the client's request.)"),
            "{revision}: {err}"
        );
    }
}

#[test]
fn task_only_and_never_task_tools_say_which_command_to_use() {
    for revision in REVISIONS {
        let output = tasks_cli(&format!("call build ms=1 -r {revision}"));
        let err = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "{revision}: {output:?}");
        assert!(
            err.ends_with("hint: `build` runs only as a task: MCP_CLI='task build ...'\n"),
            "{revision}: {err}"
        );
    }
    // A tool that never runs as a task: refused under 2025-11-25, answered at once under
    // 2026-07-28.
    let output = tasks_cli("task echo text=hi");
    let err = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    assert!(
        err.ends_with("hint: `echo` does not run as a task: MCP_CLI='call echo ...'\n"),
        "{err}"
    );
    let output = tasks_cli("task echo text=hi -r 2026-07-28");
    assert!(output.status.success(), "{output:?}");
    assert_eq!(String::from_utf8_lossy(&output.stdout), "hi\n");
    assert!(
        String::from_utf8_lossy(&output.stderr).contains("ran as a plain call"),
        "{output:?}"
    );
}
