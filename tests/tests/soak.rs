//! Soak, bounded: a steady mix of calls — fast, slow (async and plain `fn`),
//! cancelled, panicking, with progress, with log messages, handshake-era and 2026-07-28 —
//! against one fixture server for `MCP_SOAK_SECS` seconds (60 by default, the CI run;
//! `MCP_SOAK_SECS=3600 cargo test --release -p mcp-tests --test soak` soaks for an hour).
//!
//! Checked: every request is answered exactly once with what its tool does, cancelled ones
//! never; progress and log messages come only before their call's response; every message is
//! one valid JSON-RPC line; the server's resident memory after the warm-up (the first third)
//! stays within [`GROWTH_LIMIT_KB`] of the warm-up's peak, and under [`RSS_LIMIT_KB`]; the
//! server exits cleanly at the end.

use std::io::{BufRead, BufWriter, Write};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use mcp_tests::process::{MemorySampler, ServerProcess};
use mcp_tests::{SpecSchema, stateless_meta};
use serde_json::{Value, json};

const REVISION: &str = "2025-11-25";
const STATELESS: &str = "2026-07-28";
/// Calls outstanding at once (cancelled ones not counted).
const IN_FLIGHT: usize = 256;
/// A leak of 200 bytes a call would pass this within the CI run's 40 s after warm-up.
const GROWTH_LIMIT_KB: u64 = 32 * 1024;
const RSS_LIMIT_KB: u64 = 200 * 1024;

/// What each call is, by its id.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Echo,
    SlowAsync,
    SlowBlocking,
    Cancelled,
    Panics,
    PanicsBlocking,
    Progress,
    ProgressAndLogs,
    Stateless,
}

fn kind(id: u64) -> Kind {
    // Panics are rarer: each writes a report to stderr.
    if id % 500 == 250 {
        return Kind::Panics;
    }
    if id % 500 == 499 {
        return Kind::PanicsBlocking;
    }
    match id % 20 {
        12 => Kind::SlowAsync,
        13 => Kind::SlowBlocking,
        14 | 15 => Kind::Cancelled,
        16 | 17 => Kind::Progress,
        18 => Kind::ProgressAndLogs,
        19 => Kind::Stateless,
        _ => Kind::Echo,
    }
}

fn request(id: u64) -> Value {
    let (name, arguments, meta) = match kind(id) {
        Kind::Echo | Kind::Stateless => ("echo", json!({"text": format!("soak {id}")}), None),
        Kind::SlowAsync => ("sleep", json!({"ms": 20}), None),
        Kind::SlowBlocking => ("block", json!({"ms": 10}), None),
        Kind::Cancelled => ("wait_for_cancel", json!({}), None),
        Kind::Panics => ("panics", json!({}), None),
        Kind::PanicsBlocking => ("panics_blocking", json!({}), None),
        Kind::Progress => (
            "quick_progress",
            json!({"steps": 20}),
            Some(json!({"progressToken": id})),
        ),
        Kind::ProgressAndLogs => (
            "progress_and_logs",
            json!({"steps": 3}),
            Some(json!({"progressToken": id})),
        ),
    };
    let mut params = json!({"name": name, "arguments": arguments});
    if let Some(meta) = meta {
        params["_meta"] = meta;
    }
    if kind(id) == Kind::Stateless {
        params["_meta"] = stateless_meta();
    }
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params})
}

/// Checks a call's response against what its tool does.
fn check_response(id: u64, response: &Value) {
    let result = &response["result"];
    let text = result["content"][0]["text"].as_str().unwrap_or_default();
    match kind(id) {
        Kind::Echo | Kind::Stateless => assert_eq!(text, format!("soak {id}"), "{response}"),
        Kind::SlowAsync => assert_eq!(text, "slept 20 ms", "{response}"),
        Kind::SlowBlocking => assert_eq!(text, "blocked 10 ms", "{response}"),
        Kind::Cancelled => panic!("a cancelled call was answered: {response}"),
        Kind::Panics => assert_eq!(text, "Tool `panics` failed: it panicked.", "{response}"),
        Kind::PanicsBlocking => assert_eq!(
            text, "Tool `panics_blocking` failed: it panicked.",
            "{response}"
        ),
        Kind::Progress => assert_eq!(text, "20 quick steps", "{response}"),
        Kind::ProgressAndLogs => assert_eq!(text, "3 steps", "{response}"),
    }
    if kind(id) == Kind::Stateless {
        assert_eq!(result["resultType"], "complete", "{response}");
    }
}

fn soak_duration() -> Duration {
    let seconds = std::env::var("MCP_SOAK_SECS").ok().map_or(60, |seconds| {
        seconds
            .parse()
            .expect("MCP_SOAK_SECS is a number of seconds")
    });
    Duration::from_secs(seconds)
}

