//! One client connection: frames in, responses out, tool calls running concurrently.
//!
//! A single reader feeds the [`Session`] one line at a time, so protocol state changes in
//! order; every tool call runs as its own task, so a slow tool never holds up the others,
//! and responses go out in whatever order calls finish. A single writer owns the output, so
//! lines are never interleaved.

use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex};

use futures_util::future::{AbortHandle, Abortable, join_all};
use serde_json::Value;
use tokio::io::{AsyncWrite, AsyncWriteExt};
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

use crate::context::RequestHandle;
use crate::jsonrpc::UnknownId;
use crate::jsonrpc::{self, RpcError, code};
use crate::outbox::Outbox;
use crate::session::{Outcome, Reply, ServerCore, Session};

/// One unit of input from the transport.
#[derive(Debug)]
pub(crate) enum Frame {
    /// One line, without its line terminator.
    Line(String),
    /// A line that is not UTF-8.
    NotUtf8,
    /// A line longer than the size limit (the rest of it is skipped).
    TooLong { limit: usize },
}

/// A request in flight: how to stop its future, and how to tell its tool it was cancelled.
struct InFlightCall {
    abort: AbortHandle,
    request: Option<Arc<RequestHandle>>,
}

impl InFlightCall {
    fn stop(self) {
        // Abort first: once the token fires, the tool could otherwise finish on another
        // worker thread and be answered after all.
        self.abort.abort();
        if let Some(request) = &self.request {
            request.abandon();
        }
    }
}

/// Requests in flight, by the JSON text of their id, so a cancellation can stop them.
#[derive(Clone, Default)]
struct InFlight(Arc<Mutex<HashMap<String, InFlightCall>>>);

impl InFlight {
    fn key(id: &Value) -> String {
        id.to_string()
    }

    /// Registers a request; `None` if a request with the same id is still running.
    fn register(
        &self,
        id: &Value,
        request: Option<Arc<RequestHandle>>,
    ) -> Option<AbortRegistration> {
        let mut requests = self.0.lock().expect("in-flight table poisoned");
        let key = InFlight::key(id);
        if requests.contains_key(&key) {
            return None;
        }
        let (abort, registration) = AbortHandle::new_pair();
        requests.insert(key.clone(), InFlightCall { abort, request });
        Some(AbortRegistration { key, registration })
    }

    /// Unregisters a finished request; false if it was cancelled in the meantime.
    fn finish(&self, key: &str) -> bool {
        self.0
            .lock()
            .expect("in-flight table poisoned")
            .remove(key)
            .is_some()
    }

    fn cancel_all(&self) {
        for (_, running) in self.0.lock().expect("in-flight table poisoned").drain() {
            running.stop();
        }
    }

    /// Stops the request; unknown or finished ids are ignored, as the spec asks.
    fn cancel(&self, id: &Value) {
        if let Some(handle) = self
            .0
            .lock()
            .expect("in-flight table poisoned")
            .remove(&InFlight::key(id))
        {
            tracing::debug!(%id, "request cancelled by the client");
            handle.stop();
        }
    }
}

struct AbortRegistration {
    key: String,
    registration: futures_util::future::AbortRegistration,
}

/// Where a connection's output lines go: a queue, drained by a writer that reports how
/// it ended. The writer drops its end of the queue when the client stops reading.
pub(crate) struct Output {
    pub lines: mpsc::UnboundedSender<Vec<u8>>,
    pub finished: Pin<Box<dyn Future<Output = std::io::Result<()>> + Send>>,
}

impl Output {
    /// An output written by a tokio task to any async writer.
    pub fn to_writer<W>(writer: W) -> Output
    where
        W: AsyncWrite + Unpin + Send + 'static,
    {
        let (lines, queued) = mpsc::unbounded_channel();
        let task = tokio::spawn(write_lines(writer, queued));
        Output {
            lines,
            finished: Box::pin(async move { task.await.map_err(std::io::Error::other)? }),
        }
    }
}

/// How a connection ends besides end of input: a stop signal, and the grace period calls
/// in flight get before they are answered with an error.
pub(crate) struct Ending {
    pub grace: std::time::Duration,
    pub stop: Pin<Box<dyn Future<Output = ()> + Send>>,
}

