//! Stdin, read with blocking reads on a thread of the connection's own, which handles what
//! it reads right there, under the connection's lock.
//!
//! At one call in flight this is the shape of a hand-written server: the request wakes the
//! thread straight out of its `read`, the call is answered and written, and the thread
//! reads again — a `read` and a `write` per call. Read by the connection's task instead,
//! each request would also cost the runtime's `epoll_wait` (a third system call) and a
//! round of its scheduler.
//!
//! A dedicated thread rather than tokio's blocking pool: a read that never returns (the
//! client keeps stdin open while the server exits) would otherwise keep the runtime from
//! shutting down. Once the connection has stopped (a stop signal), the thread handles
//! nothing more and ends at its next read.
//!
//! While more output waits for the client than the connection's limit, the thread handles
//! and reads nothing: it parks, without the connection's lock, until the task has written
//! enough (or the connection stopped) and unparks it.

use std::io::{self, Read};
use std::panic::AssertUnwindSafe;
use std::sync::{Arc, MutexGuard};
use std::task::{Context, Poll};

use super::connection::{Handled, Lines};
use super::io::{Closing, ConnectionIo};
use super::lock::LockedConnection;

/// Starts the reader thread of the connection `locked`, in the runtime's context (a tool
/// polled there may spawn tasks, start timers, open sockets).
pub(super) fn start(
    locked: Arc<LockedConnection<ConnectionIo>>,
    input: Box<dyn Read + Send>,
    limit: usize,
) -> io::Result<()> {
    let runtime = tokio::runtime::Handle::current();
    std::thread::Builder::new()
        .name("mcp-stdin".into())
        .spawn(move || {
            let _runtime = runtime.enter();
            let read = std::panic::catch_unwind(AssertUnwindSafe(|| {
                read_and_handle(&locked, input, limit);
            }));
            if let Err(panic) = read {
                locked.lock().ended = Some(Closing::Panicked(panic));
                locked.wake_task();
            }
        })?;
    Ok(())
}

/// Reads, handles what was read and writes the answers, until the input ends, the client
/// stops reading or the connection's task stops serving.
fn read_and_handle(
    locked: &LockedConnection<ConnectionIo>,
    mut input: Box<dyn Read + Send>,
    limit: usize,
) {
    // Output that has to wait (the client is slow to read) is left to the task: the
    // output wakes it once it can be written.
    let waker = locked.task_waker();
    let mut cx = Context::from_waker(&waker);
    let mut lines = Lines::new(limit);
    loop {
        if lines.wants_input() {
            let read = loop {
                match lines.buffer().read_from(&mut input) {
                    Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
                    read => break read,
                }
            };
            match read {
                Ok(read) => lines.read(read),
                Err(error) => {
                    tracing::error!(%error, "reading stdin failed; treating it as end of input");
                    lines.end();
                }
            }
        }
        let mut connection = wait_for_backlog_room(locked, locked.lock());
        if connection.reading_stopped {
            return;
        }
        connection.take_woken_queue(&mut cx);
        let ended = match connection.handle(&mut lines, &mut cx) {
            // The task writes what is left while the calls still running finish.
            Handled::InputEnded => Some(Closing::InputEnded),
            _ => match connection.poll_write_out(&mut cx) {
                Poll::Ready(Err(error)) => Some(Closing::after(error)),
                Poll::Ready(Ok(())) | Poll::Pending => None,
            },
        };
        if let Some(ended) = ended {
            connection.ended = Some(ended);
            drop(connection);
            locked.wake_task();
            return;
        }
        locked.unlock(connection);
    }
}

/// The connection, once the output waiting for the client is within its limit or the
/// connection has stopped serving. The thread waits unlocked, for the task writes the
/// output meanwhile and wakes it ([`ConnectionIo::wake_waiting_reader`]).
fn wait_for_backlog_room<'a>(
    locked: &'a LockedConnection<ConnectionIo>,
    mut connection: MutexGuard<'a, ConnectionIo>,
) -> MutexGuard<'a, ConnectionIo> {
    while connection.connection.backlog_full() && !connection.reading_stopped {
        connection.waiting_reader = Some(std::thread::current());
        connection = locked.park_unlocked(connection);
    }
    connection.waiting_reader = None;
    connection
}
