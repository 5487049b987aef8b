//! How every transport runs a call, and the call table they share: a call is polled once
//! where its request is handled, and one not done then runs as its own task
//! ([`Calls::run_or_spawn`]); the calls of one connection (stdio), session or request
//! (HTTP), cancellable by id; and every call of the server, so a shutdown lets them finish
//! within a grace period and answers the rest.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::Poll;

use futures_util::future::{AbortHandle, Abortable, join_all};
use serde_json::Value;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

use crate::context::RequestHandle;
use crate::protocol::jsonrpc::{RequestId, Response, RpcError, UnknownId, code};
use crate::protocol::outbox::Outbox;
use crate::session::{Done, PendingResponse, Reply};

/// A request in flight: how to stop its future, and how to tell its tool it was cancelled.
struct InFlightCall {
    abort: AbortHandle,
    request: Option<RequestHandle>,
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

/// Why a call was not registered.
#[derive(Debug)]
enum Refused {
    /// Its id is a running call's.
    Taken,
    /// As many calls as may run are running.
    Full,
}

/// Requests in flight, by the JSON text of their id, so a cancellation can stop them.
#[derive(Clone, Default)]
struct InFlight(Arc<InFlightTable>);

#[derive(Default)]
struct InFlightTable {
    calls: Mutex<HashMap<String, InFlightCall>>,
    /// How many `calls` holds, written under its lock: asking whether an id is taken
    /// needs no lock while no call is in flight, which is every call answered at once.
    count: AtomicUsize,
}

impl InFlightTable {
    /// The table, locked; `count` follows it when the guard is let go.
    fn lock(&self) -> CountedCalls<'_> {
        CountedCalls {
            calls: self.calls.lock().expect("in-flight table poisoned"),
            count: &self.count,
        }
    }
}

/// The locked table, its count brought up to date when dropped.
struct CountedCalls<'a> {
    calls: std::sync::MutexGuard<'a, HashMap<String, InFlightCall>>,
    count: &'a AtomicUsize,
}

impl Drop for CountedCalls<'_> {
    fn drop(&mut self) {
        self.count.store(self.calls.len(), Ordering::Release);
    }
}

impl InFlight {
    fn key(id: &Value) -> String {
        id.to_string()
    }

    /// Registers a request, unless a request with the same id is still running or `limit`
    /// are.
    fn register(
        &self,
        id: &Value,
        request: Option<RequestHandle>,
        limit: usize,
    ) -> Result<AbortRegistration, Refused> {
        let mut requests = self.0.lock();
        let key = InFlight::key(id);
        if requests.calls.contains_key(&key) {
            return Err(Refused::Taken);
        }
        if requests.calls.len() >= limit {
            return Err(Refused::Full);
        }
        let (abort, registration) = AbortHandle::new_pair();
        requests
            .calls
            .insert(key.clone(), InFlightCall { abort, request });
        Ok(AbortRegistration { key, registration })
    }

    /// Whether a request with this id is running.
    fn contains(&self, id: &Value) -> bool {
        if self.is_empty() {
            return false;
        }
        self.0.lock().calls.contains_key(&InFlight::key(id))
    }

    /// Whether no request is running. Calls are registered by the connection, session or
    /// request that asks this before it runs one, so a count of zero is current for it.
    fn is_empty(&self) -> bool {
        self.0.count.load(Ordering::Acquire) == 0
    }

    /// Unregisters a finished request; false if it was cancelled in the meantime.
    fn finish(&self, key: &str) -> bool {
        self.0.lock().calls.remove(key).is_some()
    }

    fn cancel_all(&self) {
        for (_, running) in self.0.lock().calls.drain() {
            running.stop();
        }
    }

    /// Stops the request; unknown or finished ids are ignored, as the spec asks.
    fn cancel(&self, id: &Value) {
        if let Some(handle) = self.0.lock().calls.remove(&InFlight::key(id)) {
            tracing::debug!(%id, "request cancelled by the client");
            handle.stop();
        }
    }
}

struct AbortRegistration {
    key: String,
    registration: futures_util::future::AbortRegistration,
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
    /// How many may run at once; one more is answered with an error.
    limit: usize,
}

impl Calls {
    pub fn new(running: Running) -> Self {
        Calls::bounded(running, usize::MAX)
    }

    /// Calls of which at most `limit` run at once: an HTTP session's, which a client can
    /// start from many connections and leave running.
    pub fn bounded(running: Running, limit: usize) -> Self {
        Calls {
            in_flight: InFlight::default(),
            running,
            limit,
        }
    }

    /// Stops the call with this id; unknown or finished ids are ignored.
    pub fn cancel(&self, id: &Value) {
        self.in_flight.cancel(id);
    }

