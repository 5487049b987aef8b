//! Handshake-era HTTP sessions: the protocol state `initialize` created, found again by the
//! `Mcp-Session-Id` header of later requests.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock, Weak};
use std::time::{Duration, Instant};

use tokio_util::sync::CancellationToken;

use super::sse::{RETAIN_ENDED, RETAIN_ENDED_STREAMS, Replay};
use crate::changes::{Change, next_change};
use crate::protocol::outbox::Outbox;
use crate::protocol::random_id::random_id;
use crate::protocol::version::ProtocolVersion;
use crate::session::{ServerCore, Session};
use crate::transport::calls::{Calls, Running};

/// One session: its protocol state, its calls in flight, and its resumable streams.
pub(crate) struct HttpSession {
    pub protocol: Mutex<Session>,
    pub calls: Calls,
    /// Fires when the session ends (DELETE, expiry, shutdown): its streams end.
    pub ended: CancellationToken,
    /// The revision `initialize` negotiated.
    pub negotiated: OnceLock<ProtocolVersion>,
    /// The streams a client may resume with `Last-Event-ID`: number 0 is the standalone
    /// stream (GET), where messages unrelated to any request go; the others are the
    /// response streams of requests.
    streams: Mutex<Streams>,
    last_used: Mutex<Instant>,
}

struct Streams {
    next: u64,
    by_number: HashMap<u64, Arc<Replay>>,
}

/// The number of the standalone stream.
const STANDALONE: u64 = 0;

impl HttpSession {
    /// Whether this session's streams prime clients for reconnection and may be closed
    /// mid-call (SSE polling): 2025-11-25 on.
    pub fn polls(&self) -> bool {
        self.negotiated
            .get()
            .is_some_and(|version| *version >= ProtocolVersion::V2025_11_25)
    }

    /// A new response stream, resumable while it is retained. Finished streams beyond the
    /// retention bounds are forgotten first.
    pub fn new_stream(&self) -> Arc<Replay> {
        let mut streams = self.streams.lock().expect("session poisoned");
        let mut ended: Vec<(Instant, u64)> = streams
            .by_number
            .values()
            .filter(|replay| replay.number() != STANDALONE)
            .filter_map(|replay| Some((replay.ended_at()?, replay.number())))
            .collect();
        ended.sort_unstable();
        let excess = ended.len().saturating_sub(RETAIN_ENDED_STREAMS - 1);
        for (index, (at, number)) in ended.into_iter().enumerate() {
            if index < excess || at.elapsed() > RETAIN_ENDED {
                streams.by_number.remove(&number);
            }
        }
        streams.next += 1;
        let replay = Replay::new(streams.next);
        streams
            .by_number
            .insert(replay.number(), Arc::clone(&replay));
        replay
    }

    /// The stream with this number, if it is still retained.
    pub fn stream(&self, number: u64) -> Option<Arc<Replay>> {
        let streams = self.streams.lock().expect("session poisoned");
        let replay = streams.by_number.get(&number)?;
        let expired = replay
            .ended_at()
            .is_some_and(|at| at.elapsed() > RETAIN_ENDED);
        (!expired).then(|| Arc::clone(replay))
    }

    /// The standalone stream.
    pub fn standalone(&self) -> Arc<Replay> {
        self.stream(STANDALONE)
            .expect("the standalone stream lives as long as its session")
    }

    fn end(&self) {
        self.ended.cancel();
        self.calls.cancel_all();
        let protocol = self.protocol.lock().expect("session poisoned");
        protocol.disconnect_client_requests();
        protocol.end_tasks();
    }

    /// Sends the tool list change notification on the standalone stream (a GET reading it
    /// gets it at once; one that resumes later, from its buffer).
    fn tools_changed(&self) {
        let notification = self
            .protocol
            .lock()
            .expect("session poisoned")
            .tools_changed();
        if let Some(notification) = notification {
            self.standalone().push(&notification.to_string());
        }
    }

    /// Sends a resource update or a resource or prompt list change on the standalone
    /// stream, if this session's client is to be told of it.
    fn changed(&self, change: &Change) {
        let notification = self
            .protocol
            .lock()
            .expect("session poisoned")
            .change_notification(change);
        if let Some(notification) = notification {
            self.standalone().push(&notification.to_string());
        }
    }
}

