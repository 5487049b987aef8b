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
use std::task::{Context, Poll, Waker};

use super::frames::LineBuffer;
use super::{Closing, Connection, Shared, client_gone};

/// Starts the reader thread of the connection `shared`, in the runtime's context (a tool
/// polled there may spawn tasks, start timers, open sockets).
pub(super) fn start(
    shared: Arc<Shared>,
    input: Box<dyn Read + Send>,
    limit: usize,
) -> io::Result<()> {
    let runtime = tokio::runtime::Handle::current();
    std::thread::Builder::new()
        .name("mcp-stdin".into())
        .spawn(move || {
            let _runtime = runtime.enter();
            let read = std::panic::catch_unwind(AssertUnwindSafe(|| {
                read_and_handle(&shared, input, limit);
            }));
            if let Err(panic) = read {
                shared.lock().ended = Some(Closing::Panicked(panic));
                shared.task.0.wake();
            }
        })?;
    Ok(())
}

/// Reads, handles what was read and writes the answers, until the input ends, the client
/// stops reading or the connection's task stops serving.
fn read_and_handle(shared: &Shared, mut input: Box<dyn Read + Send>, limit: usize) {
    // Output that has to wait (the client is slow to read) is left to the task: the
    // output wakes it once it can be written.
    let waker = Waker::from(Arc::clone(&shared.task));
    let mut cx = Context::from_waker(&waker);
    let mut frames = LineBuffer::new(limit);
    let mut input_ended = false;
    // Handling stopped with the output full, lines read left in `frames`.
    let mut lines_left = false;
    loop {
        if !lines_left {
            let read = loop {
                match frames.read_from(&mut input) {
                    Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
                    read => break read,
                }
            };
            input_ended = match read {
                Ok(read) => read == 0,
                Err(error) => {
                    tracing::error!(%error, "reading stdin failed; treating it as end of input");
                    true
                }
            };
        }
        let mut connection = wait_for_backlog_room(shared, shared.lock());
        if connection.reading_stopped {
            return;
        }
        connection.take_woken_queue(&mut cx);
        lines_left = !connection.handle_frames(&mut frames, &mut cx, input_ended);
        let ended = if input_ended && !lines_left {
            // The task writes what is left while the calls still running finish.
            Some(Closing::InputEnded)
        } else {
            match connection.poll_write_out(&mut cx) {
                Poll::Ready(Err(error)) if client_gone(&error) => Some(Closing::ClientGone),
                Poll::Ready(Err(error)) => Some(Closing::Failed(error)),
                Poll::Ready(Ok(())) | Poll::Pending => None,
            }
        };
        if let Some(ended) = ended {
            connection.ended = Some(ended);
            drop(connection);
            shared.task.0.wake();
            return;
        }
        shared.unlock(connection);
    }
}

/// The connection, once the output waiting for the client is within its limit or the
/// connection has stopped serving. The thread waits unlocked, for the task writes the
/// output meanwhile and wakes it ([`Connection::wake_waiting_reader`]).
fn wait_for_backlog_room<'a>(
    shared: &'a Shared,
    mut connection: MutexGuard<'a, Connection>,
) -> MutexGuard<'a, Connection> {
    while connection.backlog_full() && !connection.reading_stopped {
        connection.waiting_reader = Some(std::thread::current());
        shared.unlock(connection);
        // A wake-up that came before this returns at once; a spurious one looks again.
        std::thread::park();
        connection = shared.lock();
    }
    connection.waiting_reader = None;
    connection
}
