//! The connection with what it is read and written through besides its input: its output,
//! and the queue of messages from calls that run as tasks. Both drivers (the reader thread
//! and the connection's task) work on it, under the connection's lock.

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};

use tokio::io::AsyncWrite;
use tokio::sync::mpsc;

use super::connection::{Connection, Handled, Lines};
use super::wake::WakeSource;

/// A connection's output.
pub(crate) type Output = Pin<Box<dyn AsyncWrite + Send>>;

/// Why a connection stopped reading.
pub(super) enum Closing {
    InputEnded,
    Stopped,
    ClientGone,
    Failed(io::Error),
    /// The reader thread panicked (outside a tool call: those are answered with an error);
    /// the connection's task passes the panic on, as it would its own.
    Panicked(Box<dyn std::any::Any + Send>),
}

impl Closing {
    /// Why a connection stops after a failed write.
    pub fn after(error: io::Error) -> Closing {
        if client_gone(&error) {
            Closing::ClientGone
        } else {
            Closing::Failed(error)
        }
    }
}

/// Whether a write error means the client stopped reading (so the server ends quietly).
pub(super) fn client_gone(error: &io::Error) -> bool {
    error.kind() == io::ErrorKind::BrokenPipe
}

pub(super) struct ConnectionIo {
    pub connection: Connection,
    output: Output,
    /// Written but not flushed yet.
    unflushed: bool,
    /// The messages of calls running as tasks of their own.
    queued: mpsc::UnboundedReceiver<Vec<u8>>,
    /// What woke the task for `queued`: it is polled only then.
    queue: WakeSource,
    /// Why the reader thread stopped reading, for the connection's task to act on.
    pub ended: Option<Closing>,
    /// The connection's task has stopped serving: a reader thread handles nothing more.
    pub reading_stopped: bool,
    /// The reader thread, while it waits for the client to read enough of the output.
    pub waiting_reader: Option<std::thread::Thread>,
}

impl ConnectionIo {
    pub fn new(
        connection: Connection,
        output: Output,
        queued: mpsc::UnboundedReceiver<Vec<u8>>,
    ) -> Self {
        ConnectionIo {
            connection,
            output,
            unflushed: false,
            queued,
            queue: WakeSource::new(),
            ended: None,
            reading_stopped: false,
            waiting_reader: None,
        }
    }

    /// Handles the lines read, writing the answers out as they gather.
    pub fn handle(&mut self, lines: &mut Lines, cx: &mut Context<'_>) -> Handled {
        loop {
            match self.connection.handle(lines) {
                // Errors surface from the write after the burst, which tries again.
                Handled::Gathered => {
                    let _ = self.poll_write_out(cx);
                }
                handled => return handled,
            }
        }
    }

    /// Writes the output gathered so far; `Ready(Ok)` once all of it is written and
    /// flushed.
    pub fn poll_write_out(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        if self.connection.client_gone() {
            return Poll::Ready(Err(io::ErrorKind::BrokenPipe.into()));
        }
        let outcome = loop {
            let unwritten = self.connection.unwritten();
            if !unwritten.is_empty() {
                match self.output.as_mut().poll_write(cx, unwritten) {
                    Poll::Ready(Ok(0)) => break Err(io::ErrorKind::WriteZero.into()),
                    Poll::Ready(Ok(written)) => self.connection.wrote(written),
                    Poll::Ready(Err(error)) if error.kind() == io::ErrorKind::Interrupted => {}
                    Poll::Ready(Err(error)) => break Err(error),
                    Poll::Pending => return Poll::Pending,
                }
                continue;
            }
            if self.connection.all_written() {
                self.unflushed = true;
            }
            if self.unflushed {
                if let Err(error) = std::task::ready!(self.output.as_mut().poll_flush(cx)) {
                    break Err(error);
                }
                self.unflushed = false;
            }
            break Ok(());
        };
        if let Err(error) = &outcome
            && client_gone(error)
        {
            self.connection.client_went();
        }
        Poll::Ready(outcome)
    }

    /// Ready once the output waiting for the client is within its limit, writing meanwhile.
    pub fn poll_backlog_room(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Closing>> {
        if self.connection.backlog_full() {
            match self.poll_write_out(cx) {
                Poll::Ready(Err(error)) => return Poll::Ready(Err(Closing::after(error))),
                Poll::Pending if self.connection.backlog_full() => return Poll::Pending,
                Poll::Ready(Ok(())) | Poll::Pending => {}
            }
        }
        Poll::Ready(Ok(()))
    }

    /// Shuts the output down, once everything is written.
    pub fn poll_shutdown(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        self.output.as_mut().poll_shutdown(cx)
    }

    /// Wakes the reader thread if it waits for room in the output and there is some now,
    /// or the connection has stopped serving.
    pub fn wake_waiting_reader(&mut self) {
        if self.waiting_reader.is_some()
            && (!self.connection.backlog_full() || self.reading_stopped)
            && let Some(reader) = self.waiting_reader.take()
        {
            reader.unpark();
        }
    }

    /// The connection stops serving: a reader thread handles nothing more.
    pub fn stop_serving(&mut self, client_went: bool) {
        // A reader thread still blocked in its `read`, or waiting for room in the output,
        // handles nothing after this.
        self.reading_stopped = true;
        self.wake_waiting_reader();
        self.connection.stop(client_went);
    }

    /// Moves the messages queued by calls running as tasks into the output.
    pub fn take_queued(&mut self, cx: &mut Context<'_>) {
        while let Poll::Ready(Some(line)) = self.queued.poll_recv(cx) {
            self.connection.take_message(&line);
        }
    }

    /// [`take_queued`](Self::take_queued), when the queue woke the task since the last time.
    #[inline]
    pub fn take_woken_queue(&mut self, cx: &mut Context<'_>) {
        if self.queue.woken(cx.waker()) {
            let mut cx = Context::from_waker(self.queue.waker());
            while let Poll::Ready(Some(line)) = self.queued.poll_recv(&mut cx) {
                self.connection.take_message(&line);
            }
        }
    }

    /// [`take_queued`](Self::take_queued), outside of a poll.
    pub fn take_queued_now(&mut self) {
        while let Ok(line) = self.queued.try_recv() {
            self.connection.take_message(&line);
        }
    }
}
