//! Load: 100,000 `tools/call`s with 1,000 in flight against the fixture server
//! over stdio, from a client that writes and reads on separate threads. Every request id is
//! answered exactly once, every line is one complete JSON-RPC response carrying exactly the
//! text its request sent (so no response is interleaved with or corrupted by another), and
//! the server's memory stays bounded (`VmRSS` sampled during the run, and `VmHWM`, the peak).
//!
//! It runs in the ordinary debug `cargo test`, with the full numbers: the debug server
//! answers 100,000 echo calls in well under a minute on the 2-core CI machine, even with
//! other builds sharing it, so neither a release build nor `#[ignore]` is needed.
//! `MCP_LOAD_CALLS` changes the number of calls.

use std::io::{BufRead, BufWriter, Write};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use mcp_tests::SpecSchema;
use mcp_tests::process::{MemorySampler, ServerProcess};
use serde_json::{Value, json};

const IN_FLIGHT: usize = 1_000;
/// A resource bound, not a timing one: far above what the server needs (about 10 MB).
const RSS_LIMIT_KB: u64 = 200 * 1024;
const REVISION: &str = "2025-11-25";

fn calls() -> usize {
    std::env::var("MCP_LOAD_CALLS")
        .ok()
        .map_or(100_000, |calls| {
            calls.parse().expect("MCP_LOAD_CALLS is a number")
        })
}

#[test]
fn a_hundred_thousand_calls_with_a_thousand_in_flight() {
    let total = calls();
    let mut server = ServerProcess::spawn(env!("CARGO_BIN_EXE_fixture"), &[]);
    server.handshake(REVISION);
    let sampler = MemorySampler::start(server.pid(), Duration::from_millis(100));
    let started = Instant::now();

    // The writer may have IN_FLIGHT requests unanswered; the reader hands back a credit per
    // response.
    let (credits, credit) = mpsc::channel::<()>();
    let mut stdin = server.stdin.take().expect("stdin");
    let writer = std::thread::spawn(move || {
        let mut out = BufWriter::with_capacity(64 * 1024, &mut stdin);
        for id in 0..total {
            if id >= IN_FLIGHT && credit.try_recv().is_err() {
                out.flush().expect("flush");
                credit.recv().expect("the reader is alive");
            }
            let request = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
                "params": {"name": "echo", "arguments": {"text": format!("call {id} says hello")}}});
            serde_json::to_writer(&mut out, &request).expect("write");
            out.write_all(b"\n").expect("write");
        }
        out.flush().expect("flush");
        drop(out);
        stdin // closed by the test once every response is in
    });

    let mut stdout = server.stdout.take().expect("stdout");
    let schema = SpecSchema::of(REVISION);
    let mut answered = vec![false; total];
    let mut line = String::new();
    for received in 0..total {
        line.clear();
        stdout.read_line(&mut line).expect("read");
        assert!(
            line.ends_with('\n'),
            "stdout ended after {received} responses"
        );
        let response: Value = serde_json::from_str(&line).unwrap_or_else(|error| {
            panic!("line {received} is not one JSON value ({error}): {line}")
        });
        if received % 1_000 == 0 {
            schema.assert_valid("JSONRPCMessage", &response);
        }
        let id = response["id"]
            .as_u64()
            .unwrap_or_else(|| panic!("not a response to a request: {line}"))
            as usize;
        assert!(id < total, "an id never sent: {line}");
        assert!(!answered[id], "id {id} answered twice");
        answered[id] = true;
        let expected = json!({"jsonrpc": "2.0", "id": id, "result": {
            "content": [{"type": "text", "text": format!("call {id} says hello")}]}});
        assert_eq!(response, expected, "response {received}");
        let _ = credits.send(());
    }
    let elapsed = started.elapsed();
    let peak_kb = mcp_tests::status_kb(server.pid(), "VmHWM").expect("the server is running");
    let stdin = writer.join().expect("the writer does not panic");
    drop(stdin);
    line.clear();
    assert_eq!(
        stdout.read_line(&mut line).expect("read"),
        0,
        "nothing after the last response: {line}"
    );
    server.assert_exited_cleanly(Duration::from_secs(60));
    let samples = sampler.finish();
    let most_kb = samples.iter().map(|(_, kb)| *kb).max().unwrap_or(0);
    eprintln!(
        "{total} calls, {IN_FLIGHT} in flight: {:.1} s ({:.0} calls/s); server RSS: {} MB at most in {} samples, peak (VmHWM) {} MB",
        elapsed.as_secs_f64(),
        total as f64 / elapsed.as_secs_f64(),
        most_kb / 1024,
        samples.len(),
        peak_kb / 1024,
    );
    assert!(answered.iter().all(|answered| *answered));
    assert!(most_kb < RSS_LIMIT_KB, "VmRSS reached {most_kb} kB");
    assert!(peak_kb < RSS_LIMIT_KB, "VmHWM reached {peak_kb} kB");
}
