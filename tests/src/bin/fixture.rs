//! A server exercising every tool shape the runtime supports, for the end-to-end tests.
//! `fixture [--page-size N] [--client-request-timeout-ms N] [--mask-errors] [--forward-tracing]
//! [--call-timeout-ms N] [--shutdown-grace-ms N] [--rate-limit RATE] [--rate-limit-wait]
//! [--http ADDR [--sse-polling-ms N]]`: over stdio, or over Streamable HTTP on `ADDR` (e.g.
//! `127.0.0.1:8080`, endpoint `/mcp`), optionally closing call streams of 2025-11-25 sessions
//! after N ms (SSE polling; clients resume them).

use std::collections::HashMap;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

use mcp_runtime::{
    Annotations, CallToolResult, Content, Context, DynamicTool, Elicitation, Json, LogLevel, Rate,
    RateLimitMode, ResourceLink, Role, SamplingRequest, Server, State, mcp_tool,
};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Echo the text back.
#[mcp_tool(read_only, idempotent, open_world = false, title = "Echo")]
async fn echo(
    /// What to echo.
    text: String,
) -> String {
    text
}

/// Takes no arguments.
#[mcp_tool(destructive = false)]
async fn no_arguments() -> &'static str {
    "nothing needed"
}

/// Sleep, then say how long.
#[mcp_tool]
async fn sleep(
    /// Milliseconds to sleep.
    ms: u64,
) -> String {
    tokio::time::sleep(Duration::from_millis(ms)).await;
    format!("slept {ms} ms")
}

/// Block the thread (a plain fn: runs on a thread of its own).
#[mcp_tool]
fn block(
    /// Milliseconds to block.
    ms: u64,
) -> String {
    std::thread::sleep(Duration::from_millis(ms));
    format!("blocked {ms} ms")
}

/// Always panics.
#[mcp_tool]
async fn panics() -> String {
    panic!("secret internal detail")
}

/// Always panics, synchronously.
#[mcp_tool]
fn panics_blocking() -> String {
    panic!("secret internal detail")
}

/// A colour.
#[derive(Deserialize, Serialize, JsonSchema, Debug)]
#[serde(rename_all = "lowercase")]
enum Colour {
    Red,
    Green,
    Blue,
}

/// A point in the plane.
#[derive(Deserialize, Serialize, JsonSchema, Debug)]
struct Point {
    /// Horizontal.
    x: f64,
    /// Vertical.
    y: f64,
    /// Optional label.
    label: Option<String>,
}

/// Accepts rich argument types.
#[mcp_tool]
async fn rich(
    /// A small number.
    small: u8,
    /// A colour.
    colour: Colour,
    /// Points.
    points: Vec<Point>,
    /// Named counts.
    counts: HashMap<String, u32>,
    /// Optional note.
    note: Option<String>,
) -> Json<serde_json::Value> {
    Json(serde_json::json!({
        "small": small,
        "colour": colour,
        "points": points.len(),
        "counts": counts.len(),
        "note": note,
    }))
}

/// Returns a list (wrapped as {"result": [...]}).
#[mcp_tool]
async fn list_output(
    /// How many.
    n: u32,
) -> Json<Vec<u32>> {
    Json((0..n).collect())
}

/// Returns one block of every content type, with annotations.
#[mcp_tool]
async fn every_content() -> Vec<Content> {
    vec![
        Content::text("plain text").with_audience([Role::User, Role::Assistant]),
        Content::image([0x89, b'P', b'N', b'G'], "image/png").with_priority(0.5),
        Content::audio([1, 2, 3], "audio/wav"),
        Content::resource_link(ResourceLink::new("file:///a.txt", "a.txt")),
        Content::embedded_text("file:///b.txt", "bee", Some("text/plain")).with_annotations(
            Annotations {
                last_modified: Some("2025-01-01T00:00:00Z".into()),
                ..Annotations::default()
            },
        ),
        Content::embedded_blob("file:///c.bin", [0, 1], None),
    ]
}

