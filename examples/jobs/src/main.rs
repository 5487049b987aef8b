//! Long-running tools: progress, cancellation, time limits and tasks.
//!
//! What it shows:
//!
//! - **`process_items`**: an `async fn` working in steps and reporting
//!   `ctx.progress(done, total, message)` after each (sent only if the client asked for
//!   progress; coalesced to one notification per 50 ms). When the client cancels the call
//!   (`notifications/cancelled`), the runtime drops the tool's future at its next `.await`: no
//!   more of its code runs, but destructors do, so a guard notes the cancellation.
//! - **`build`**: work the tool started *elsewhere* (a job on a simulated build service) is not
//!   stopped by dropping the tool's future. A watcher task waits for the `Context`'s
//!   cancellation token (`ctx.cancelled()`: fired when the client cancels, when the call times
//!   out, and when the client goes away) and stops the job.
//! - **`count_primes`**: CPU-bound work in a plain `fn`, which runs on a thread of its own so
//!   it never stalls other calls. That thread cannot be stopped from outside: the tool checks
//!   `ctx.is_cancelled()` between chunks. It reports progress from the plain `fn` as well, and
//!   `max_concurrency = 2` keeps it to two calls at a time (more wait their turn).
//! - **`slow_lookup`**: `#[mcp_tool(timeout = "1s")]` stops a call that runs longer and
//!   answers it with an `isError` result saying so.
//! - **`report`**: `#[mcp_tool(task = "optional")]`, so a client may run it as a *task*: the
//!   call is answered at once with a task id, the report is compiled in the background, and
//!   the client polls for it (2025-11-25 `params.task` then `tasks/result`; under 2026-07-28
//!   the `io.modelcontextprotocol/tasks` extension, then `tasks/get`). The function is written
//!   as any other — progress, a guard for cancellation, a `Json<Report>` result — and serves
//!   plain calls too. `tasks/cancel` stops it as `notifications/cancelled` stops a plain
//!   call: its future is dropped at its next `.await`, and the guard notes it.
//! - **`job_stats`**: counters showing what was stopped, for you and for the tests.
//!
//! Run it with `cargo run -p example-jobs`; it speaks MCP on stdin/stdout. From the
//! shell, progress goes to stderr:
//!
//! ```sh
//! MCP_CLI="call process_items items=5 step_ms=200" cargo run -p example-jobs
//! MCP_CLI="call count_primes below=100000000" cargo run -p example-jobs
//! MCP_CLI="call report days=5" cargo run -p example-jobs
//! ```
//!
//! How tasks work, in both protocol eras, is the runtime's tasks chapter
//! (`mcp_runtime::manual::tasks`, `mcp-runtime/docs/tasks.md`).

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use mcp_runtime::{Context, Json, LogLevel, Server, State, ToolError, mcp_tool};
use schemars::JsonSchema;
use serde::Serialize;
use tokio::sync::{Notify, watch};

/// Counts the calls that were cancelled before they finished.
#[derive(Default)]
struct Tally {
    cancelled_calls: AtomicU64,
}

/// Notes a cancellation when dropped, unless [`disarm`](CancellationGuard::disarm)ed first:
/// the way to clean up after an `async fn` tool whose future the runtime drops.
struct CancellationGuard<'a> {
    tally: &'a Tally,
    armed: bool,
}

impl<'a> CancellationGuard<'a> {
    fn new(tally: &'a Tally) -> Self {
        CancellationGuard { tally, armed: true }
    }

    /// The work finished: nothing to clean up.
    fn disarm(mut self) {
        self.armed = false;
    }
}

impl Drop for CancellationGuard<'_> {
    fn drop(&mut self) {
        if self.armed {
            // Cleanup that needs no `.await` goes here: release a lock file, roll back a
            // transaction, note the cancellation.
            self.tally.cancelled_calls.fetch_add(1, Ordering::Relaxed);
        }
    }
}

