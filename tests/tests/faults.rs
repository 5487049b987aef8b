//! Faults: a tool that panics, one that never returns, one that allocates without
//! bound, the client vanishing mid-call, and SIGTERM during load. Each fault is surrounded by
//! ordinary calls that must all be answered, and the process must exit with status 0 and
//! without a panic outside a tool when its input ends, its output closes or it is told to stop.
//!
//! Time limits here only detect hangs (generous, never a timing assertion).

use std::collections::HashMap;
use std::io::{BufRead, BufWriter, Write};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use mcp_tests::process::ServerProcess;
use serde_json::{Value, json};

const REVISION: &str = "2025-11-25";
const EXIT_LIMIT: Duration = Duration::from_secs(60);

fn fixture(args: &[&str]) -> ServerProcess {
    let mut server = ServerProcess::spawn(env!("CARGO_BIN_EXE_fixture"), args);
    server.handshake(REVISION);
    server
}

fn call(id: &Value, name: &str, arguments: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
        "params": {"name": name, "arguments": arguments}})
}

/// Sends `faulty` calls of `tool` between ordinary echo calls, all at once, and returns the
/// text of each faulty call's `isError` result after checking that every call was answered
/// exactly once.
fn surrounded_by_echoes(server: &mut ServerProcess, tool: &str, faulty: usize) -> Vec<String> {
    const ECHOES_PER_FAULT: usize = 20;
    for round in 0..faulty {
        server.send(&call(&json!(format!("fault-{round}")), tool, json!({})));
        for echo in 0..ECHOES_PER_FAULT {
            let id = json!(format!("echo-{round}-{echo}"));
            server.send(&call(&id, "echo", json!({"text": id})));
        }
    }
    let mut answers: HashMap<String, Value> = HashMap::new();
    while answers.len() < faulty * (ECHOES_PER_FAULT + 1) {
        let response = server.receive();
        let id = response["id"].as_str().expect("a response").to_owned();
        assert!(
            answers.insert(id.clone(), response).is_none(),
            "{id} answered twice"
        );
    }
    let mut texts = Vec::new();
    for (id, response) in answers {
        let result = &response["result"];
        let text = result["content"][0]["text"]
            .as_str()
            .unwrap_or_else(|| panic!("{response}"));
        if id.starts_with("fault-") {
            assert_eq!(result["isError"], true, "{response}");
            texts.push(text.to_owned());
        } else {
            assert_eq!(text, id, "{response}");
            assert_eq!(result.get("isError"), None, "{response}");
        }
    }
    texts
}

/// Closes stdin and checks the server exits cleanly.
fn end_input(mut server: ServerProcess) -> ServerProcess {
    server.stdin = None;
    server.assert_exited_cleanly(EXIT_LIMIT);
    server
}

#[test]
fn panicking_tools_leave_the_other_calls_answered() {
    for tool in ["panics", "panics_blocking"] {
        let mut server = fixture(&[]);
        for text in surrounded_by_echoes(&mut server, tool, 10) {
            assert_eq!(text, format!("Tool `{tool}` failed: it panicked."));
        }
        let server = end_input(server);
        // The details are logged on stderr (and only there).
        assert!(server.stderr_text().contains("secret internal detail"));
    }
}

#[test]
fn tools_that_never_return_are_stopped_by_the_timeout() {
    // `hang` ignores cancellation (only dropping its future stops it); `hang_blocking` is a
    // plain fn whose thread can never be stopped: its call is answered all the same, and the
    // server still exits when its input ends.
    for tool in ["hang", "hang_blocking"] {
        let mut server = fixture(&["--call-timeout-ms", "300"]);
        for text in surrounded_by_echoes(&mut server, tool, 3) {
            assert_eq!(
                text,
                format!("Tool `{tool}` timed out after 300 ms and was stopped.")
            );
        }
        end_input(server);
    }
    // SIGTERM while a plain fn hangs: its call gets the shutdown error once the grace period
    // is over, and the process exits even though the thread is still stuck.
    let mut server = fixture(&["--call-timeout-ms", "600000", "--shutdown-grace-ms", "200"]);
    server.send(&call(&json!("stuck"), "hang_blocking", json!({})));
    server.send(&call(&json!("echo"), "echo", json!({"text": "before"})));
    assert_eq!(server.receive()["id"], "echo");
    server.terminate();
    let response = server.receive();
    assert_eq!(response["id"], "stuck");
    assert_eq!(response["error"]["code"], -32603, "{response}");
    server.assert_exited_cleanly(EXIT_LIMIT);
}