/// An outbox whose messages go on the standalone stream: where a task's messages go once
/// its `tools/call` has been answered (a GET reading the stream gets them at once; one
/// that resumes later, from its buffer). The forwarding ends when every sender is gone.
fn standalone_outbox(standalone: Arc<Replay>) -> Outbox {
    let (outbox, mut lines) = Outbox::channel();
    tokio::spawn(async move {
        while let Some(line) = lines.recv().await {
            if line.is_empty() {
                break;
            }
            standalone.push(String::from_utf8_lossy(&line).trim_end());
        }
    });
    outbox
}

/// Every live session of one endpoint, by id.
pub(crate) struct Sessions {
    live: Mutex<HashMap<String, Arc<HttpSession>>>,
    idle_timeout: Duration,
}

impl Sessions {
    pub fn new(idle_timeout: Duration) -> Self {
        Sessions {
            live: Mutex::new(HashMap::new()),
            idle_timeout,
        }
    }

    /// A new session, not registered yet (see [`Sessions::register`]).
    pub fn create(
        &self,
        core: &Arc<ServerCore>,
        closing: &CancellationToken,
        running: &Running,
    ) -> Arc<HttpSession> {
        let ended = closing.child_token();
        let standalone = Replay::new(STANDALONE);
        let mut protocol = Session::new(Arc::clone(core), ended.clone());
        protocol.set_background(standalone_outbox(Arc::clone(&standalone)));
        Arc::new(HttpSession {
            protocol: Mutex::new(protocol),
            calls: Calls::new(running.clone()),
            ended,
            negotiated: OnceLock::new(),
            streams: Mutex::new(Streams {
                next: STANDALONE,
                by_number: HashMap::from([(STANDALONE, standalone)]),
            }),
            last_used: Mutex::new(Instant::now()),
        })
    }

    /// Registers a session whose `initialize` succeeded, under a new random id, and starts
    /// forwarding tool list changes to it. Expired sessions are swept at the same time.
    pub fn register(&self, session: &Arc<HttpSession>, core: &Arc<ServerCore>) -> String {
        let id = random_id();
        let mut live = self.live.lock().expect("session table poisoned");
        live.retain(|_, existing| {
            let expired = self.expired(existing);
            if expired {
                existing.end();
            }
            !expired
        });
        live.insert(id.clone(), Arc::clone(session));
        drop(live);
        forward_changes(Arc::downgrade(session), core);
        id
    }

    /// The live session with this id, marked used.
    pub fn get(&self, id: &str) -> Option<Arc<HttpSession>> {
        let mut live = self.live.lock().expect("session table poisoned");
        let session = live.get(id)?;
        if self.expired(session) {
            if let Some(session) = live.remove(id) {
                session.end();
            }
            return None;
        }
        *session.last_used.lock().expect("session poisoned") = Instant::now();
        Some(Arc::clone(session))
    }

    /// Ends and forgets a session; false if there was none.
    pub fn remove(&self, id: &str) -> bool {
        let removed = self.live.lock().expect("session table poisoned").remove(id);
        removed.map(|session| session.end()).is_some()
    }

    /// Shutdown: no answer to a tool's request to the client can arrive any more (calls in
    /// flight still finish; the sessions' streams end with the endpoint's closing token).
    pub fn disconnect_all(&self) {
        for session in self.live.lock().expect("session table poisoned").values() {
            session
                .protocol
                .lock()
                .expect("session poisoned")
                .disconnect_client_requests();
        }
    }

    fn expired(&self, session: &HttpSession) -> bool {
        session
            .last_used
            .lock()
            .expect("session poisoned")
            .elapsed()
            > self.idle_timeout
    }
}

fn forward_changes(session: Weak<HttpSession>, core: &Arc<ServerCore>) {
    let mut changes = core.tools.subscribe();
    let mut other_changes = core.notifier.subscribe();
    let Some(ended) = session.upgrade().map(|session| session.ended.clone()) else {
        return;
    };
    tokio::spawn(async move {
        loop {
            tokio::select! {
                () = ended.cancelled() => return,
                changed = changes.changed() => {
                    let (Ok(()), Some(session)) = (changed, session.upgrade()) else { return };
                    session.tools_changed();
                }
                Some(change) = next_change(&mut other_changes) => {
                    let Some(session) = session.upgrade() else { return };
                    session.changed(&change);
                }
            }
        }
    });
}
