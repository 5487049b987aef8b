//! One client connection: frames in, responses out, tool calls running concurrently.
//!
//! The connection feeds the [`Session`] one line at a time (so protocol state changes in
//! order) and writes the output (so lines are never interleaved). Its input is read either
//! by the connection's task (any `AsyncRead`: `serve_io`), or, for stdin, by blocking reads
//! on a thread of the connection's own, which handles what it reads right there, as a
//! hand-written server does: a request wakes that thread straight out of its `read`, with
//! no `epoll_wait` and no task to schedule ([`reader`]). Either way, the connection is
//! handled under one lock, and its task sees to everything else: the stop signal, the
//! changes to pass on, the messages of calls running as tasks, output that had to wait.
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
mod reader;

use std::future::Future;
use std::io::{self, Read};
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError, TryLockError};
use std::task::{Poll, Wake, Waker};

use futures_util::task::AtomicWaker;

use tokio::io::{AsyncRead, AsyncWrite};
use tokio::sync::{broadcast, mpsc, watch};
use tokio_util::sync::CancellationToken;

use crate::changes::{Change, next_change};
use crate::protocol::jsonrpc::{RpcError, code};
use crate::protocol::outbox::{KeptHere, Outbox, is_notification};
use crate::session::{Done, Outcome, Reply, ServerCore, Session};
use crate::transport::calls::{Calls, Running};
use frames::{Frame, LineBuffer};

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
    Blocking(Box<dyn Read + Send>),
}

/// A connection's output.
pub(crate) type Output = Pin<Box<dyn AsyncWrite + Send>>;

/// Output held while more than this is waiting is given back once written.
const KEPT_OUTPUT_CAPACITY: usize = 1 << 20;