/// Fails with a tool error.
#[mcp_tool]
async fn fails(
    /// The message.
    message: String,
) -> Result<String, String> {
    Err(message)
}

/// Returns a hand-built result.
#[mcp_tool]
async fn custom_result() -> CallToolResult {
    CallToolResult::success([Content::text("custom")])
}

/// Prints to stdout, which must not reach the protocol stream.
#[mcp_tool]
fn prints() -> &'static str {
    println!("{{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{{}}}} <- a fake response");
    print!("and a line without its end");
    "printed"
}

/// Reports progress `steps` times in a tight loop and returns at once.
#[mcp_tool]
async fn quick_progress(
    /// How many progress reports.
    steps: u32,
    ctx: Context,
) -> String {
    for step in 1..=steps {
        ctx.progress(f64::from(step), Some(f64::from(steps)), None);
    }
    format!("{steps} quick steps")
}

/// Sends `messages` log messages, letting other work run between them, and returns.
#[mcp_tool]
async fn chatty(
    /// How many log messages.
    messages: u32,
    ctx: Context,
) -> String {
    for message in 1..=messages {
        ctx.log(LogLevel::Info, serde_json::json!({"message": message}));
        if message % 100 == 0 {
            tokio::task::yield_now().await;
        }
    }
    format!("{messages} messages")
}

/// Emits `tracing` events (forwarded to the client with `--forward-tracing`).
#[mcp_tool]
async fn traces(ctx: Context) -> &'static str {
    tracing::info!(rows = 3, table = "users", "scanned the table");
    tracing::debug!("a detail");
    // The tool's own context is untouched by forwarding.
    ctx.log(LogLevel::Info, "from ctx.log");
    "traced"
}

/// Emits a `tracing` event from a plain `fn` (on its own thread).
#[mcp_tool]
fn traces_blocking() -> &'static str {
    tracing::warn!(attempt = 2, "retrying");
    "traced"
}

/// Fails with an internal error (e.g. from a database driver).
#[mcp_tool]
async fn fails_privately() -> Result<String, std::io::Error> {
    Err(std::io::Error::other("connection to 10.0.0.7:5432 refused"))
}

/// Fails with an error meant for the client.
#[mcp_tool]
async fn fails_publicly() -> Result<String, mcp_runtime::ToolError> {
    Err(mcp_runtime::ToolError::new("the quota is used up"))
}

/// Panics with an error meant for the client.
#[mcp_tool]
async fn panics_publicly() -> String {
    std::panic::panic_any(mcp_runtime::ToolError::new("the disk is full"))
}

/// Reports progress `steps` times in a tight loop, then logs at every level.
#[mcp_tool]
async fn progress_and_logs(
    /// How many progress reports.
    steps: u32,
    ctx: Context,
) -> String {
    for step in 1..=steps {
        ctx.progress(f64::from(step), Some(f64::from(steps)), Some("working"));
        if step % 1000 == 0 {
            tokio::task::yield_now().await;
        }
    }
    // Not increasing: dropped.
    ctx.progress(0.0, None, None);
    tokio::time::sleep(Duration::from_millis(120)).await;
    ctx.progress(f64::from(steps) + 1.0, None, Some("last"));
    for level in [
        LogLevel::Debug,
        LogLevel::Info,
        LogLevel::Warning,
        LogLevel::Error,
    ] {
        ctx.log(level, serde_json::json!({"level": format!("{level:?}")}));
    }
    format!("{steps} steps")
}

/// Waits until cancelled, then records that it saw the cancellation.
#[mcp_tool]
async fn wait_for_cancel(ctx: Context, seen: State<CancellationsSeen>) -> &'static str {
    let guard = RecordOnDrop(seen.clone());
    ctx.cancelled().await;
    drop(guard);
    "cancelled"
}

/// Counts cancellations the tools observed.
#[derive(Default)]
struct CancellationsSeen(AtomicU32);

struct RecordOnDrop(State<CancellationsSeen>);

impl Drop for RecordOnDrop {
    fn drop(&mut self) {
        self.0.0.fetch_add(1, Ordering::SeqCst);
    }
}