/// Every call running in one server (all its connections and sessions), so shutting down
/// can let them finish, and answer those that outlive the grace period.
#[derive(Clone, Default)]
pub(crate) struct Running {
    tasks: TaskTracker,
    grace_over: CancellationToken,
}

impl Running {
    /// Waits for every call to finish; calls still running after `grace` are answered
    /// with an error. New calls are not expected once this is called.
    pub async fn finish(&self, grace: std::time::Duration) {
        self.tasks.close();
        if tokio::time::timeout(grace, self.tasks.wait())
            .await
            .is_err()
        {
            tracing::warn!(
                ?grace,
                "calls still running after the shutdown grace period are answered with an error"
            );
            self.grace_over.cancel();
            self.tasks.wait().await;
        }
    }
}

/// The calls of one connection (stdio) or one session or request (HTTP): each runs as its
/// own task, and can be cancelled by id.
#[derive(Clone)]
pub(crate) struct Calls {
    in_flight: InFlight,
    running: Running,
}

impl Calls {
    pub fn new(running: Running) -> Self {
        Calls {
            in_flight: InFlight::default(),
            running,
        }
    }

    /// Stops the call with this id; unknown or finished ids are ignored.
    pub fn cancel(&self, id: &Value) {
        self.in_flight.cancel(id);
    }

    /// Stops every call (their client is gone).
    pub fn cancel_all(&self) {
        self.in_flight.cancel_all();
    }

    /// Runs a pending reply as its own task; its response goes to `outbox` unless the call
    /// is cancelled first. With `end`, the outbox is ended after the response (or the
    /// cancellation): the outbox belongs to this one request.
    pub fn spawn(&self, reply: Reply, outbox: Outbox, unknown_id: UnknownId, end: bool) {
        let (id, response, request) = match reply {
            Reply::Ready(response) => {
                outbox.send(&response);
                if end {
                    outbox.end();
                }
                return;
            }
            Reply::Pending {
                id,
                response,
                request,
            } => (id, response, request),
        };
        let handle = request.clone();
        let Some(abort) = self.in_flight.register(&id, request) else {
            let error = RpcError::new(
                code::INVALID_REQUEST,
                format!("Invalid request: id {id} is already used by a request in flight."),
            );
            outbox.send(&jsonrpc::failure(Some(&id), &error, unknown_id));
            if end {
                outbox.end();
            }
            return;
        };
        let in_flight = self.in_flight.clone();
        let grace_over = self.running.grace_over.clone();
        self.running.tasks.spawn(async move {
            let running = Abortable::new(response, abort.registration);
            let response = tokio::select! {
                response = running => response.ok(),
                () = grace_over.cancelled() => {
                    // Work the tool handed off (threads, spawned tasks) learns it should stop.
                    if let Some(handle) = &handle {
                        handle.abandon();
                    }
                    Some(jsonrpc::failure(Some(&id), &shutting_down(), unknown_id))
                }
            };
            // A call cancelled while finishing on another thread is not answered.
            let still_wanted = in_flight.finish(&abort.key);
            if let (true, Some(response)) = (still_wanted, response) {
                outbox.send(&response);
            }
            if end {
                outbox.end();
            }
        });
    }

    /// Answers a batch (2025-03-26) with one array, once every call in it is done.
    pub fn spawn_batch(
        &self,
        replies: Vec<Reply>,
        outbox: Outbox,
        unknown_id: UnknownId,
        end: bool,
    ) {
        let grace_over = self.running.grace_over.clone();
        self.running.tasks.spawn(async move {
            let responses = join_all(replies.into_iter().map(|reply| {
                let grace_over = grace_over.clone();
                async move {
                    match reply {
                        Reply::Ready(response) => response,
                        Reply::Pending { id, response, .. } => tokio::select! {
                            response = response => response,
                            () = grace_over.cancelled() => jsonrpc::failure(Some(&id), &shutting_down(), unknown_id),
                        },
                    }
                }
            }))
            .await;
            outbox.send(&Value::Array(responses));
            if end {
                outbox.end();
            }
        });
    }
}