/// Process a batch of items one at a time, reporting progress after each.
///
/// Simulated: each item takes `step_ms` milliseconds.
#[mcp_tool(open_world = false)]
async fn process_items(
    /// How many items (1 to 10000).
    #[mcp(default = 10)]
    items: u32,
    /// Milliseconds per item (at most 10000).
    #[mcp(default = 100)]
    step_ms: u64,
    tally: State<Tally>,
    ctx: Context,
) -> Result<String, ToolError> {
    if !(1..=10_000).contains(&items) || step_ms > 10_000 {
        return Err(ToolError::new(
            "items must be between 1 and 10000, and step_ms at most 10000",
        ));
    }
    let guard = CancellationGuard::new(&tally);
    let total = f64::from(items);
    for item in 1..=items {
        // A cancellation drops the future here, mid-sleep; `guard` is dropped with it.
        tokio::time::sleep(Duration::from_millis(step_ms)).await;
        let message = format!("item {item} of {items}");
        ctx.progress(f64::from(item), Some(total), Some(&message));
    }
    guard.disarm();
    ctx.log(LogLevel::Info, format!("processed {items} items"));
    Ok(format!("processed {items} items"))
}

/// A stand-in for a service that runs jobs on its own (a build farm, a render queue): a
/// job, once started, goes on until it finishes or someone asks the service to stop it —
/// whatever happens to the tool call that started it.
#[derive(Default)]
struct BuildService {
    next_id: AtomicU64,
    /// The running jobs, by id, each with the signal that stops it.
    running: Mutex<HashMap<u64, Arc<Notify>>>,
    finished: AtomicU64,
    stopped: AtomicU64,
}

impl BuildService {
    /// Starts a job of `steps` steps of `step_ms` each; its id, and its progress (the
    /// number of steps done, closed when the job ends).
    fn start(service: &Arc<Self>, steps: u32, step_ms: u64) -> (u64, watch::Receiver<u32>) {
        let id = service.next_id.fetch_add(1, Ordering::Relaxed) + 1;
        let stop = Arc::new(Notify::new());
        service.jobs().insert(id, Arc::clone(&stop));
        let (report, progress) = watch::channel(0);
        let service = Arc::clone(service);
        tokio::spawn(async move {
            for step in 1..=steps {
                tokio::select! {
                    () = tokio::time::sleep(Duration::from_millis(step_ms)) => {
                        let _ = report.send(step);
                    }
                    () = stop.notified() => {
                        service.jobs().remove(&id);
                        service.stopped.fetch_add(1, Ordering::Relaxed);
                        return;
                    }
                }
            }
            service.jobs().remove(&id);
            service.finished.fetch_add(1, Ordering::Relaxed);
        });
        (id, progress)
    }

    /// Asks the service to stop a job: an `async` call, as it would be to a remote service.
    /// False if the job had already ended.
    async fn stop(&self, id: u64) -> bool {
        tokio::time::sleep(Duration::from_millis(10)).await; // the round trip
        match self.jobs().get(&id) {
            Some(stop) => {
                stop.notify_one();
                true
            }
            None => false,
        }
    }

