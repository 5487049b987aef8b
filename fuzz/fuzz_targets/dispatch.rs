//! The message decoder and dispatcher: arbitrary bytes in, as a client would write them to
//! the server's stdin. Whatever comes in, the server must not panic, must write only
//! well-formed JSON-RPC 2.0 messages, must answer every request on a line of its own
//! (unless the input cancelled it), and must answer no id more often than it was sent.
//!
//! The tools below cover each way a call can go: plain and blocking, structured output,
//! progress and logs, errors and panics, timeouts, concurrency and rate limits, and a
//! request to the client (elicitation).

#![no_main]

mod harness;

use std::time::Duration;

use libfuzzer_sys::fuzz_target;
use mcp_runtime::{Context, Json, LogLevel, Rate, ToolError, mcp_tool};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Says the text back.
#[mcp_tool(read_only, idempotent)]
async fn echo(
    /// What to say.
    text: String,
) -> String {
    text
}

/// Adds two integers on a blocking thread.
#[mcp_tool]
fn add(a: i64, b: i64) -> Result<i64, String> {
    a.checked_add(b)
        .ok_or_else(|| "the sum overflows".to_owned())
}

/// Summary statistics.
#[derive(Serialize, JsonSchema)]
struct Stats {
    count: usize,
    mean: Option<f64>,
}

/// Summarises numbers (structured output).
#[mcp_tool]
async fn stats(values: Vec<f64>) -> Json<Stats> {
    let count = values.len();
    let mean = (count > 0).then(|| values.iter().sum::<f64>() / count as f64);
    Json(Stats { count, mean })
}

/// Sleeps, reporting progress and logging as it goes.
#[mcp_tool(timeout = "1s", max_concurrency = 2)]
async fn slow(
    /// How long to sleep, in milliseconds.
    ms: u16,
    ctx: Context,
) -> u16 {
    ctx.log(LogLevel::Info, "starting");
    ctx.progress(0.0, Some(2.0), Some("half way"));
    tokio::time::sleep(Duration::from_millis(u64::from(ms) / 2)).await;
    ctx.progress(1.0, Some(2.0), None);
    tokio::time::sleep(Duration::from_millis(u64::from(ms) / 2)).await;
    ms
}

/// Fails: with a public message, a private one, or a panic.
#[mcp_tool]
async fn fail(how: String) -> Result<String, String> {
    match how.as_str() {
        "public" => std::panic::panic_any(ToolError::new("told to fail")),
        "panic" => panic!("told to panic"),
        _ => Err(format!("told to fail {how}")),
    }
}

/// Never returns: the call timeout stops it.
#[mcp_tool]
async fn hang() {
    std::future::pending::<()>().await;
}

#[derive(Deserialize, JsonSchema)]
struct Name {
    /// A name.
    name: String,
}

/// Asks the user for a name (elicitation).
#[mcp_tool]
async fn ask(ctx: Context) -> Result<String, String> {
    match ctx.elicit::<Name>("Name?").await {
        Ok(answer) => Ok(answer
            .accepted()
            .map_or_else(|| "no name".to_owned(), |Name { name }| name)),
        Err(error) => Err(format!("could not ask: {error}")),
    }
}

/// Two calls a minute.
#[mcp_tool(rate = "2/min")]
async fn rationed() -> &'static str {
    "granted"
}

/// Whether a panic is one `fail` was told to raise: the runtime catches those and answers
/// with an `isError` result. Any other panic is a bug, and libFuzzer's hook reports it.
fn expected_panic(info: &std::panic::PanicHookInfo<'_>) -> bool {
    let payload = info.payload();
    payload.is::<ToolError>() || payload.downcast_ref::<&str>() == Some(&"told to panic")
}

fuzz_target!(|input: &[u8]| {
    static HOOK: std::sync::Once = std::sync::Once::new();
    HOOK.call_once(|| {
        let report = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !expected_panic(info) {
                report(info);
            }
        }));
    });
    let server = harness::server().rate_limit(Rate::per_second(20));
    let messages = harness::serve(server, input);
    let sent = harness::ids_sent(input);
    let answered = harness::answers_by_id(&messages);
    for (id, answers) in &answered {
        let times_sent = sent.get(id).copied().unwrap_or(0);
        assert!(
            *answers <= times_sent,
            "id {id} answered {answers} times, sent {times_sent} times"
        );
    }
    for id in harness::ids_owed(input) {
        assert!(
            answered.contains_key(&id),
            "request {id} was never answered"
        );
    }
});