/// How many cancellations the tools observed so far.
#[mcp_tool]
async fn cancellations_seen(seen: State<CancellationsSeen>) -> u32 {
    seen.0.load(Ordering::SeqCst)
}

/// Sleeps past the server's call timeout unless told otherwise.
#[mcp_tool]
async fn overrun(ctx: Context) -> &'static str {
    tokio::select! {
        () = tokio::time::sleep(Duration::from_secs(30)) => "finished",
        () = ctx.cancelled() => "cancelled",
    }
}

/// An order with constraints that schemars attributes declare.
#[derive(Deserialize, JsonSchema)]
struct Order {
    #[schemars(range(min = 1, max = 10))]
    quantity: u32,
    #[schemars(length(min = 1, max = 5))]
    code: String,
    #[schemars(regex(pattern = r"^[a-z]+$"))]
    tag: String,
}

/// Accepts an order only within its declared constraints.
#[mcp_tool]
async fn constrained(
    /// The order.
    order: Order,
) -> String {
    format!("{} x {} ({})", order.quantity, order.code, order.tag)
}

static RUNNING_SINGLES: AtomicU32 = AtomicU32::new(0);
static MOST_SINGLES_AT_ONCE: AtomicU32 = AtomicU32::new(0);

/// Never runs twice at once; returns the most calls ever seen running together.
#[mcp_tool(max_concurrency = 1)]
async fn single_file(
    /// Milliseconds to hold the slot.
    ms: u64,
) -> u32 {
    let running = RUNNING_SINGLES.fetch_add(1, Ordering::SeqCst) + 1;
    MOST_SINGLES_AT_ONCE.fetch_max(running, Ordering::SeqCst);
    tokio::time::sleep(Duration::from_millis(ms)).await;
    RUNNING_SINGLES.fetch_sub(1, Ordering::SeqCst);
    MOST_SINGLES_AT_ONCE.load(Ordering::SeqCst)
}

/// Its own timeout, shorter than the server's.
#[mcp_tool(timeout = "200ms")]
async fn short_fuse() -> &'static str {
    tokio::time::sleep(Duration::from_secs(10)).await;
    "too late"
}

/// Returns nothing.
#[mcp_tool]
async fn unit() {}

/// Three calls an hour: a burst gets three through and the rest refused, however slow the
/// machine.
#[mcp_tool(rate = "3/h")]
async fn rationed() -> &'static str {
    "granted"
}

/// Numbers of three types, for out-of-range arguments.
#[mcp_tool]
async fn numbers(
    /// 0 to 255.
    small: u8,
    /// A signed 64-bit count.
    count: i64,
    /// Any finite number.
    ratio: f64,
) -> String {
    format!("{small} {count} {ratio}")
}

/// Where a ticket stands. Its variants carry doc comments, so schemars describes it as a
/// `oneOf` of `const`s rather than an `enum`.
#[derive(Deserialize, Serialize, JsonSchema, Debug)]
#[serde(rename_all = "lowercase")]
enum Status {
    /// Still to do.
    Open,
    /// Finished.
    Done,
}

/// Integers of the widths schemars leaves unbounded, and an enum with documented variants:
/// their out-of-range arguments.
#[mcp_tool]
async fn widths(
    /// Where the ticket stands.
    status: Status,
    /// A 32-bit signed integer.
    int: i32,
    /// A 16-bit unsigned integer.
    short: u16,
    /// A 32-bit unsigned integer.
    wide: u32,
    /// A 64-bit unsigned integer.
    long: u64,
) -> String {
    format!("{status:?} {int} {short} {wide} {long}")
}

/// Never returns and ignores cancellation (only dropping its future stops it).
#[mcp_tool]
async fn hang() -> &'static str {
    std::future::pending::<()>().await;
    "unreachable"
}

/// Never returns: a plain `fn` whose thread cannot be stopped.
#[mcp_tool]
fn hang_blocking() -> &'static str {
    loop {
        std::thread::park();
    }
}