#[test]
fn tools_that_allocate_without_bound_are_stopped_by_the_timeout() {
    // `hog` is an async fn: its future (and all it allocated) is dropped at its 300 ms
    // timeout. `hog_blocking` is a plain fn: it stops allocating once `ctx.is_cancelled()`
    // says its time is up. The runtime cannot bound a tool's memory in between: an in-process
    // tool can always exhaust it (see the manual, `mcp-runtime/docs/protocol.md`).
    let mut server = fixture(&[]);
    for tool in ["hog", "hog_blocking"] {
        for text in surrounded_by_echoes(&mut server, tool, 2) {
            assert_eq!(
                text,
                format!("Tool `{tool}` timed out after 300 ms and was stopped.")
            );
        }
    }
    let deadline = Instant::now() + EXIT_LIMIT;
    loop {
        server.send(&call(&json!("stopped?"), "hogs_stopped", json!({})));
        let stopped = server.receive()["result"]["content"][0]["text"].clone();
        if stopped == "2" {
            break;
        }
        assert!(Instant::now() < deadline, "the blocking hogs never stopped");
        std::thread::sleep(Duration::from_millis(50));
    }
    end_input(server);
}

#[test]
fn a_client_that_stops_reading_mid_call_ends_the_server_quietly() {
    let mut server = fixture(&[]);
    server.send(&call(&json!(1), "sleep", json!({"ms": 200})));
    server.send(&call(&json!(2), "wait_for_cancel", json!({})));
    // The client goes away without closing its end of stdin: the server finds out when it
    // writes the first response.
    server.stdout = None;
    server.assert_exited_cleanly(EXIT_LIMIT);
}

#[test]
fn a_client_that_vanishes_mid_call_ends_the_server_quietly() {
    let mut server = fixture(&[]);
    server.send(&call(&json!(1), "sleep", json!({"ms": 200})));
    server.send(&call(&json!(2), "block", json!({"ms": 200})));
    server.stdout = None;
    server.stdin = None;
    server.assert_exited_cleanly(EXIT_LIMIT);
}

#[test]
fn sigterm_during_load_answers_every_call_read_then_exits_cleanly() {
    // Calls already read are answered — finished, or with the documented -32603 once the
    // grace period is over (the `hang` calls never finish) — and nothing after them: the
    // answered ids are exactly the first ones sent.
    const CALLS: usize = 20_000;
    const IN_FLIGHT: usize = 1_000;
    const SIGNAL_AFTER: usize = 3_000;
    let mut server = fixture(&["--shutdown-grace-ms", "500", "--call-timeout-ms", "600000"]);
    let request = |id: usize| match id % 100 {
        99 => call(&json!(id), "hang", json!({})),
        49 => call(&json!(id), "sleep", json!({"ms": 100})),
        _ => call(&json!(id), "echo", json!({"text": format!("{id}")})),
    };
    let (credits, credit) = mpsc::channel::<()>();
    let mut stdin = server.stdin.take().expect("stdin");
    let writer = std::thread::spawn(move || {
        let mut out = BufWriter::new(&mut stdin);
        let mut sent = 0;
        for id in 0..CALLS {
            if id >= IN_FLIGHT
                && credit.try_recv().is_err()
                && (out.flush().is_err() || credit.recv().is_err())
            {
                break;
            }
            let mut line = serde_json::to_vec(&request(id)).unwrap();
            line.push(b'\n');
            if out.write_all(&line).is_err() {
                break; // the server has gone: broken pipe
            }
            sent = id + 1;
        }
        let _ = out.flush();
        sent
    });
    let mut stdout = server.stdout.take().expect("stdout");
    let mut answered = vec![false; CALLS];
    let mut received = 0;
    let mut line = String::new();
    loop {
        line.clear();
        if stdout.read_line(&mut line).expect("read") == 0 {
            break;
        }
        let response: Value =
            serde_json::from_str(&line).unwrap_or_else(|error| panic!("{error}: {line}"));
        let id = response["id"].as_u64().expect("a response to a call") as usize;
        assert!(!answered[id], "id {id} answered twice");
        answered[id] = true;
        match id % 100 {
            99 => assert_eq!(
                response["error"],
                json!({"code": -32603, "message": "Internal error: the server shut down before the call finished."}),
                "{response}"
            ),
            49 => assert_eq!(response["result"]["content"][0]["text"], "slept 100 ms"),
            _ => assert_eq!(
                response["result"]["content"][0]["text"],
                format!("{id}"),
                "{response}"
            ),
        }
        received += 1;
        if received == SIGNAL_AFTER {
            server.terminate();
        }
        let _ = credits.send(());
    }
    drop(credits);
    server.assert_exited_cleanly(EXIT_LIMIT);
    let sent = writer.join().expect("the writer does not panic");
    let answered_prefix = answered.iter().take_while(|answered| **answered).count();
    eprintln!("SIGTERM after {SIGNAL_AFTER} responses: {sent} calls sent, {received} answered");
    assert!(received >= SIGNAL_AFTER);
    assert_eq!(
        answered_prefix, received,
        "the answered calls are not the first ones sent"
    );
    assert!(
        answered
            .iter()
            .skip(answered_prefix)
            .all(|answered| !answered),
        "a call after the gap was answered"
    );
}