    fn jobs(&self) -> std::sync::MutexGuard<'_, HashMap<u64, Arc<Notify>>> {
        self.running.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// Run a build on the build service and wait for it, reporting its progress.
///
/// Simulated: the build has `steps` steps of `step_ms` milliseconds each. Cancelling the
/// call stops the build.
#[mcp_tool(open_world = false)]
async fn build(
    /// How many steps (1 to 10000).
    #[mcp(default = 20)]
    steps: u32,
    /// Milliseconds per step (at most 10000).
    #[mcp(default = 100)]
    step_ms: u64,
    service: State<BuildService>,
    ctx: Context,
) -> Result<String, ToolError> {
    if !(1..=10_000).contains(&steps) || step_ms > 10_000 {
        return Err(ToolError::new(
            "steps must be between 1 and 10000, and step_ms at most 10000",
        ));
    }
    let (id, mut progress) = BuildService::start(service.arc(), steps, step_ms);
    // On cancellation this function's future is dropped, but the build runs on the service
    // and would go on. This task outlives the dropped future: the cancellation token fires
    // just after the drop, and the task stops the build (with an `.await`, which a `Drop`
    // guard could not do).
    let watcher = tokio::spawn({
        let (ctx, service) = (ctx.clone(), service.clone());
        async move {
            ctx.cancelled().await;
            service.stop(id).await;
        }
    });
    let total = f64::from(steps);
    while progress.changed().await.is_ok() {
        let done = *progress.borrow_and_update();
        let message = format!("build {id}: step {done} of {steps}");
        ctx.progress(f64::from(done), Some(total), Some(&message));
    }
    // Finished without being cancelled: the token will never fire, so stop waiting for it.
    watcher.abort();
    let done = *progress.borrow();
    if done == steps {
        Ok(format!("build {id} finished: {steps} steps"))
    } else {
        Err(ToolError::new(format!(
            "build {id} was stopped after {done} of {steps} steps"
        )))
    }
}

/// Count the prime numbers below a bound.
///
/// CPU-bound (a segmented sieve of Eratosthenes): it reports progress as it goes and stops
/// early when the call is cancelled. At most two calls run at once; more wait their turn.
#[mcp_tool(read_only, idempotent, open_world = false, max_concurrency = 2)]
fn count_primes(
    /// Count the primes below this number (at most 10000000000).
    below: u64,
    tally: State<Tally>,
    ctx: Context,
) -> Result<u64, ToolError> {
    const MAX: u64 = 10_000_000_000;
    const SEGMENT: u64 = 1 << 16;
    if below > MAX {
        return Err(ToolError::new(format!("below must be at most {MAX}")));
    }
    if below <= 2 {
        return Ok(0);
    }
    // The primes up to √below, which sieve every segment.
    let root = (below - 1).isqrt();
    let mut composite = vec![false; root as usize + 1];
    let mut small_primes = Vec::new();
    for n in 2..=root {
        if !composite[n as usize] {
            small_primes.push(n);
            (n * n..=root)
                .step_by(n as usize)
                .for_each(|m| composite[m as usize] = true);
        }
    }
    let mut count = 0;
    let mut segment = vec![true; SEGMENT as usize];
    let mut low = 0;
    while low < below {
        // Nothing stops this thread from outside: it has to look.
        if ctx.is_cancelled() {
            tally.cancelled_calls.fetch_add(1, Ordering::Relaxed);
            return Err(ToolError::new("cancelled")); // the runtime discards this answer
        }
        let high = (low + SEGMENT).min(below);
        segment.fill(true);
        for &prime in &small_primes {
            let first = (prime * prime).max(low.div_ceil(prime) * prime);
            for multiple in (first..high).step_by(prime as usize) {
                segment[(multiple - low) as usize] = false;
            }
        }
        count += (low.max(2)..high)
            .filter(|n| segment[(n - low) as usize])
            .count() as u64;
        low = high;
        ctx.progress(low as f64, Some(below as f64), None);
    }
    Ok(count)
}

/// Look a key up in a slow upstream service.
///
/// Simulated: the service answers after `delay_ms` milliseconds. A call that takes over
/// 1 s is stopped and answered with an error.
#[mcp_tool(read_only, idempotent, timeout = "1s")]
async fn slow_lookup(
    /// The key to look up.
    key: String,
    /// How long the service takes to answer, in milliseconds.
    #[mcp(default = 100)]
    delay_ms: u64,
) -> String {
    tokio::time::sleep(Duration::from_millis(delay_ms)).await;
    format!("value of {key}")
}

/// One day of a `Report`.
#[derive(Serialize, JsonSchema)]
struct DayReport {
    /// The day, 1 being the oldest.
    day: u32,
    /// Nightly builds run that day.
    builds: u64,
    /// How many of them failed.
    failed: u64,
}

/// What `report` returns.
#[derive(Serialize, JsonSchema)]
struct Report {
    /// How many days it covers.
    days: u32,
    /// Builds run over those days.
    builds: u64,
    /// Builds that failed.
    failed: u64,
    /// The day with the most failures (the earliest of equals).
    worst_day: u32,
    /// Each day, oldest first.
    daily: Vec<DayReport>,
}

/// Compile a report of the nightly builds of the last `days` days, one day at a time,
/// reporting progress after each.
///
/// Simulated: each day takes `step_ms` milliseconds, and its figures are made up. Slow
/// enough to be worth running as a task.
#[mcp_tool(read_only, open_world = false, task = "optional")]
async fn report(
    /// How many days (1 to 365).
    #[mcp(default = 7)]
    days: u32,
    /// Milliseconds per day (at most 10000).
    #[mcp(default = 200)]
    step_ms: u64,
    tally: State<Tally>,
    ctx: Context,
) -> Result<Json<Report>, ToolError> {
    if !(1..=365).contains(&days) || step_ms > 10_000 {
        return Err(ToolError::new(
            "days must be between 1 and 365, and step_ms at most 10000",
        ));
    }
    // Run as a task or not, a cancellation drops this future at its next `.await`.
    let guard = CancellationGuard::new(&tally);
    let mut daily = Vec::with_capacity(days as usize);
    for day in 1..=days {
        tokio::time::sleep(Duration::from_millis(step_ms)).await;
        let (builds, failed) = (20 + u64::from(day * 7 % 11), u64::from(day * 5 % 4));
        daily.push(DayReport {
            day,
            builds,
            failed,
        });
        let message = format!("day {day} of {days}");
        ctx.progress(f64::from(day), Some(f64::from(days)), Some(&message));
    }
    guard.disarm();
    let worst_day = daily
        .iter()
        .rev()
        .max_by_key(|day| day.failed)
        .map_or(1, |day| day.day);
    ctx.log(LogLevel::Info, format!("reported on {days} days"));
    Ok(Json(Report {
        days,
        builds: daily.iter().map(|day| day.builds).sum(),
        failed: daily.iter().map(|day| day.failed).sum(),
        worst_day,
        daily,
    }))
}

/// What `job_stats` reports.
#[derive(Serialize, JsonSchema)]
struct JobStats {
    /// Builds running now.
    running_builds: u64,
    /// Builds that ran to the end.
    finished_builds: u64,
    /// Builds stopped because the call that started them was cancelled or timed out.
    stopped_builds: u64,
    /// Calls of `process_items`, `count_primes` and `report` (as a call or as a task)
    /// cancelled before they finished.
    cancelled_calls: u64,
}

/// Counters of this server's jobs since it started.
#[mcp_tool(read_only, open_world = false)]
async fn job_stats(service: State<BuildService>, tally: State<Tally>) -> Json<JobStats> {
    Json(JobStats {
        running_builds: service.jobs().len() as u64,
        finished_builds: service.finished.load(Ordering::Relaxed),
        stopped_builds: service.stopped.load(Ordering::Relaxed),
        cancelled_calls: tally.cancelled_calls.load(Ordering::Relaxed),
    })
}

/// The server with its state: `main` serves it, and the tests serve it in-process.
pub(crate) fn server() -> Server {
    Server::new("jobs", env!("CARGO_PKG_VERSION"))
        .title("Long-running jobs")
        .instructions(
            "Long-running tools that report progress and can be cancelled: process_items, \
             build, count_primes, report (which may also run as a task); slow_lookup has a \
             1 s time limit; job_stats counts them.",
        )
        .state(Tally::default())
        .state(BuildService::default())
}

#[tokio::main]
async fn main() -> Result<(), mcp_runtime::Error> {
    server().serve_stdio().await
}
