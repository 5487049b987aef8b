//! Backpressure over stdio: a client that writes 30,000 `tools/call`s without reading a
//! single answer. The server must stop reading (the client's writes block once the pipe to
//! the server is full) with its memory bounded by `Server::max_output_backlog`, not by the
//! number of requests; once the client reads, every request is answered exactly once.
//!
//! Linux only: the server's memory is read from `/proc/<pid>/status`.
#![cfg(target_os = "linux")]

use std::io::{BufRead, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use mcp_tests::process::ServerProcess;
use mcp_tests::status_kb;
use serde_json::{Value, json};

const CALLS: usize = 30_000;
/// Requests per write of the client.
const PER_WRITE: usize = 100;
/// What one call echoes: answers of about 1,300 bytes, 39 MB for all of them, many times
/// the default limit on the output waiting for the client (4 MiB).
const TEXT_LENGTH: usize = 1_200;
/// The server's growth allowed while the client does not read: the default limit on the
/// output waiting for it (in a buffer that may have doubled past it), the 64 KiB read
/// ahead, and the allocator's slack, with room to spare; well below the 39 MB the answers
/// would take.
const GROWTH_LIMIT_KB: u64 = 24 * 1024;
/// How long the client's writes must make no progress for the server to count as having
/// stopped reading.
const STALLED_FOR: Duration = Duration::from_millis(500);
const REVISION: &str = "2025-11-25";

fn text(id: usize) -> String {
    let label = format!("call {id} ");
    format!("{label}{}", "x".repeat(TEXT_LENGTH - label.len()))
}

#[test]
fn a_client_that_stops_reading_stops_the_server_reading_and_loses_no_answer() {
    let mut server = ServerProcess::spawn(env!("CARGO_BIN_EXE_fixture"), &[]);
    server.handshake(REVISION);
    let pid = server.pid();
    let before_kb = status_kb(pid, "VmRSS").expect("the server is running");

    let written = Arc::new(AtomicUsize::new(0));
    let mut stdin = server.stdin.take().expect("stdin");
    let writer = std::thread::spawn({
        let written = Arc::clone(&written);
        move || {
            let mut chunk = Vec::new();
            for first in (0..CALLS).step_by(PER_WRITE) {
                chunk.clear();
                for id in first..(first + PER_WRITE).min(CALLS) {
                    let request = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
                        "params": {"name": "echo", "arguments": {"text": text(id)}}});
                    serde_json::to_writer(&mut chunk, &request).expect("serialize");
                    chunk.push(b'\n');
                }
                stdin.write_all(&chunk).expect("write to the server");
                written.store((first + PER_WRITE).min(CALLS), Ordering::Relaxed);
            }
            stdin
        }
    });

    // Nothing is read until the client's writes have stopped moving (or all went through,
    // which is the failure this test is for).
    let started = Instant::now();
    let mut last = (0, Instant::now());
    let mut most_kb = before_kb;
    while last.1.elapsed() < STALLED_FOR && last.0 < CALLS {
        std::thread::sleep(Duration::from_millis(20));
        most_kb = most_kb.max(status_kb(pid, "VmRSS").expect("the server is running"));
        let now = written.load(Ordering::Relaxed);
        if now != last.0 {
            last = (now, Instant::now());
        }
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "the client's writes neither stopped nor finished ({now} of {CALLS} written)"
        );
    }
    let stalled_at = last.0;
    let growth_kb = most_kb.saturating_sub(before_kb);
    eprintln!(
        "the client's writes stopped after {stalled_at} of {CALLS} calls, {:.1} s in; server RSS {} KiB before, grew by {} KiB at most",
        started.elapsed().as_secs_f64() - STALLED_FOR.as_secs_f64(),
        before_kb,
        growth_kb,
    );
    assert!(
        stalled_at < CALLS,
        "the server read all {CALLS} calls from a client that read no answer"
    );
    assert!(
        growth_kb < GROWTH_LIMIT_KB,
        "the server grew by {growth_kb} KiB while the client did not read"
    );

    // Now the client reads: every call is answered, once, with its own text.
    let mut stdout = server.stdout.take().expect("stdout");
    let mut answered = vec![false; CALLS];
    let mut line = String::new();
    for received in 0..CALLS {
        line.clear();
        stdout.read_line(&mut line).expect("read");
        assert!(
            line.ends_with('\n'),
            "stdout ended after {received} answers"
        );
        let response: Value = serde_json::from_str(&line)
            .unwrap_or_else(|error| panic!("answer {received} is not JSON ({error}): {line}"));
        let id = response["id"]
            .as_u64()
            .unwrap_or_else(|| panic!("not an answer to a call: {line}")) as usize;
        assert!(id < CALLS, "an id never sent: {line}");
        assert!(!answered[id], "id {id} answered twice");
        answered[id] = true;
        assert_eq!(
            response["result"]["content"][0]["text"],
            text(id),
            "answer {received}"
        );
    }
    let peak_kb = status_kb(pid, "VmHWM").expect("the server is running");
    let stdin = writer.join().expect("the writer does not panic");
    drop(stdin);
    line.clear();
    assert_eq!(
        stdout.read_line(&mut line).expect("read"),
        0,
        "nothing after the last answer: {line}"
    );
    server.assert_exited_cleanly(Duration::from_secs(30));
    eprintln!(
        "{CALLS} calls answered {:.1} s after the start; server peak RSS (VmHWM) {} KiB",
        started.elapsed().as_secs_f64(),
        peak_kb,
    );
    assert!(answered.iter().all(|answered| *answered));
    // The peak covers the moments between samples, and the reading that followed.
    assert!(
        peak_kb.saturating_sub(before_kb) < GROWTH_LIMIT_KB,
        "the server's peak RSS was {peak_kb} KiB, {before_kb} KiB before the calls"
    );
}