/// Serves one connection until its input ends or `ending.stop` fires (then calls in flight
/// get the grace period to finish and every one is answered) or its output is closed (then
/// the server stops quietly).
pub(crate) async fn serve_connection(
    core: Arc<ServerCore>,
    mut frames: mpsc::Receiver<Frame>,
    output: Output,
    ending: Ending,
) -> std::io::Result<()> {
    let Ending { grace, mut stop } = ending;
    let Output {
        lines,
        finished: writer,
    } = output;
    // Over stdio, every message shares the connection's output.
    let outbox = Outbox::new(lines);
    let mut tool_changes = core.tools.subscribe();
    let closing = CancellationToken::new();
    let mut session = Session::new(core, closing.clone());
    let running = Running::default();
    let calls = Calls::new(running.clone());

    loop {
        let frame = tokio::select! {
            frame = frames.recv() => frame,
            Ok(()) = tool_changes.changed() => {
                if let Some(notification) = session.tools_changed() {
                    outbox.send(&notification);
                }
                continue;
            }
            () = &mut stop => break,
            () = outbox.closed() => {
                // The client is gone: nobody can read the answers of calls still running.
                calls.cancel_all();
                break;
            }
        };
        let Some(frame) = frame else { break };
        let outcome = match frame {
            Frame::Line(line) if line.trim().is_empty() => continue,
            Frame::Line(line) => session.handle_line(&line, &outbox),
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
        match outcome {
            Outcome::Nothing => {}
            Outcome::Cancel(id) => calls.cancel(&id),
            Outcome::Reply(reply) => {
                calls.spawn(reply, outbox.clone(), session.unknown_id(), false)
            }
            Outcome::Batch(replies) => {
                calls.spawn_batch(replies, outbox.clone(), session.unknown_id(), false);
            }
        }
    }

    // No answer to a tool's request to the client can arrive any more, and listen
    // streams end with their result.
    session.disconnect_client_requests();
    closing.cancel();
    running.finish(grace).await;
    // Contexts that tools kept may still hold a sender, so the channel may never close:
    // the end marker tells the writer to stop once everything before it is written.
    drop(session);
    outbox.end();
    drop(outbox);
    writer.await
}

fn shutting_down() -> RpcError {
    RpcError::new(
        code::INTERNAL_ERROR,
        "Internal error: the server shut down before the call finished.",
    )
}

/// Most bytes gathered into one write.
pub(crate) const WRITE_BATCH: usize = 1 << 20;

/// Appends every line already queued (up to [`WRITE_BATCH`] bytes) to `buffer`, so a burst
/// of responses costs one write while a lone response is never held back. Returns false
/// once the end marker is reached: nothing after it is written.
pub(crate) fn gather_queued(
    buffer: &mut Vec<u8>,
    queued: &mut mpsc::UnboundedReceiver<Vec<u8>>,
) -> bool {
    while buffer.len() < WRITE_BATCH {
        match queued.try_recv() {
            Ok(line) if line.is_empty() => return false,
            Ok(line) => buffer.extend_from_slice(&line),
            Err(_) => return true,
        }
    }
    true
}

/// Whether a write error means the client stopped reading (so the server ends quietly).
pub(crate) fn client_gone(error: &std::io::Error) -> bool {
    error.kind() == std::io::ErrorKind::BrokenPipe
}

async fn write_lines<W>(
    mut output: W,
    mut queued: mpsc::UnboundedReceiver<Vec<u8>>,
) -> std::io::Result<()>
where
    W: AsyncWrite + Unpin,
{
    let mut buffer = Vec::with_capacity(64 * 1024);
    let mut open = true;
    while open {
        let Some(line) = queued.recv().await else {
            break;
        };
        buffer.extend_from_slice(&line);
        open = !line.is_empty() && gather_queued(&mut buffer, &mut queued);
        let written = async {
            output.write_all(&buffer).await?;
            output.flush().await
        }
        .await;
        buffer.clear();
        match written {
            Err(error) if client_gone(&error) => return Ok(()),
            Err(error) => return Err(error),
            Ok(()) => {}
        }
    }
    Ok(())
}