/// While a burst of requests is being answered, answers are written out whenever this much
/// has gathered, not only once the burst is done: the client starts on the first answers
/// while the server works on the rest, and neither side falls asleep between bursts. Large
/// enough that small answers still share a write (`bench/results/stdio-writes.md`).
const WRITE_AFTER_BYTES: usize = 512;

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
) -> io::Result<()> {
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
    let connection = Connection {
        tool_changes: watch_changes(core.tools.subscribe()),
        // A server with neither resources nor prompts has no such change to pass on, and
        // its connections skip the poll on every wake-up.
        other_changes: if !core.resources.offers_any() && !core.prompts.offers_any() {
            Box::pin(std::future::pending())
        } else {
            next_other_change(core.notifier.subscribe())
        },
        session,
        calls: Calls::new(running.clone()),
        outbox,
        queued,
        output,
        unwritten: Vec::with_capacity(64 * 1024),
        written: 0,
        backlog_limit,
        waiting_reader: None,
        unflushed: false,
        gone: false,
        stop,
        rare: WakeSource::new(),
        queue: WakeSource::new(),
        ended: None,
        reading_stopped: false,
    };
    let shared = Arc::new(Shared {
        connection: Mutex::new(connection),
        task: Arc::new(TaskWaker::default()),
        task_waiting: AtomicBool::new(false),
    });

    let ended = match input {
        Input::Polled(input) => {
            let mut polled = PolledInput {
                input,
                frames: LineBuffer::new(limit),
                ended: false,
                lines_left: false,
            };
            shared
                .with(|connection, cx| connection.poll_serve(cx, Some(&mut polled)))
                .await
        }
        Input::Blocking(input) => {
            reader::start(Arc::clone(&shared), input, limit)?;
            // The task sees to whatever the reader thread does not.
            shared
                .with(|connection, cx| connection.poll_serve(cx, None))
                .await
        }
    };
    let ended = match ended {
        Closing::Panicked(panic) => std::panic::resume_unwind(panic),
        ended => ended,
    };
    let client_went = matches!(ended, Closing::ClientGone);
    shared
        .with(|connection, _| {
            // A reader thread still blocked in its `read`, or waiting for room in the
            // output, handles nothing after this.
            connection.reading_stopped = true;
            connection.wake_waiting_reader();
            if client_went {
                // Nobody can read the answers of calls still running.
                connection.calls.cancel_all();
            }
            // No answer to a tool's request to the client can arrive any more, and listen
            // streams end with their result.
            connection.session.disconnect_client_requests();
            #[cfg(feature = "otel")]
            connection.session.record_session_end();
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
    shared
        .with(|connection, cx| {
            if !done {
                done = finished.as_mut().poll(cx).is_ready();
            }
            connection.take_queued(cx);
            if outcome.is_ok()
                && !connection.client_gone()
                && let Poll::Ready(Err(error)) = connection.poll_write_out(cx)
            {
                outcome = Err(error);
            }
            if done { Poll::Ready(()) } else { Poll::Pending }
        })
        .await;
    // Contexts that tools kept may still hold a sender, so the queue may never close:
    // what is queued now is the last of the output.
    let gone = shared
        .with(|connection, _| {
            connection.take_queued_now();
            Poll::Ready(connection.client_gone())
        })
        .await;
    if outcome.is_ok() && !gone {
        outcome = shared
            .with(|connection, cx| connection.poll_write_out(cx))
            .await;
        if outcome.is_ok() {
            outcome = shared
                .with(|connection, cx| connection.output.as_mut().poll_shutdown(cx))
                .await;
        }
    }
    match outcome {
        Err(error) if client_gone(&error) => Ok(()),
        outcome => outcome,
    }
}

/// Why a connection stopped reading.
enum Closing {
    InputEnded,
    Stopped,
    ClientGone,
    Failed(io::Error),
    /// The reader thread panicked (outside a tool call: those are answered with an error);
    /// the connection's task passes the panic on, as it would its own.
    Panicked(Box<dyn std::any::Any + Send>),
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

struct Connection {
    session: Session,
    calls: Calls,
    /// Where messages of calls running as tasks of their own go, and where they are read.
    outbox: Outbox,
    queued: mpsc::UnboundedReceiver<Vec<u8>>,
    tool_changes: ToolChanges,
    /// Resource updates and resource and prompt list changes.
    other_changes: OtherChanges,
    output: Output,
    /// Output not written yet, from `written` on.
    unwritten: Vec<u8>,
    written: usize,
    /// Once more output than this waits to be written, nothing more is handled.
    backlog_limit: usize,
    /// The reader thread, while it waits for the client to read enough of the output.
    waiting_reader: Option<std::thread::Thread>,
    /// Written but not flushed yet.
    unflushed: bool,
    /// The client stopped reading: nothing is written any more.
    gone: bool,
    stop: Pin<Box<dyn Future<Output = ()> + Send>>,
    /// What woke the task for the stop signal and the changes: they are polled only then.
    rare: WakeSource,
    /// What woke the task for `queued`: it is polled only then.
    queue: WakeSource,
    /// Why the reader thread stopped reading, for the connection's task to act on.
    ended: Option<Closing>,
    /// The connection's task has stopped serving: a reader thread handles nothing more.
    reading_stopped: bool,
}

/// Input the connection's task polls, and the lines read from it.
struct PolledInput {
    input: Pin<Box<dyn AsyncRead + Send>>,
    frames: LineBuffer,
    /// The input ended (the lines read may not all be handled yet).
    ended: bool,
    /// Handling stopped with the output full: lines read may be left in `frames`.
    lines_left: bool,
}

/// A connection, shared by its task and (for stdin) its reader thread.
struct Shared {
    connection: Mutex<Connection>,
    /// Wakes the connection's task; the reader thread polls the output with it, so output
    /// that has to wait is written by the task once it can be.
    task: Arc<TaskWaker>,
    /// The task found the connection locked by the reader thread, which wakes it when done.
    task_waiting: AtomicBool,
}

impl Shared {
    /// The connection, for the reader thread. A panic while it was locked (outside a
    /// tool: tools' panics are answered) is passed on by the task; what it left is still
    /// what the drain needs.
    fn lock(&self) -> MutexGuard<'_, Connection> {
        self.connection
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }

    /// Polls `poll` with the connection, for its task, until it is ready.
    async fn with<R>(
        &self,
        mut poll: impl FnMut(&mut Connection, &mut std::task::Context<'_>) -> Poll<R>,
    ) -> R {
        std::future::poll_fn(|cx| {
            let mut connection = std::task::ready!(self.poll_lock(cx));
            poll(&mut connection, cx)
        })
        .await
    }

    /// The connection, for its task: never blocking a worker of the runtime while the
    /// reader thread handles a burst (or polls a slow tool, which could be waiting on that
    /// very worker); the reader wakes the task once it lets go.
    fn poll_lock(&self, cx: &mut std::task::Context<'_>) -> Poll<MutexGuard<'_, Connection>> {
        self.task.0.register(cx.waker());
        let connection = match self.connection.try_lock() {
            Ok(connection) => connection,
            Err(TryLockError::Poisoned(poisoned)) => poisoned.into_inner(),
            Err(TryLockError::WouldBlock) => {
                // The fences pair with the reader's, so that either the reader sees the flag
                // or this second try sees the lock free.
                self.task_waiting.store(true, Ordering::SeqCst);
                std::sync::atomic::fence(Ordering::SeqCst);
                match self.connection.try_lock() {
                    Ok(connection) => connection,
                    Err(TryLockError::Poisoned(poisoned)) => poisoned.into_inner(),
                    Err(TryLockError::WouldBlock) => return Poll::Pending,
                }
            }
        };
        Poll::Ready(connection)
    }

    /// Lets go of the connection, waking the task if it found it locked meanwhile.
    fn unlock(&self, connection: MutexGuard<'_, Connection>) {
        drop(connection);
        std::sync::atomic::fence(Ordering::SeqCst);
        // Read before it is cleared: the task is rarely waiting, and a read spares the
        // reader thread an atomic read-modify-write on every message.
        if self.task_waiting.load(Ordering::SeqCst)
            && self.task_waiting.swap(false, Ordering::SeqCst)
        {
            self.task.0.wake();
        }
    }
}

/// The connection's task, as a waker another thread can hold.
#[derive(Default)]
struct TaskWaker(AtomicWaker);

impl Wake for TaskWaker {
    fn wake(self: Arc<Self>) {
        self.0.wake();
    }

    fn wake_by_ref(self: &Arc<Self>) {
        self.0.wake();
    }
}

/// What a connection waits on besides its input and output — the stop signal, the changes
/// to pass on, the messages of calls running as tasks — is polled with a waker of its own,
/// which notes that it woke the task: a wake-up by input then skips polling them, which
/// would cost every call more than any other step of the connection's loop
/// (`bench/results/stdio-call-path.md`).
struct WakeSource {
    flag: Arc<WakeFlag>,
    /// `flag` as a waker, to poll the source with.
    waker: Waker,
}

impl WakeSource {
    fn new() -> Self {
        // Set at first, so that the source is polled (and its waker registered) once.
        let flag = Arc::new(WakeFlag {
            woken: AtomicBool::new(true),
            task: AtomicWaker::new(),
        });
        let waker = Waker::from(Arc::clone(&flag));
        WakeSource { flag, waker }
    }

    /// Whether the source woke the task since the last call; `task` is woken next time.
    fn woken(&self, task: &Waker) -> bool {
        // Not woken: nothing to register, for the waker already registered (the task's, or
        // the reader thread's, which wakes the task) wakes the task when the source fires.
        // This is every wake-up by input, and spares it two atomic read-modify-writes.
        if !self.flag.woken.load(Ordering::Acquire) {
            return false;
        }
        // Registered before the flag is cleared: a wake-up in between is not lost.
        self.flag.task.register(task);
        self.flag.woken.swap(false, Ordering::Acquire)
    }
}

struct WakeFlag {
    woken: AtomicBool,
    /// The connection's task.
    task: AtomicWaker,
}

impl Wake for WakeFlag {
    fn wake(self: Arc<Self>) {
        self.wake_by_ref();
    }

    fn wake_by_ref(self: &Arc<Self>) {
        self.woken.store(true, Ordering::Release);
        self.task.wake();
    }
}

impl Connection {
    /// Reads, answers and writes until the input ends, a stop signal arrives, or the
    /// client stops reading.
    fn poll_serve(
        &mut self,
        cx: &mut std::task::Context<'_>,
        input: Option<&mut PolledInput>,
    ) -> Poll<Closing> {
        if let Some(ended) = self.ended.take() {
            return Poll::Ready(ended);
        }
        if self.rare.woken(cx.waker()) {
            let waker = self.rare.waker.clone();
            if let Poll::Ready(closing) =
                self.poll_rare(&mut std::task::Context::from_waker(&waker))
            {
                return Poll::Ready(closing);
            }
        }
        match input {
            Some(input) => self.poll_io(cx, input),
            None => self.poll_output(cx),
        }
    }

    /// Writes the messages of calls running as tasks, and output the reader thread left
    /// waiting.
    fn poll_output(&mut self, cx: &mut std::task::Context<'_>) -> Poll<Closing> {
        self.take_woken_queue(cx);
        let written = self.poll_write_out(cx);
        self.wake_waiting_reader();
        match written {
            Poll::Ready(Err(error)) => Poll::Ready(closing(error)),
            Poll::Ready(Ok(())) | Poll::Pending => Poll::Pending,
        }
    }

    /// Polls the stop signal and the changes to pass on.
    fn poll_rare(&mut self, cx: &mut std::task::Context<'_>) -> Poll<Closing> {
        if self.stop.as_mut().poll(cx).is_ready() {
            return Poll::Ready(Closing::Stopped);
        }
        while let Poll::Ready(changed) = self.tool_changes.as_mut().poll(cx) {
            match changed {
                Some(changes) => {
                    if let Some(notification) = self.session.tools_changed() {
                        self.outbox.send(&notification);
                    }
                    self.tool_changes = watch_changes(changes);
                }
                None => self.tool_changes = Box::pin(std::future::pending()),
            }
        }
        while let Poll::Ready(changed) = self.other_changes.as_mut().poll(cx) {
            match changed {
                Some((change, changes)) => {
                    if let Some(notification) = self.session.change_notification(&change) {
                        self.outbox.send(&notification);
                    }
                    self.other_changes = next_other_change(changes);
                }
                None => self.other_changes = Box::pin(std::future::pending()),
            }
        }
        Poll::Pending
    }

    /// Reads, answers and writes.
    fn poll_io(
        &mut self,
        cx: &mut std::task::Context<'_>,
        input: &mut PolledInput,
    ) -> Poll<Closing> {
        // Input is read first: a wake-up is most often new input, handled then in one
        // round. Once a round has handled what was read, a read that finds nothing more
        // ends the poll at once: the queue, the lines and the output were all seen to
        // since the last read, and each left its waker.
        let mut handled_since_read = false;
        loop {
            // Nothing is read or handled while too much output waits for the client: the
            // output wakes the task once it can take more.
            if let Err(closing) = std::task::ready!(self.poll_backlog_room(cx)) {
                return Poll::Ready(closing);
            }
            let read = if input.lines_left {
                // Lines read before the output filled up come before any new input.
                Poll::Ready(())
            } else if input.ended {
                return Poll::Ready(Closing::InputEnded);
            } else {
                match input.frames.poll_read_from(input.input.as_mut(), cx) {
                    Poll::Pending if handled_since_read => return Poll::Pending,
                    Poll::Pending => Poll::Pending,
                    Poll::Ready(Ok(read)) => {
                        input.ended = read == 0;
                        Poll::Ready(())
                    }
                    Poll::Ready(Err(error)) => {
                        tracing::error!(%error, "reading the input failed; treating it as end of input");
                        input.ended = true;
                        Poll::Ready(())
                    }
                }
            };
            self.take_woken_queue(cx);
            input.lines_left = !self.handle_frames(&mut input.frames, cx, input.ended);
            if input.ended && !input.lines_left {
                return Poll::Ready(Closing::InputEnded);
            }
            if let Poll::Ready(Err(error)) = self.poll_write_out(cx) {
                return Poll::Ready(closing(error));
            }
            if read.is_pending() {
                return Poll::Pending;
            }
            handled_since_read = true;
        }
    }

    /// Output gathered and not written yet.
    fn backlog(&self) -> usize {
        self.unwritten.len() - self.written
    }

    /// Whether more output waits for the client than its limit: then no input is handled.
    fn backlog_full(&self) -> bool {
        self.backlog() > self.backlog_limit
    }

    /// Ready once the output waiting for the client is within its limit, writing meanwhile.
    fn poll_backlog_room(&mut self, cx: &mut std::task::Context<'_>) -> Poll<Result<(), Closing>> {
        if self.backlog_full() {
            match self.poll_write_out(cx) {
                Poll::Ready(Err(error)) => return Poll::Ready(Err(closing(error))),
                Poll::Pending if self.backlog_full() => return Poll::Pending,
                Poll::Ready(Ok(())) | Poll::Pending => {}
            }
        }
        Poll::Ready(Ok(()))
    }

    /// Wakes the reader thread if it waits for room in the output and there is some now,
    /// or the connection has stopped serving.
    fn wake_waiting_reader(&mut self) {
        if self.waiting_reader.is_some()
            && (!self.backlog_full() || self.reading_stopped)
            && let Some(reader) = self.waiting_reader.take()
        {
            reader.unpark();
        }
    }

    /// Handles every complete line read so far, writing answers out as they gather; `false`
    /// when it stopped early, leaving lines in `frames`, because the output is full.
    fn handle_frames(
        &mut self,
        frames: &mut LineBuffer,
        cx: &mut std::task::Context<'_>,
        at_eof: bool,
    ) -> bool {
        // What handling a message sends on the connection goes out right before its
        // answer; what other threads send meanwhile is queued, and follows it.
        let kept = self.outbox.keep_on_this_thread();
        loop {
            if self.backlog_full() {
                return false;
            }
            let Some(frame) = frames.next_frame(at_eof) else {
                return true;
            };
            let session = &mut self.session;
            let outcome = match frame {
                Frame::Line(line) if line.trim().is_empty() => continue,
                Frame::Line(line) => session.handle_line(line, &self.outbox),
                Frame::NotUtf8 => Outcome::Reply(Reply::Ready(session.error_without_id(
                    RpcError::new(code::PARSE_ERROR, "Parse error: the message is not valid UTF-8."),
                ))),
                Frame::TooLong { limit } => Outcome::Reply(Reply::Ready(session.error_without_id(
                    RpcError::new(
                        code::INVALID_REQUEST,
                        format!("Invalid request: the message is longer than the {limit}-byte limit and was skipped."),
                    ),
                ))),
            };
            let unknown_id = self.session.unknown_id();
            match outcome {
                Outcome::Nothing => {}
                Outcome::Cancel(id) => self.calls.cancel(&id),
                Outcome::Reply(reply) => {
                    // A call done at once is answered here; any other goes on as a task.
                    let done = self
                        .calls
                        .run_or_spawn(reply, &self.outbox, unknown_id, false);
                    if let Some(done) = done {
                        self.answer(&kept, &done);
                    }
                }
                Outcome::Batch(replies) => {
                    self.calls
                        .spawn_batch(replies, self.outbox.clone(), unknown_id, false);
                }
            }
            if !self.client_gone() {
                kept.take(&mut self.unwritten);
            }
            if self.backlog() >= WRITE_AFTER_BYTES {
                // Errors surface from the write after the burst, which tries again.
                let _ = self.poll_write_out(cx);
            }
        }
    }

    /// Queues a response, after what handling its request sent (`kept`): a call's result
    /// is written straight into the output, with no buffer of its own.
    fn answer(&mut self, kept: &KeptHere, done: &Done) {
        if self.client_gone() {
            return;
        }
        kept.take(&mut self.unwritten);
        done.write(&mut self.unwritten);
        self.unwritten.push(b'\n');
    }

    /// Moves the messages queued by calls running as tasks into the output.
    fn take_queued(&mut self, cx: &mut std::task::Context<'_>) {
        while let Poll::Ready(Some(line)) = self.queued.poll_recv(cx) {
            self.take_line(&line);
        }
    }

    /// Moves one queued message into the output. While more output waits for the client
    /// than its limit, notifications (progress, log messages) are dropped: calls already
    /// running go on sending them, and the bound holds only if they do not pile up.
    /// Responses and requests to the client are always kept.
    fn take_line(&mut self, line: &[u8]) {
        if self.client_gone() || (self.backlog_full() && is_notification(line)) {
            return;
        }
        self.unwritten.extend_from_slice(line);
    }

    /// [`take_queued`](Self::take_queued), when the queue woke the task since the last time.
    fn take_woken_queue(&mut self, cx: &mut std::task::Context<'_>) {
        if self.queue.woken(cx.waker()) {
            let waker = self.queue.waker.clone();
            self.take_queued(&mut std::task::Context::from_waker(&waker));
        }
    }

    /// [`take_queued`](Self::take_queued), outside of a poll.
    fn take_queued_now(&mut self) {
        while let Ok(line) = self.queued.try_recv() {
            self.take_line(&line);
        }
    }

    fn client_gone(&self) -> bool {
        self.gone
    }

    /// Writes the output gathered so far; `Ready(Ok)` once all of it is written and
    /// flushed.
    fn poll_write_out(&mut self, cx: &mut std::task::Context<'_>) -> Poll<io::Result<()>> {
        if self.gone {
            return Poll::Ready(Err(io::ErrorKind::BrokenPipe.into()));
        }
        let outcome = loop {
            if self.written < self.unwritten.len() {
                match self
                    .output
                    .as_mut()
                    .poll_write(cx, &self.unwritten[self.written..])
                {
                    Poll::Ready(Ok(0)) => break Err(io::ErrorKind::WriteZero.into()),
                    Poll::Ready(Ok(written)) => self.written += written,
                    Poll::Ready(Err(error)) if error.kind() == io::ErrorKind::Interrupted => {}
                    Poll::Ready(Err(error)) => break Err(error),
                    Poll::Pending => return Poll::Pending,
                }
                continue;
            }
            if !self.unwritten.is_empty() {
                self.unwritten.clear();
                self.written = 0;
                if self.unwritten.capacity() > KEPT_OUTPUT_CAPACITY {
                    self.unwritten = Vec::with_capacity(64 * 1024);
                }
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
            // The client stopped reading: nothing more is kept for it.
            self.gone = true;
            self.unwritten = Vec::new();
            self.written = 0;
        }
        Poll::Ready(outcome)
    }
}

/// Whether a write error means the client stopped reading (so the server ends quietly).
pub(crate) fn client_gone(error: &io::Error) -> bool {
    error.kind() == io::ErrorKind::BrokenPipe
}

/// Why a connection stops after a failed write.
fn closing(error: io::Error) -> Closing {
    if client_gone(&error) {
        Closing::ClientGone
    } else {
        Closing::Failed(error)
    }
}

#[cfg(test)]
mod tests;
