//! A server whose tools run as tasks, for the end-to-end tests (`tests/tests/tasks.rs`) and
//! the real clients' checks (`interop/`).
//!
//! `tasks [--ttl-ms N] [--max-tasks N] [--grace-ms N] [--max-message-size N]`, over stdio;
//! with `--http ADDR`, over Streamable HTTP at `http://ADDR/mcp` (`--redis URL` too: one
//! instance of a fleet sharing that Redis).

use std::time::Duration;

use mcp_runtime::{Context, Json, LogLevel, Server, ToolError, mcp_tool};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The quarterly report.
#[derive(Serialize, JsonSchema)]
struct Report {
    quarter: String,
    revenue: u64,
}

/// Build the quarterly report: `steps` steps of `step_ms` each, with progress and a log
/// line per step.
#[mcp_tool(task = "optional")]
async fn report(
    quarter: String,
    #[mcp(default = 3)] steps: u32,
    #[mcp(default = 50)] step_ms: u64,
    ctx: Context,
) -> Result<Json<Report>, ToolError> {
    for step in 1..=steps {
        tokio::select! {
            () = tokio::time::sleep(Duration::from_millis(step_ms)) => {}
            () = ctx.cancelled() => return Err(ToolError::new("cancelled")),
        }
        ctx.progress(f64::from(step), Some(f64::from(steps)), Some("building"));
        ctx.log(LogLevel::Info, format!("step {step} of {steps}"));
    }
    Ok(Json(Report {
        quarter,
        revenue: 1_000_000,
    }))
}

/// Sleep for `ms` milliseconds; only ever as a task. (A cancel drops the future, as it does
/// a cancelled call's.)
#[mcp_tool(task = "required")]
async fn build(ms: u64) -> String {
    tokio::time::sleep(Duration::from_millis(ms)).await;
    format!("built in {ms} ms")
}

/// Work `ms` milliseconds in ten steps, each reported with a message: a client polling
/// the task sees the latest as its status message.
#[mcp_tool(task = "optional")]
async fn steps(ms: u64, ctx: Context) -> String {
    for step in 1..=10 {
        let message = format!("step {step} of 10");
        ctx.progress(f64::from(step), Some(10.0), Some(&message));
        tokio::time::sleep(Duration::from_millis(ms / 10)).await;
    }
    "done in ten steps".to_owned()
}

/// What the user confirms.
#[derive(Deserialize, JsonSchema)]
struct Confirmation {
    /// Whether to go ahead.
    confirm: bool,
}

/// Ask the user to confirm, then answer with what they said.
#[mcp_tool(task = "optional")]
async fn confirm(action: String, ctx: Context) -> Result<String, ToolError> {
    let answer = ctx
        .elicit::<Confirmation>(format!("Go ahead with {action}?"))
        .await
        .map_err(|error| ToolError::new(format!("no answer: {error}")))?;
    Ok(match answer.accepted() {
        Some(Confirmation { confirm: true }) => format!("{action}: confirmed"),
        Some(Confirmation { confirm: false }) => format!("{action}: not confirmed"),
        None => format!("{action}: declined"),
    })
}

/// Fail as a tool does: an `isError` result.
#[mcp_tool(task = "optional")]
async fn fails() -> Result<String, ToolError> {
    Err(ToolError::new("the report source is offline"))
}

/// Answer with `bytes` bytes of text.
#[mcp_tool(task = "optional")]
async fn large(bytes: usize) -> String {
    "x".repeat(bytes)
}

/// Panic, which a 2026-07-28 task reports as `failed` with an internal error.
#[mcp_tool(task = "optional")]
async fn panics() -> String {
    panic!("the fixture panics on purpose")
}

/// Who greets.
#[derive(Deserialize, JsonSchema)]
struct Name {
    name: String,
}

/// Ask a name before becoming a task, work `ms` milliseconds, then ask to confirm from
/// inside the task.
#[mcp_tool(task = "required", input_before_task)]
async fn greet_later(ms: u64, ctx: Context) -> Result<String, ToolError> {
    let Some(Name { name }) = ctx.keyed("name").elicit("Who is it?").await?.accepted() else {
        return Err(ToolError::new("no name"));
    };
    tokio::time::sleep(Duration::from_millis(ms)).await;
    let confirmed = ctx
        .keyed("confirm")
        .elicit::<Confirmation>(format!("Greet {name}?"))
        .await?;
    Ok(match confirmed.accepted() {
        Some(Confirmation { confirm: true }) => format!("Hello, {name}!"),
        _ => format!("{name} was not greeted"),
    })
}

/// Echo the text: never a task.
#[mcp_tool]
async fn echo(text: String) -> String {
    text
}

fn flag(args: &[String], name: &str) -> Option<u64> {
    let at = args.iter().position(|arg| arg == name)?;
    args.get(at + 1)?.parse().ok()
}

#[tokio::main]
async fn main() -> Result<(), mcp_runtime::Error> {
    let args: Vec<String> = std::env::args().collect();
    let mut server = Server::new("tasks", "1.0.0").task_poll_interval(Duration::from_millis(100));
    if let Some(ttl) = flag(&args, "--ttl-ms") {
        server = server.max_task_ttl(Duration::from_millis(ttl));
    }
    if let Some(tasks) = flag(&args, "--max-tasks") {
        server = server.max_tasks_per_client(usize::try_from(tasks).unwrap_or(usize::MAX));
    }
    if let Some(grace) = flag(&args, "--grace-ms") {
        server = server.shutdown_grace(Duration::from_millis(grace));
    }
    if let Some(size) = flag(&args, "--max-message-size") {
        server = server.max_message_size(usize::try_from(size).unwrap_or(usize::MAX));
    }
    match args.iter().position(|arg| arg == "--http") {
        Some(at) => {
            let address = args.get(at + 1).expect("--http takes an address");
            let mut http = server.http();
            // A fleet: instances sharing sessions, streams and tasks through Redis.
            if let Some(at) = args.iter().position(|arg| arg == "--redis") {
                http = http.redis(args.get(at + 1).expect("--redis takes a URL"));
            }
            http.serve(address.as_str()).await
        }
        None => server.serve_stdio().await,
    }
}