#[test]
fn a_client_slow_to_read_gets_every_answer() {
    // Answers far beyond what the stdout pipe holds (64 KiB) while the client reads
    // nothing: the server's writes wait, and it keeps reading and answering meanwhile.
    const CALLS: usize = 2_000;
    let mut server = fixture(&[]);
    let text = "x".repeat(1_000);
    let mut stdin = server.stdin.take().expect("stdin");
    let writer = std::thread::spawn(move || {
        let mut buffered = BufWriter::new(&mut stdin);
        for id in 0..CALLS {
            let line = call(&json!(id), "echo", json!({"text": text})).to_string();
            writeln!(buffered, "{line}").expect("write to the server");
        }
        buffered.flush().expect("flush to the server");
        drop(buffered);
        stdin
    });
    std::thread::sleep(Duration::from_millis(300));
    let mut answered = vec![false; CALLS];
    for _ in 0..CALLS {
        let response = server.receive();
        let id = response["id"].as_u64().expect("a response") as usize;
        assert_eq!(
            response["result"]["content"][0]["text"]
                .as_str()
                .map(str::len),
            Some(1_000),
            "{response}"
        );
        assert!(
            !std::mem::replace(&mut answered[id], true),
            "{id} answered twice"
        );
    }
    server.stdin = Some(writer.join().expect("the writer"));
    end_input(server);
}

/// A host may make the server's stdin non-blocking (the file description can be shared
/// with it): a read that finds nothing then waits, and is not taken for the end of input.
#[cfg(unix)]
#[test]
fn a_stdin_the_host_made_non_blocking_is_read_as_it_comes() {
    use rustix::fs::{OFlags, fcntl_getfl, fcntl_setfl};
    use rustix::pipe::{PipeFlags, pipe_with};
    // Close-on-exec, as `std`'s own pipes: a write end the server inherited would keep its
    // input from ever ending.
    let (read, write) = pipe_with(PipeFlags::CLOEXEC).expect("a pipe");
    let flags = fcntl_getfl(&read).expect("the pipe's flags");
    fcntl_setfl(&read, flags | OFlags::NONBLOCK).expect("a non-blocking pipe");
    let mut server = ServerProcess::spawn_with_stdin(
        env!("CARGO_BIN_EXE_fixture"),
        &[],
        std::process::Stdio::from(read),
    );
    server.stdin = Some(std::process::ChildStdin::from(write));
    server.handshake(REVISION);
    for id in 0..5 {
        // The server's read finds the pipe empty before each call arrives.
        std::thread::sleep(Duration::from_millis(50));
        server.send(&call(&json!(id), "echo", json!({"text": "still here"})));
        let response = server.receive();
        assert_eq!(response["id"], id, "{response}");
        assert_eq!(
            response["result"]["content"][0]["text"], "still here",
            "{response}"
        );
    }
    end_input(server);
}
