//! The connection's task: what it waits on besides the input (the stop signal, the changes
//! to pass on, the messages of calls running as tasks, output that had to wait), and, when
//! no reader thread does, the input too.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use tokio::io::AsyncRead;
use tokio::sync::{broadcast, watch};

use crate::changes::{Change, next_change};

use super::connection::{Handled, Lines};
use super::io::{Closing, ConnectionIo};
use super::wake::WakeSource;

/// Input the connection's task polls, and the lines read from it.
pub(super) struct PolledInput {
    input: Pin<Box<dyn AsyncRead + Send>>,
    lines: Lines,
}

impl PolledInput {
    pub fn new(input: Pin<Box<dyn AsyncRead + Send>>, limit: usize) -> Self {
        PolledInput {
            input,
            lines: Lines::new(limit),
        }
    }
}

/// What the task waits on that the connection's lock does not hold.
pub(super) struct Watched {
    stop: Pin<Box<dyn Future<Output = ()> + Send>>,
    tool_changes: ToolChanges,
    /// Resource updates and resource and prompt list changes.
    other_changes: OtherChanges,
    /// What woke the task for the stop signal and the changes: they are polled only then.
    woken: WakeSource,
}

type ToolChanges = Pin<Box<dyn Future<Output = Option<watch::Receiver<u64>>> + Send>>;

/// Resolves at the next change of the tool list, handing the receiver back.
fn watch_changes(mut changes: watch::Receiver<u64>) -> ToolChanges {
    Box::pin(async move { changes.changed().await.ok().map(|()| changes) })
}

/// The next resource or prompt change, handing the receiver back; `None` once the
/// server's notifier is gone.
type OtherChanges =
    Pin<Box<dyn Future<Output = Option<(Change, broadcast::Receiver<Change>)>> + Send>>;

fn next_other_change(mut changes: broadcast::Receiver<Change>) -> OtherChanges {
    Box::pin(async move {
        let change = next_change(&mut changes).await?;
        Some((change, changes))
    })
}

impl Watched {
    /// The stop signal, and the changes to pass on: `other_changes` is `None` for a
    /// server with neither resources nor prompts, which has no such change.
    pub fn new(
        stop: Pin<Box<dyn Future<Output = ()> + Send>>,
        tool_changes: watch::Receiver<u64>,
        other_changes: Option<broadcast::Receiver<Change>>,
    ) -> Self {
        Watched {
            stop,
            tool_changes: watch_changes(tool_changes),
            // Never ready: its connections skip the poll on every wake-up.
            other_changes: match other_changes {
                Some(changes) => next_other_change(changes),
                None => Box::pin(std::future::pending()),
            },
            woken: WakeSource::new(),
        }
    }

    /// Polls the stop signal and the changes to pass on, if they woke the task.
    fn poll(&mut self, connection: &mut ConnectionIo, task: &Context<'_>) -> Poll<Closing> {
        if !self.woken.woken(task.waker()) {
            return Poll::Pending;
        }
        let mut cx = Context::from_waker(self.woken.waker());
        if self.stop.as_mut().poll(&mut cx).is_ready() {
            return Poll::Ready(Closing::Stopped);
        }
        while let Poll::Ready(changed) = self.tool_changes.as_mut().poll(&mut cx) {
            match changed {
                Some(changes) => {
                    connection.connection.tools_changed();
                    self.tool_changes = watch_changes(changes);
                }
                None => self.tool_changes = Box::pin(std::future::pending()),
            }
        }
        while let Poll::Ready(changed) = self.other_changes.as_mut().poll(&mut cx) {
            match changed {
                Some((change, changes)) => {
                    connection.connection.changed(&change);
                    self.other_changes = next_other_change(changes);
                }
                None => self.other_changes = Box::pin(std::future::pending()),
            }
        }
        Poll::Pending
    }
}

/// Reads (with no reader thread: `input`), answers and writes until the input ends, a stop
/// signal arrives, or the client stops reading.
pub(super) fn poll_serve(
    connection: &mut ConnectionIo,
    watched: &mut Watched,
    input: Option<&mut PolledInput>,
    cx: &mut Context<'_>,
) -> Poll<Closing> {
    if let Some(ended) = connection.ended.take() {
        return Poll::Ready(ended);
    }
    if let Poll::Ready(closing) = watched.poll(connection, cx) {
        return Poll::Ready(closing);
    }
    match input {
        Some(input) => poll_io(connection, input, cx),
        None => poll_output(connection, cx),
    }
}

/// Writes the messages of calls running as tasks, and output the reader thread left
/// waiting.
fn poll_output(connection: &mut ConnectionIo, cx: &mut Context<'_>) -> Poll<Closing> {
    connection.take_woken_queue(cx);
    let written = connection.poll_write_out(cx);
    connection.wake_waiting_reader();
    match written {
        Poll::Ready(Err(error)) => Poll::Ready(Closing::after(error)),
        Poll::Ready(Ok(())) | Poll::Pending => Poll::Pending,
    }
}

/// Reads, answers and writes.
fn poll_io(
    connection: &mut ConnectionIo,
    input: &mut PolledInput,
    cx: &mut Context<'_>,
) -> Poll<Closing> {
    let PolledInput { input, lines } = input;
    // Input is read first: a wake-up is most often new input, handled then in one round.
    // Once a round has handled what was read, a read that finds nothing more ends the poll
    // at once: the queue, the lines and the output were all seen to since the last read,
    // and each left its waker.
    let mut handled_since_read = false;
    loop {
        // Nothing is read or handled while too much output waits for the client: the
        // output wakes the task once it can take more.
        if let Err(closing) = std::task::ready!(connection.poll_backlog_room(cx)) {
            return Poll::Ready(closing);
        }
        let read = if lines.wants_input() {
            match lines.buffer().poll_read_from(input.as_mut(), cx) {
                Poll::Pending if handled_since_read => return Poll::Pending,
                Poll::Pending => Poll::Pending,
                Poll::Ready(Ok(read)) => {
                    lines.read(read);
                    Poll::Ready(())
                }
                Poll::Ready(Err(error)) => {
                    tracing::error!(%error, "reading the input failed; treating it as end of input");
                    lines.end();
                    Poll::Ready(())
                }
            }
        } else if lines.all_handled() {
            return Poll::Ready(Closing::InputEnded);
        } else {
            // Lines read before the output filled up come before any new input.
            Poll::Ready(())
        };
        connection.take_woken_queue(cx);
        if connection.handle(lines, cx) == Handled::InputEnded {
            return Poll::Ready(Closing::InputEnded);
        }
        if let Poll::Ready(Err(error)) = connection.poll_write_out(cx) {
            return Poll::Ready(Closing::after(error));
        }
        if read.is_pending() {
            return Poll::Pending;
        }
        handled_since_read = true;
    }
}
