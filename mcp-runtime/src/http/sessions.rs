//! Handshake-era HTTP sessions: the protocol state `initialize` created, found again by the
//! `Mcp-Session-Id` header of later requests.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, Weak};
use std::time::{Duration, Instant};

use tokio_util::sync::CancellationToken;

use crate::connection::{Calls, Running};
use crate::outbox::Outbox;
use crate::session::{ServerCore, Session};

/// One session: its protocol state, its calls in flight, and its standalone stream.
pub(crate) struct HttpSession {
    pub protocol: Mutex<Session>,
    pub calls: Calls,
    /// Fires when the session ends (DELETE, expiry, shutdown): its streams end.
    pub ended: CancellationToken,
    /// The stream a GET opened, where messages unrelated to any request go.
    standalone: Mutex<Option<Outbox>>,
    last_used: Mutex<Instant>,
}

impl HttpSession {
    /// Opens the session's standalone stream; `None` while one is already open.
    pub fn open_standalone(&self) -> Option<tokio::sync::mpsc::UnboundedReceiver<Vec<u8>>> {
        let mut standalone = self.standalone.lock().expect("session poisoned");
        if standalone.as_ref().is_some_and(|open| !open.is_closed()) {
            return None;
        }
        let (outbox, queued) = Outbox::channel();
        *standalone = Some(outbox);
        Some(queued)
    }

    fn end(&self) {
        self.ended.cancel();
        self.calls.cancel_all();
        self.protocol
            .lock()
            .expect("session poisoned")
            .disconnect_client_requests();
    }

    /// Sends the tool list change notification on the standalone stream, if one is open.
    fn tools_changed(&self) {
        let notification = self
            .protocol
            .lock()
            .expect("session poisoned")
            .tools_changed();
        let standalone = self.standalone.lock().expect("session poisoned");
        if let (Some(notification), Some(outbox)) = (notification, standalone.as_ref()) {
            outbox.send(&notification);
        }
    }
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
        Arc::new(HttpSession {
            protocol: Mutex::new(Session::new(Arc::clone(core), ended.clone())),
            calls: Calls::new(running.clone()),
            ended,
            standalone: Mutex::new(None),
            last_used: Mutex::new(Instant::now()),
        })
    }

    /// Registers a session whose `initialize` succeeded, under a new random id, and starts
    /// forwarding tool list changes to it. Expired sessions are swept at the same time.
    pub fn register(&self, session: &Arc<HttpSession>, core: &Arc<ServerCore>) -> String {
        let id = new_session_id();
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
        forward_tool_changes(Arc::downgrade(session), core);
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

fn forward_tool_changes(session: Weak<HttpSession>, core: &Arc<ServerCore>) {
    let mut changes = core.tools.subscribe();
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
            }
        }
    });
}

/// 128 random bits from the operating system's generator, in hex: unguessable, and
/// visible ASCII as the spec requires.
fn new_session_id() -> String {
    let mut bytes = [0_u8; 16];
    getrandom::fill(&mut bytes).expect("the operating system's random number generator works");
    bytes.iter().map(|byte| format!("{byte:02x}")).collect()
}
