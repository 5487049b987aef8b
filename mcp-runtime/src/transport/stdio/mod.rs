//! One client connection: frames in, responses out, tool calls running concurrently.
//!
//! The connection's logic is a state machine with no I/O of its own ([`connection`]): it
//! hands the [`Session`] one line at a time (so protocol state changes in order), gathers
//! the answers as output (so lines are never interleaved), and says what it wants next:
//! more input, a write, room in the output. Two drivers do the reading and writing, under
//! one lock ([`lock`]) on the connection and its output ([`io`]). The input is read either
//! by the connection's task (any `AsyncRead`: `serve_io`), or, for stdin, by blocking reads
//! on a thread of the connection's own, which handles what it reads right there, as a
//! hand-written server does: a request wakes that thread straight out of its `read`, with
//! no `epoll_wait` and no task to schedule ([`reader`]). Either way, the task sees to
//! everything else ([`task`]): the stop signal, the changes to pass on, the messages of
//! calls running as tasks, output that had to wait. This module wires them together and
//! ends the connection.
//!
//! A tool call is first polled right where its request is handled; one that finishes at
//! once (a quick `async fn`) is answered without a hand-off to another task or thread. One
//! that does not continues as a task of its own, so a slow tool never holds up the others,
//! and responses go out in whatever order calls finish. Answers to a burst of requests are
//! gathered and written half a kilobyte or so at a time, and the rest before the connection
//! reads again, so a burst costs a few writes, its first answers go out while the rest are
//! worked on, and a lone request is answered at once.
//!
//! Output the client has not read yet is bounded: once more than the bound waits to be
//! written, the connection handles and reads nothing more until the client has read enough
//! of it, so a client that sends without reading fills its own pipe instead of the
//! server's memory.

pub(crate) mod frames;
pub(crate) mod pipes;

mod connection;
mod io;
mod lock;
mod reader;
mod task;
mod wake;

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::Poll;

use tokio::io::AsyncRead;
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

use crate::protocol::outbox::Outbox;
use crate::session::{ServerCore, Session};
use crate::transport::calls::{Calls, Running};
use connection::Connection;
use io::{Closing, ConnectionIo, client_gone};
use lock::LockedConnection;
use task::{PolledInput, Watched};

pub(crate) use io::Output;

/// How a connection ends besides end of input: a stop signal, and the grace period calls
/// in flight get before they are answered with an error.
pub(crate) struct Ending {
    pub grace: std::time::Duration,
    pub stop: Pin<Box<dyn Future<Output = ()> + Send>>,
}

/// A connection's input, and who reads it.
pub(crate) enum Input {
    /// Polled by the connection's task: an in-memory pipe, a socket.
    Polled(Pin<Box<dyn AsyncRead + Send>>),
    /// Read with blocking reads on a thread of the connection's own, which handles what
    /// it reads: stdin.
    Blocking(Box<dyn std::io::Read + Send>),
}

/// Serves one connection until its input ends or `ending.stop` fires (then calls in flight
/// get the grace period to finish and every one is answered) or its output is closed (then
/// the server stops quietly). `limit` bounds one line of input, `backlog_limit` the output
/// waiting for the client before no more input is handled.
pub(crate) async fn serve_connection(
    core: Arc<ServerCore>,
    input: Input,
    output: Output,
    limit: usize,
    backlog_limit: usize,
    ending: Ending,
) -> std::io::Result<()> {
    let Ending { grace, stop } = ending;
    // Over stdio, every message shares the connection's output.
    let (lines, queued) = mpsc::unbounded_channel();
    let outbox = Outbox::new(lines);
    let closing = CancellationToken::new();
    let running = Running::default();
    let tasks = Arc::clone(&core.tasks);
    let mut session = Session::new(core.clone(), closing.clone());
    // A task's messages go on the connection like any other.
    session.set_background(outbox.clone());
    let connection = Connection::new(session, Calls::new(running.clone()), outbox, backlog_limit);
    let locked = Arc::new(LockedConnection::new(ConnectionIo::new(
        connection, output, queued,
    )));
    let offers_other_changes = core.resources.offers_any() || core.prompts.offers_any();
    let mut watched = Watched::new(
        stop,
        core.tools.subscribe(),
        offers_other_changes.then(|| core.notifier.subscribe()),
    );

    let ended = match input {
        Input::Polled(input) => {
            let mut polled = PolledInput::new(input, limit);
            locked
                .with(|connection, cx| {
                    task::poll_serve(connection, &mut watched, Some(&mut polled), cx)
                })
                .await
        }
        Input::Blocking(input) => {
            reader::start(Arc::clone(&locked), input, limit)?;
            // The task sees to whatever the reader thread does not.
            locked
                .with(|connection, cx| task::poll_serve(connection, &mut watched, None, cx))
                .await
        }
    };
    let ended = match ended {
        Closing::Panicked(panic) => std::panic::resume_unwind(panic),
        ended => ended,
    };
    let client_went = matches!(ended, Closing::ClientGone);
    locked
        .with(|connection, _| {
            connection.stop_serving(client_went);
            Poll::Ready(())
        })
        .await;
    closing.cancel();
    // Calls and tasks get the grace period side by side.
    let finished = futures_util::future::join(running.finish(grace), tasks.shut_down(grace));
    let mut finished = std::pin::pin!(finished);
    // Answers of the calls still running are written as they come.
    let mut outcome = match ended {
        Closing::Failed(error) => Err(error),
        Closing::InputEnded | Closing::Stopped | Closing::ClientGone | Closing::Panicked(_) => {
            Ok(())
        }
    };
    let mut done = false;
    locked
        .with(|connection, cx| {
            if !done {
                done = finished.as_mut().poll(cx).is_ready();
            }
            connection.take_queued(cx);
            if outcome.is_ok()
                && !connection.connection.client_gone()
                && let Poll::Ready(Err(error)) = connection.poll_write_out(cx)
            {
                outcome = Err(error);
            }
            if done { Poll::Ready(()) } else { Poll::Pending }
        })
        .await;
    // Contexts that tools kept may still hold a sender, so the queue may never close:
    // what is queued now is the last of the output.
    let gone = locked
        .with(|connection, _| {
            connection.take_queued_now();
            Poll::Ready(connection.connection.client_gone())
        })
        .await;
    if outcome.is_ok() && !gone {
        outcome = locked
            .with(|connection, cx| connection.poll_write_out(cx))
            .await;
        if outcome.is_ok() {
            outcome = locked
                .with(|connection, cx| connection.poll_shutdown(cx))
                .await;
        }
    }
    match outcome {
        Err(error) if client_gone(&error) => Ok(()),
        outcome => outcome,
    }
}

#[cfg(test)]
mod tests;