/// Plain-`fn` hogs that have noticed their cancellation and stopped allocating.
static HOGS_STOPPED: AtomicU32 = AtomicU32::new(0);

/// Allocates (and touches) memory without bound until its 300 ms timeout drops it.
#[mcp_tool(timeout = "300ms")]
async fn hog() -> String {
    let mut hoard: Vec<Vec<u8>> = Vec::new();
    loop {
        hoard.push(vec![1; 64 * 1024]);
        tokio::time::sleep(Duration::from_millis(1)).await;
    }
}

/// Allocates without bound on a blocking thread until it sees its 300 ms timeout.
#[mcp_tool(timeout = "300ms")]
fn hog_blocking(ctx: Context) -> String {
    let mut hoard: Vec<Vec<u8>> = Vec::new();
    while !ctx.is_cancelled() {
        hoard.push(vec![1; 64 * 1024]);
        std::thread::sleep(Duration::from_millis(1));
    }
    HOGS_STOPPED.fetch_add(1, Ordering::SeqCst);
    format!("stopped after {} chunks", hoard.len())
}

/// How many plain-`fn` hogs have stopped.
#[mcp_tool]
async fn hogs_stopped() -> u32 {
    HOGS_STOPPED.load(Ordering::SeqCst)
}

/// Contact details asked of the user.
#[derive(Debug, Deserialize, JsonSchema)]
struct Contact {
    /// Your name.
    name: String,
    /// Your age in years.
    age: Option<u8>,
    /// Your favourite colour.
    colour: Colour,
}

/// Ask the user who they are (elicitation).
#[mcp_tool]
async fn ask_contact(ctx: Context) -> Result<String, String> {
    let answer = ctx
        .elicit::<Contact>("Who are you?")
        .await
        .map_err(|error| format!("Could not ask: {error}."))?;
    Ok(match answer {
        Elicitation::Accepted(contact) => format!(
            "hello {}, {} years, likes {:?}",
            contact.name,
            contact
                .age
                .map_or_else(|| "?".to_owned(), |age| age.to_string()),
            contact.colour
        ),
        Elicitation::Declined => "declined".to_owned(),
        Elicitation::Cancelled => "cancelled".to_owned(),
    })
}

#[derive(Deserialize, JsonSchema)]
struct Name {
    /// A name.
    name: String,
}

#[derive(Deserialize, JsonSchema)]
struct Confirmation {
    /// Whether to go ahead.
    confirm: bool,
}

/// Ask two questions in a row: a name, then a confirmation.
#[mcp_tool]
async fn ask_twice(ctx: Context) -> Result<String, String> {
    let asked = |error: mcp_runtime::ClientRequestError| format!("Could not ask: {error}.");
    // The first under a key of its own (2026-07-28 names it `name`), the second under the
    // runtime's (`input-0`).
    let name = ctx.keyed("name").elicit::<Name>("Name?").await;
    let Some(Name { name }) = name.map_err(asked)?.accepted() else {
        return Ok("no name".to_owned());
    };
    let confirmation = ctx
        .elicit::<Confirmation>(format!("Go ahead with {name}?"))
        .await
        .map_err(asked)?;
    Ok(match confirmation.accepted() {
        Some(Confirmation { confirm: true }) => format!("going ahead with {name}"),
        _ => format!("stopped before {name}"),
    })
}

/// Ask the client's model for a haiku (sampling).
#[mcp_tool]
async fn haiku(
    /// What the haiku is about.
    topic: String,
    ctx: Context,
) -> Result<String, String> {
    let request = SamplingRequest::new(60)
        .system_prompt("You write haiku.")
        .user(format!("A haiku about {topic}."));
    let response = ctx
        .sample(request)
        .await
        .map_err(|error| format!("Could not sample: {error}."))?;
    Ok(format!(
        "{} (by {})",
        response.text().unwrap_or("(not text)"),
        response.model
    ))
}