/// A call that keeps logging while the client reads nothing: past the limit on the output
/// waiting for the client, its notifications are dropped, not queued, so the server's
/// memory stays bounded by the limit and not by what the call sends; the call's answer is
/// never dropped, and the server answers the next request.
#[test]
fn notifications_past_the_backlog_are_dropped_and_the_answer_kept() {
    /// About 130 bytes each: some 40 MB unbounded, ten times the default limit.
    const MESSAGES: u64 = 300_000;
    // A debug build takes longer than the fixture's 5 s call timeout to send them all.
    let mut server = ServerProcess::spawn(
        env!("CARGO_BIN_EXE_fixture"),
        &["--call-timeout-ms", "120000"],
    );
    server.handshake(REVISION);
    let pid = server.pid();
    let before_kb = status_kb(pid, "VmRSS").expect("the server is running");
    server.send(
        &json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
        "name": "chatty", "arguments": {"messages": MESSAGES}}}),
    );

    // The client reads nothing until the server's memory has stopped moving.
    let started = Instant::now();
    let mut last = (before_kb, Instant::now());
    let mut most_kb = before_kb;
    while last.1.elapsed() < Duration::from_secs(1) {
        std::thread::sleep(Duration::from_millis(50));
        let now = status_kb(pid, "VmRSS").expect("the server is running");
        most_kb = most_kb.max(now);
        if now != last.0 {
            last = (now, Instant::now());
        }
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "RSS never settled"
        );
    }
    let growth_kb = most_kb.saturating_sub(before_kb);
    eprintln!(
        "a call's {MESSAGES} log messages to a client that did not read: server grew by {growth_kb} KiB"
    );
    assert!(
        growth_kb < GROWTH_LIMIT_KB,
        "the server grew by {growth_kb} KiB while the client did not read"
    );

    // The client reads: the first log messages, then the answer.
    let mut logged = 0;
    let answer = loop {
        let message = server.receive();
        if message["method"] == "notifications/message" {
            logged += 1;
            continue;
        }
        if message.get("id").is_some() {
            break message;
        }
    };
    assert_eq!(
        answer["result"]["content"][0]["text"],
        format!("{MESSAGES} messages"),
        "{answer}"
    );
    assert!(logged > 0, "the first log messages are kept");
    assert!(logged < MESSAGES, "{logged} log messages, none dropped");
    server.send(&json!({"jsonrpc": "2.0", "id": 2, "method": "ping"}));
    let pong = loop {
        let message = server.receive();
        if message.get("id").is_some() {
            break message;
        }
    };
    assert_eq!(pong, json!({"jsonrpc": "2.0", "id": 2, "result": {}}));
}