    /// Whether a call with this id is running.
    #[cfg(feature = "http")]
    pub fn is_running(&self, id: &Value) -> bool {
        self.in_flight.contains(id)
    }

    /// Whether any call is running.
    #[cfg(feature = "http")]
    pub fn any_running(&self) -> bool {
        !self.in_flight.is_empty()
    }

    /// Stops every call (their client is gone).
    pub fn cancel_all(&self) {
        self.in_flight.cancel_all();
    }

    /// Runs a reply: a call is polled once where its request is handled, so one done then
    /// is given back (`Some`), to be answered with no task of its own. Any other goes on as
    /// a task of its own, its response sent to `outbox` unless it is cancelled first; with
    /// `end`, the outbox is ended after it (the outbox belongs to this one request). A call
    /// whose id is a running call's is not run: it is refused on `outbox`.
    #[inline]
    pub fn run_or_spawn(
        &self,
        reply: Reply,
        outbox: &Outbox,
        unknown_id: UnknownId,
        end: bool,
    ) -> Option<Done> {
        let (id, mut response) = match reply {
            Reply::Ready(response) => return Some(Done::Response(response)),
            Reply::Pending { id, response } => (id, response),
        };
        if !self.in_flight.contains(&id) {
            // A no-op waker: a call not done now goes on in a task, which polls it again
            // with its own.
            let mut first_poll = std::task::Context::from_waker(std::task::Waker::noop());
            if let Poll::Ready(body) = response.poll_result(&mut first_poll) {
                return Some(Done::Result { id, body });
            }
        }
        self.spawn(id, response, outbox.clone(), unknown_id, end);
        None
    }

    /// Runs a pending response as a task of its own, registered by its id (refused if the
    /// id is taken, or the limit reached).
    fn spawn(
        &self,
        id: RequestId,
        response: PendingResponse,
        outbox: Outbox,
        unknown_id: UnknownId,
        end: bool,
    ) {
        let request = response.request();
        let handle = request.clone();
        let abort = match self.in_flight.register(&id, request, self.limit) {
            Ok(abort) => Ok(abort),
            Err(Refused::Taken) => Err(RpcError::new(
                code::INVALID_REQUEST,
                format!("Invalid request: id {id} is already used by a request in flight."),
            )),
            Err(Refused::Full) => Err(RpcError::new(
                code::INTERNAL_ERROR,
                format!(
                    "Server busy: {} calls of this session are running already; try again when one has finished.",
                    self.limit
                ),
            )),
        };
        let abort = match abort {
            Ok(abort) => abort,
            Err(error) => {
                outbox.send_response(Response::failure(Some(&id), &error, unknown_id));
                if end {
                    outbox.end();
                }
                return;
            }
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
                    Some(Response::failure(Some(&id), &shutting_down(), unknown_id))
                }
            };
            // A call cancelled while finishing on another thread is not answered.
            let still_wanted = in_flight.finish(&abort.key);
            if let (true, Some(response)) = (still_wanted, response) {
                outbox.send_response(response);
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
                            () = grace_over.cancelled() => Response::failure(Some(&id), &shutting_down(), unknown_id),
                        },
                    }
                }
            }))
            .await;
            outbox.send_batch(responses);
            if end {
                outbox.end();
            }
        });
    }
}

fn shutting_down() -> RpcError {
    RpcError::new(
        code::INTERNAL_ERROR,
        "Internal error: the server shut down before the call finished.",
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_in_flight_count_follows_the_table_through_every_change() {
        let in_flight = InFlight::default();
        let (one, two) = (Value::from(1), Value::from("two"));
        assert!(in_flight.is_empty() && !in_flight.contains(&one));
        let first = in_flight.register(&one, None, 2).expect("a free id");
        assert!(!in_flight.is_empty() && in_flight.contains(&one));
        assert!(!in_flight.contains(&two));
        assert!(matches!(
            in_flight.register(&one, None, 2),
            Err(Refused::Taken)
        ));
        let _second = in_flight.register(&two, None, 2).expect("a free id");
        assert!(matches!(
            in_flight.register(&Value::from(3), None, 2),
            Err(Refused::Full)
        ));
        assert!(in_flight.finish(&first.key));
        assert!(!in_flight.contains(&one) && in_flight.contains(&two));
        in_flight.cancel(&two);
        assert!(in_flight.is_empty() && !in_flight.contains(&two));
        in_flight.register(&one, None, 2).expect("free again");
        in_flight.register(&two, None, 2).expect("free again");
        in_flight.cancel_all();
        assert!(in_flight.is_empty() && !in_flight.contains(&one));
    }
}
