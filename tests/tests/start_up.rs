//! What a server says on stderr as it starts, read from real processes: a server with no
//! tools at all warns, in every way of serving (`tests/src/bin/no_tools.rs`), unless it says
//! it means to; a server started by hand on a terminal says what it waits for; an HTTP
//! server says where it listens; and a server launched with pipes, as hosts do, with its
//! tools, says nothing.

use std::io::{BufRead, BufReader};
use std::process::{Child, ChildStderr, Command, Output, Stdio};
use std::sync::mpsc;
use std::time::Duration;

const NO_TOOLS: &str = env!("CARGO_BIN_EXE_no_tools");
const FIXTURE: &str = env!("CARGO_BIN_EXE_fixture");

/// The warning's first line and what it says about each cause.
const WARNING: [&str; 4] = [
    "this server has no tools: no #[mcp_tool] function is linked into this binary and no tool \
     was added with ToolSet::add. The usual causes:\n",
    "  - the tools are in a library crate the binary never names, so the linker leaves them \
     out: add `use my_tools as _;` (with the library's name) to the binary's main.rs;\n",
    "  - this is an integration test in tests/ of a binary crate, which links none of the \
     binary's tools: move the tools into the crate's library (src/lib.rs) and add \
     `use my_crate as _;` to the test, or test the binary as a process.\n",
    "A server that adds all its tools at run time says so with Server::allow_no_tools().",
];

/// Runs `program` to the end with stdin a pipe that is closed at once (end of input, as
/// when a host hangs up).
fn run(program: &str, args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut command = Command::new(program);
    command
        .args(args)
        .envs(env.iter().copied())
        .env_remove("RUST_LOG")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let child = command
        .spawn()
        .unwrap_or_else(|error| panic!("cannot start {program}: {error}"));
    let output = child.wait_with_output().expect("the server's output");
    assert!(output.status.success(), "{program} {args:?}: {output:?}");
    output
}

fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).expect("UTF-8 on stderr")
}

/// Panics unless `text` holds the whole warning exactly once.
fn assert_warns_once(text: &str) {
    let whole = WARNING.concat();
    assert_eq!(
        text.matches(&whole).count(),
        1,
        "the warning, once:\n{text}"
    );
}

#[test]
fn with_no_tools_over_stdio_it_warns_through_its_stderr_log() {
    let output = run(NO_TOOLS, &[], &[]);
    let text = stderr(&output);
    assert_warns_once(&text);
    // `serve_stdio` installed its subscriber: the warning is a log line.
    let first = text.lines().next().unwrap_or_default();
    assert!(
        first.contains(" WARN ") && first.ends_with(WARNING[0].trim_end()),
        "{text}"
    );
    assert!(output.stdout.is_empty(), "stdout is the protocol's");
    assert!(!text.contains("waits for an MCP client"), "stdin is a pipe");
}

#[test]
fn allow_no_tools_keeps_it_quiet() {
    for args in [
        &["--allow-no-tools"][..],
        &["--allow-no-tools", "--test-client"],
        &["--allow-no-tools", "--router"],
    ] {
        let output = run(NO_TOOLS, args, &[]);
        assert_eq!(stderr(&output), "", "{args:?}");
    }
}

#[test]
fn the_command_line_says_it_plainly_once() {
    let output = run(NO_TOOLS, &[], &[("MCP_CLI", "tools")]);
    let text = stderr(&output);
    assert!(
        text.starts_with(&format!("warning: {}", WARNING[0])),
        "{text}"
    );
    assert_warns_once(&text);
    assert_eq!(
        String::from_utf8_lossy(&output.stdout),
        "NAME  TITLE  HINTS  DESCRIPTION\n"
    );
}

#[test]
fn a_test_client_or_a_router_without_a_subscriber_prints_it() {
    for mode in ["--test-client", "--router"] {
        let text = stderr(&run(NO_TOOLS, &[mode], &[]));
        assert_eq!(text, format!("warning: {}\n", WARNING.concat()), "{mode}");
    }
}

/// Reads the server's stderr line by line on a thread of its own.
fn lines_of(stderr: ChildStderr) -> mpsc::Receiver<String> {
    let (sender, lines) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines() {
            let Ok(line) = line else { return };
            if sender.send(line).is_err() {
                return;
            }
        }
    });
    lines
}