#[test]
fn soak() {
    let duration = soak_duration();
    let mut server = ServerProcess::spawn_quiet(env!("CARGO_BIN_EXE_fixture"), &[]);
    server.handshake(REVISION);
    server.send(&json!({"jsonrpc": "2.0", "id": "level", "method": "logging/setLevel", "params": {"level": "debug"}}));
    assert_eq!(server.receive()["result"], json!({}));
    let sampler = MemorySampler::start(server.pid(), Duration::from_millis(200));
    let started = Instant::now();

    let (credits, credit) = mpsc::channel::<()>();
    let mut stdin = server.stdin.take().expect("stdin");
    let writer = std::thread::spawn(move || {
        let mut out = BufWriter::new(&mut stdin);
        let mut outstanding = 0;
        let mut id = 0;
        while started.elapsed() < duration {
            while outstanding >= IN_FLIGHT || (outstanding > 0 && credit.try_recv().is_ok()) {
                if outstanding >= IN_FLIGHT {
                    out.flush().expect("flush");
                    credit.recv().expect("the reader is alive");
                }
                outstanding -= 1;
            }
            serde_json::to_writer(&mut out, &request(id)).expect("write");
            out.write_all(b"\n").expect("write");
            if kind(id) == Kind::Cancelled {
                // Cancelled at once or after a few more calls, so some are still waiting
                // for their slot and some already running when the cancellation comes.
                serde_json::to_writer(
                    &mut out,
                    &json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
                    "params": {"requestId": id, "reason": "soak"}}),
                )
                .expect("write");
                out.write_all(b"\n").expect("write");
            } else {
                outstanding += 1;
            }
            id += 1;
        }
        out.flush().expect("flush");
        // Every answer in: then end the input.
        for _ in 0..outstanding {
            credit.recv().expect("the reader is alive");
        }
        drop(out);
        drop(stdin);
        id
    });

    let handshake = SpecSchema::of(REVISION);
    let stateless = SpecSchema::of(STATELESS);
    let mut stdout = server.stdout.take().expect("stdout");
    let mut answered: Vec<bool> = Vec::new();
    let (mut responses, mut notifications) = (0_u64, 0_u64);
    let mut line = String::new();
    loop {
        line.clear();
        if stdout.read_line(&mut line).expect("read") == 0 {
            break;
        }
        let message: Value = serde_json::from_str(&line)
            .unwrap_or_else(|error| panic!("not one JSON value ({error}): {line}"));
        if let Some(method) = message.get("method").and_then(Value::as_str) {
            handshake.assert_valid("JSONRPCNotification", &message);
            let token = match method {
                "notifications/progress" => message["params"]["progressToken"].as_u64(),
                "notifications/message" => None,
                other => panic!("unexpected notification {other}: {message}"),
            };
            if let Some(token) = token {
                assert!(
                    matches!(kind(token), Kind::Progress | Kind::ProgressAndLogs),
                    "{message}"
                );
                assert!(
                    !answered.get(token as usize).copied().unwrap_or(false),
                    "progress after the response: {message}"
                );
            }
            notifications += 1;
            continue;
        }
        let id = message["id"]
            .as_u64()
            .unwrap_or_else(|| panic!("{message}"));
        if kind(id) == Kind::Stateless {
            stateless.assert_valid("JSONRPCMessage", &message);
        } else if kind(id) != Kind::Echo || id.is_multiple_of(100) {
            handshake.assert_valid("JSONRPCMessage", &message);
        }
        check_response(id, &message);
        let index = id as usize;
        if answered.len() <= index {
            answered.resize(index + 1, false);
        }
        assert!(!answered[index], "id {id} answered twice");
        answered[index] = true;
        responses += 1;
        let _ = credits.send(());
    }
    let sent = writer.join().expect("the writer does not panic");
    server.assert_exited_cleanly(Duration::from_secs(60));
    let samples = sampler.finish();

    answered.resize(sent as usize, false);
    for (id, answered) in answered.iter().enumerate() {
        assert_eq!(
            *answered,
            kind(id as u64) != Kind::Cancelled,
            "call {id} ({:?})",
            kind(id as u64)
        );
    }
    let warm_up = duration / 3;
    let peak = |during: &mut dyn Iterator<Item = &(Duration, u64)>| {
        during.map(|(_, kb)| *kb).max().unwrap_or(0)
    };
    let warm_peak = peak(&mut samples.iter().filter(|(at, _)| *at < warm_up));
    let later_peak = peak(&mut samples.iter().filter(|(at, _)| *at >= warm_up));
    eprintln!(
        "soak: {:.0} s, {sent} calls sent, {responses} responses, {notifications} notifications; \
         server RSS peak {} MB in the warm-up, {} MB after ({} samples)",
        started.elapsed().as_secs_f64(),
        warm_peak / 1024,
        later_peak / 1024,
        samples.len()
    );
    assert!(
        later_peak <= warm_peak + GROWTH_LIMIT_KB,
        "RSS grew from {warm_peak} kB to {later_peak} kB after the warm-up"
    );
    assert!(later_peak < RSS_LIMIT_KB, "RSS reached {later_peak} kB");
}