/// Name the client's roots.
#[mcp_tool]
async fn client_roots(ctx: Context) -> Result<String, String> {
    let roots = ctx
        .list_roots()
        .await
        .map_err(|error| format!("Could not list roots: {error}."))?;
    Ok(roots
        .iter()
        .map(|root| root.name.clone().unwrap_or_else(|| root.uri.clone()))
        .collect::<Vec<_>>()
        .join(", "))
}

/// How results are ordered.
#[derive(Deserialize, Serialize, JsonSchema, Debug, Default)]
#[serde(rename_all = "lowercase")]
enum SortOrder {
    #[default]
    Relevance,
    Newest,
}

const DEFAULT_LIMIT: u32 = 10;

/// Search, with defaults for everything but the query.
///
/// # Arguments
///
/// * `query` - What to look for.
/// * `limit` - How many results at most.
/// * `order`: How to order them.
#[mcp_tool(read_only, tags = ["search", "catalog"])]
async fn search(
    query: String,
    #[mcp(default = DEFAULT_LIMIT)] limit: u32,
    #[mcp(default)] order: SortOrder,
    /// Words to leave out.
    #[mcp(default = vec!["the".to_owned()])]
    stop_words: Vec<String>,
) -> Json<serde_json::Value> {
    Json(serde_json::json!({
        "query": query,
        "limit": limit,
        "order": order,
        "stop_words": stop_words,
    }))
}

/// Dates, times and UUIDs: their schemas and their decoding.
#[mcp_tool]
async fn schedule(
    /// When, in RFC 3339.
    at: chrono::DateTime<chrono::Utc>,
    /// The day.
    day: chrono::NaiveDate,
    /// The request.
    id: uuid::Uuid,
) -> Json<serde_json::Value> {
    Json(serde_json::json!({
        "at": at.timestamp(),
        "day": day.to_string(),
        "id": id.hyphenated().to_string(),
    }))
}

/// The fixture server, as `main` serves it (in-process tests build it too).
pub(crate) fn server() -> Server {
    Server::new("fixture", "1.0.0")
        .title("Fixture")
        .state(CancellationsSeen::default())
        .call_timeout(Duration::from_secs(5))
}

#[tokio::main]
async fn main() -> Result<(), mcp_runtime::Error> {
    let mut server = server();
    let mut http: Option<String> = None;
    let mut sse_polling: Option<Duration> = None;
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let mut value = || args.next().expect("a value after the flag");
        server = match flag.as_str() {
            "--http" => {
                http = Some(value());
                server
            }
            "--sse-polling-ms" => {
                sse_polling = Some(Duration::from_millis(
                    value().parse().expect("milliseconds"),
                ));
                server
            }
            "--page-size" => server.page_size(value().parse().expect("a page size")),
            "--client-request-timeout-ms" => server.client_request_timeout(Duration::from_millis(
                value().parse().expect("milliseconds"),
            )),
            "--mask-errors" => server.mask_error_details(),
            "--forward-tracing" => server.forward_tracing(),
            "--rate-limit" => server.rate_limit(value().parse().expect("a rate such as 10/s")),
            "--rate-limit-wait" => server.rate_limit_mode(RateLimitMode::Wait),
            "--call-timeout-ms" => server.call_timeout(Duration::from_millis(
                value().parse().expect("milliseconds"),
            )),
            "--shutdown-grace-ms" => server.shutdown_grace(Duration::from_millis(
                value().parse().expect("milliseconds"),
            )),
            other => panic!("unknown argument: {other}"),
        };
    }
    // A tool built at run time with its own rate limit (2 calls an hour).
    server
        .tool_set()
        .add(
            DynamicTool::new(
                "rationed_dynamic",
                serde_json::json!({ "type": "object" }),
                |_arguments, _context| async { "granted" },
            )
            .description("Two calls an hour.")
            .rate(Rate::per_hour(2)),
        )
        .expect("a new tool name");
    match http {
        Some(address) => {
            let mut http = server.http().sse_retry(Duration::from_millis(100));
            if let Some(interval) = sse_polling {
                http = http.sse_polling(interval);
            }
            http.serve(address).await
        }
        None => server.serve_stdio().await,
    }
}