/// The lines up to and including the first that contains `wanted`.
fn lines_until(lines: &mpsc::Receiver<String>, wanted: &str) -> Vec<String> {
    let mut seen = Vec::new();
    loop {
        match lines.recv_timeout(Duration::from_secs(20)) {
            Ok(line) => {
                let done = line.contains(wanted);
                seen.push(line);
                if done {
                    return seen;
                }
            }
            Err(_) => panic!("no {wanted:?} on stderr; it said:\n{}", seen.join("\n")),
        }
    }
}

/// Stops a server this test started.
fn stop(mut child: Child) {
    let _ = child.kill();
    let _ = child.wait();
}

#[test]
fn over_http_it_warns_then_says_where_it_listens() {
    let mut child = Command::new(NO_TOOLS)
        .args(["--http", "127.0.0.1:0"])
        .env_remove("RUST_LOG")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the server starts");
    let lines = lines_of(child.stderr.take().expect("piped stderr"));
    let said = lines_until(&lines, "MCP server listening on");
    stop(child);
    let text = said.join("\n");
    assert_warns_once(&(text.clone() + "\n"));
    let listening = said.last().expect("a line");
    let port = listening
        .strip_prefix("MCP server listening on http://127.0.0.1:")
        .and_then(|rest| rest.strip_suffix("/mcp"))
        .unwrap_or_else(|| panic!("{listening}"));
    assert!(
        port.parse::<u16>().is_ok_and(|port| port != 0),
        "{listening}"
    );
}

#[test]
fn a_server_with_tools_on_pipes_says_nothing() {
    assert_eq!(stderr(&run(FIXTURE, &[], &[])), "");
}

/// A pseudo-terminal: the server's stdin is its terminal end, as when someone types the
/// binary's name in a shell.
#[cfg(unix)]
#[test]
fn started_on_a_terminal_it_says_what_it_waits_for() {
    use rustix::fs::{Mode, OFlags};
    use rustix::pty::{OpenptFlags, grantpt, openpt, ptsname, unlockpt};

    // Close-on-exec, so that only this test holds the controlling end: dropping it is the
    // terminal going away.
    let flags = OpenptFlags::RDWR | OpenptFlags::NOCTTY | OpenptFlags::CLOEXEC;
    let controller = openpt(flags).expect("a pseudo-terminal");
    grantpt(&controller).expect("grantpt");
    unlockpt(&controller).expect("unlockpt");
    let name = ptsname(&controller, Vec::new()).expect("the terminal's name");
    let terminal = rustix::fs::open(
        name.as_c_str(),
        OFlags::RDWR | OFlags::NOCTTY | OFlags::CLOEXEC,
        Mode::empty(),
    )
    .expect("the terminal end");

    let mut child = Command::new(FIXTURE)
        .env_remove("RUST_LOG")
        .env_remove("MCP_CLI")
        .stdin(Stdio::from(terminal))
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the fixture starts");
    let lines = lines_of(child.stderr.take().expect("piped stderr"));
    let said = lines_until(&lines, "Press Ctrl-D").join("\n");
    // Hanging up the terminal ends the server's input.
    drop(controller);
    let ended = (0..100).any(|_| {
        std::thread::sleep(Duration::from_millis(50));
        matches!(child.try_wait(), Ok(Some(_)))
    });
    stop(child);
    assert!(ended, "the server ends when its terminal goes away");

    // Cargo runs this test, so the hint gives the `cargo run` line.
    let program = "cargo run -p mcp-tests --bin fixture";
    assert_eq!(
        said,
        format!(
            "This is an MCP server: it waits for an MCP client to send JSON-RPC messages on \
             stdin, and reads whatever is typed here as such. MCP hosts (an IDE, a desktop \
             app, the MCP Inspector) start it for you.\n\
             To try its tools from a shell, use its command line:\n    \
             MCP_CLI=tools {program}\n    \
             MCP_CLI='call <tool> key=value ...' {program}\n    \
             MCP_CLI=help {program}\n\
             Press Ctrl-D to stop the server."
        )
    );
}
