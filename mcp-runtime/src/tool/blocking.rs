//! The threads plain-`fn` tools run on.
//!
//! Not tokio's blocking pool: dropping a tokio runtime waits for every `spawn_blocking` task
//! to return, so one plain-`fn` tool that never returns (its call long since answered as timed
//! out) would keep the server process alive forever after its input ended or SIGTERM came.
//! These threads are detached instead — the process exits without waiting for them — and,
//! like tokio's, reused: a thread that finishes a job waits up to [`KEEP_IDLE`] for the next.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Mutex;
use std::sync::mpsc::{self, RecvTimeoutError, Sender};
use std::time::Duration;

/// How long an idle thread waits for another job before it ends.
const KEEP_IDLE: Duration = Duration::from_secs(10);

type Job = Box<dyn FnOnce() + Send + 'static>;

/// Idle threads, each waiting on its own channel; a number names each so it can take itself
/// off the list when it ends.
static IDLE: Mutex<Vec<(u64, Sender<Job>)>> = Mutex::new(Vec::new());

fn idle() -> std::sync::MutexGuard<'static, Vec<(u64, Sender<Job>)>> {
    IDLE.lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Runs `work` on a detached thread (inside the current tokio runtime's context, if any, so
/// the tool can still use `Handle::current()`), resolving to its value or its panic.
pub(crate) async fn run<R: Send + 'static>(
    work: impl FnOnce() -> R + Send + 'static,
) -> std::thread::Result<R> {
    let (done, outcome) = tokio::sync::oneshot::channel();
    let runtime = tokio::runtime::Handle::try_current().ok();
    // The request's span, so the tool's own spans and events nest under it.
    #[cfg(feature = "otel")]
    let span = tracing::Span::current();
    let mut job: Job = Box::new(move || {
        let _entered = runtime.as_ref().map(tokio::runtime::Handle::enter);
        #[cfg(feature = "otel")]
        let _in_span = span.enter();
        let _ = done.send(catch_unwind(AssertUnwindSafe(work)));
    });
    loop {
        let waiting = idle().pop();
        match waiting {
            Some((_, worker)) => match worker.send(job) {
                Ok(()) => break,
                // That thread has just ended: try the next.
                Err(mpsc::SendError(returned)) => job = returned,
            },
            None => {
                if let Err(error) = std::thread::Builder::new()
                    .name("mcp-blocking".into())
                    .spawn(move || worker(job))
                {
                    return Err(Box::new(format!("no thread for the tool: {error}")));
                }
                break;
            }
        }
    }
    outcome
        .await
        .unwrap_or_else(|_| Err(Box::new("the tool's thread ended without an answer")))
}

fn worker(mut job: Job) {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let me = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    loop {
        job();
        let (sender, jobs) = mpsc::channel();
        idle().push((me, sender));
        job = match jobs.recv_timeout(KEEP_IDLE) {
            Ok(next) => next,
            Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => {
                let mut idle = idle();
                match idle.iter().position(|(id, _)| *id == me) {
                    Some(at) => {
                        idle.swap_remove(at);
                        return;
                    }
                    // Taken off the list just now: its job is on the way.
                    None => {
                        drop(idle);
                        match jobs.recv() {
                            Ok(next) => next,
                            Err(_) => return,
                        }
                    }
                }
            }
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn runs_work_and_returns_panics() {
        for n in 0..3_u32 {
            assert_eq!(run(move || n * 2).await.unwrap(), n * 2);
        }
        let panic = run(|| -> u8 { std::panic::panic_any(7_u32) })
            .await
            .unwrap_err();
        assert_eq!(panic.downcast_ref::<u32>(), Some(&7));
        // The tool's thread is inside the runtime's context.
        assert!(
            run(|| tokio::runtime::Handle::try_current().is_ok())
                .await
                .unwrap()
        );
    }
}
