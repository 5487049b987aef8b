//! Handshake-era HTTP sessions: the protocol state `initialize` created, found again by the
//! `Mcp-Session-Id` header of later requests. In a fleet, the session's record lives in the
//! fleet's store and every instance keeps a copy of the sessions it serves, made from it.

use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock, Weak};
use std::time::{Duration, Instant};

use tokio_util::sync::CancellationToken;

use super::fleet::Fleet;
use super::limits::Limits;
use super::sse::{RETAIN_ENDED, RETAIN_ENDED_STREAMS, Replay};
use crate::changes::{Change, next_change};
use crate::fleet::{SessionChange, SessionRecord, StoreError};
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
    /// Whether this is one instance's copy of a fleet's session.
    #[cfg(feature = "otel")]
    in_fleet: bool,
    /// The identity of the principal that opened the session, if it has one: requests
    /// from another principal are told there is no such session.
    pub principal: OnceLock<Option<String>>,
    /// In a fleet: the generation of the subscription to the fleet's notes (see `Hearing`)
    /// under which this copy was read from the store, 0 for none. While that subscription
    /// holds, a note tells of every change, so the copy serves without reading the store.
    trusted: AtomicU64,
    /// In a fleet: when the store last marked the session used (it expires after the idle
    /// timeout without).
    touched: Mutex<Instant>,
}

/// A session's retained streams. Few (sixteen finished at most, and those running), and
/// found by number only when a client resumes one: lists, not a map, so that starting a
/// stream hashes nothing and touches little memory.
struct Streams {
    next: u64,
    standalone: Arc<Replay>,
    /// The streams not finished when last looked at: looked at again at each new stream,
    /// since a stream finishes without telling its session.
    running: Vec<Arc<Replay>>,
    /// The finished streams still retained, oldest first, by when each finished and then
    /// by number (streams that finished at the same instant).
    finished: VecDeque<(Instant, u64, Arc<Replay>)>,
}

/// The number of the standalone stream.
const STANDALONE: u64 = 0;

impl Streams {
    /// The streams of a session whose first stream after the standalone one is numbered
    /// `after + 1`.
    fn new(standalone: Arc<Replay>, after: u64) -> Self {
        Streams {
            next: after,
            standalone,
            running: Vec::new(),
            finished: VecDeque::new(),
        }
    }

    /// Retains a new stream (not finished yet).
    fn insert(&mut self, replay: &Arc<Replay>) {
        self.running.push(Arc::clone(replay));
    }

    /// The retained stream with this number.
    fn get(&self, number: u64) -> Option<&Arc<Replay>> {
        if number == STANDALONE {
            return Some(&self.standalone);
        }
        let running = self.running.iter();
        let finished = self.finished.iter().map(|(_, _, replay)| replay);
        running
            .chain(finished)
            .find(|replay| replay.number() == number)
    }

    /// Forgets the finished streams beyond the retention bounds: those finished more than
    /// [`RETAIN_ENDED`] ago, and the oldest beyond [`RETAIN_ENDED_STREAMS`] less one (room
    /// for the stream about to start).
    ///
    /// The finished streams are kept in the order they finished, so only the streams that
    /// were running are looked at: a session calling steadily has one, just finished, which
    /// goes at the back, and its oldest at the front is forgotten. (A pass over every
    /// retained stream, reading when each finished through its pointer, was the largest
    /// cost of a session's call at 64 sessions: sixteen cache misses each time.)
    fn forget_finished(&mut self, now: Instant) {
        let finished = &mut self.finished;
        self.running.retain(|replay| {
            let Some(at) = replay.ended_at() else {
                return true;
            };
            let key = (at, replay.number());
            let entry = (at, key.1, Arc::clone(replay));
            match finished.back() {
                // Almost always the latest to finish.
                Some((last_at, last_number, _)) if (*last_at, *last_number) > key => {
                    let place = finished.partition_point(|(at, number, _)| (*at, *number) < key);
                    finished.insert(place, entry);
                }
                _ => finished.push_back(entry),
            }
            false
        });
        // Finished before this, a stream is past its time. `None` this soon after boot: none
        // can be. Expired streams finished before every other: they are at the front.
        let expired_before = now.checked_sub(RETAIN_ENDED);
        while let Some((at, _, _)) = self.finished.front() {
            let expired = expired_before.is_some_and(|cutoff| *at < cutoff);
            if !expired && self.finished.len() < RETAIN_ENDED_STREAMS {
                break;
            }
            self.finished.pop_front();
        }
    }
}

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
        streams.forget_finished(Instant::now());
        // Below 2^53, exact in every JSON number; never 0 (the standalone stream).
        streams.next = (streams.next + 1) % (1 << 53);
        streams.next = streams.next.max(1);
        let replay = Replay::new(streams.next);
        streams.insert(&replay);
        replay
    }

    /// The stream with this number, if it is still retained.
    pub fn stream(&self, number: u64) -> Option<Arc<Replay>> {
        let streams = self.streams.lock().expect("session poisoned");
        let replay = streams.get(number)?;
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

    /// Ends the session here: its streams end, its calls are cancelled. `for_good` (the
    /// session itself ended, not just this instance's copy) also cancels its tasks.
    fn end(&self, for_good: bool) {
        self.ended.cancel();
        self.calls.cancel_all();
        #[cfg_attr(not(feature = "otel"), allow(unused_mut))]
        let mut protocol = self.protocol.lock().expect("session poisoned");
        protocol.disconnect_client_requests();
        // In a fleet no instance sees a session whole: its duration is not recorded.
        #[cfg(feature = "otel")]
        if for_good && !self.in_fleet {
            protocol.record_session_end();
        }
        if for_good {
            protocol.end_tasks();
        }
    }

    /// Whether the session has been idle for longer than `idle_timeout` at `now`. A busy
    /// one is not, and its idle time starts again when it stops being busy.
    fn idle_at(&self, now: Instant, idle_timeout: Duration) -> bool {
        let mut last_used = self.last_used.lock().expect("session poisoned");
        if now.saturating_duration_since(*last_used) <= idle_timeout {
            return false;
        }
        if self.busy() {
            *last_used = now;
            return false;
        }
        true
    }

    /// Whether a request from the principal of identity `principal` may use this session.
    pub fn belongs_to(&self, principal: Option<&str>) -> bool {
        self.principal
            .get()
            .is_none_or(|owner| owner.as_deref() == principal)
    }

    /// The session's record for the fleet's store, with its principal.
    fn record(&self) -> Option<SessionRecord> {
        let mut record = self.protocol.lock().expect("session poisoned").record()?;
        record.principal = self.principal.get().cloned().flatten();
        Some(record)
    }

    /// Whether this instance's copy serves something now: a call, or the GET stream.
    fn busy(&self) -> bool {
        self.calls.any_running() || self.standalone().is_attached()
    }

    /// A client's answer that another instance received, for a tool of this one.
    pub fn take_answer(&self, message: serde_json::Value) {
        let mut protocol = self.protocol.lock().expect("session poisoned");
        let _ = protocol.handle_json(message, &Outbox::discarding());
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
            standalone.push(super::sse::utf8_text(&line).trim_end());
        }
    });
    outbox
}

/// Where a copy of a session starts numbering its streams. In a fleet, at random: each
/// instance's copy numbers its streams on its own, and the numbers must not meet (53 bits
/// apart, they do not while a session lives).
fn first_number(in_fleet: bool) -> u64 {
    if !in_fleet {
        return STANDALONE;
    }
    let mut bytes = [0_u8; 8];
    getrandom::fill(&mut bytes).expect("the operating system's random number generator works");
    u64::from_le_bytes(bytes) >> 11
}

/// Live sessions by id, and the ids each principal holds.
#[derive(Default)]
struct Table {
    by_id: HashMap<String, Arc<HttpSession>>,
    per_principal: HashMap<String, HashSet<String>>,
}

/// When the table is full, one session in this many (those used least recently) is ended
/// at once, so that a table at its cap is scanned once for every so many new sessions.
const EVICTED_SHARE: usize = 64;

impl Table {
    fn get(&self, id: &str) -> Option<&Arc<HttpSession>> {
        self.by_id.get(id)
    }

    fn insert(&mut self, id: String, session: Arc<HttpSession>) {
        if let Some(replaced) = self.by_id.remove(&id) {
            self.uncount(&id, &replaced);
        }
        if let Some(Some(principal)) = session.principal.get() {
            self.per_principal
                .entry(principal.clone())
                .or_default()
                .insert(id.clone());
        }
        self.by_id.insert(id, session);
    }

    fn remove(&mut self, id: &str) -> Option<Arc<HttpSession>> {
        let removed = self.by_id.remove(id)?;
        self.uncount(id, &removed);
        Some(removed)
    }

    fn uncount(&mut self, id: &str, session: &HttpSession) {
        let Some(Some(principal)) = session.principal.get() else {
            return;
        };
        if let Some(ids) = self.per_principal.get_mut(principal) {
            ids.remove(id);
            if ids.is_empty() {
                self.per_principal.remove(principal);
            }
        }
    }

    /// Removes the sessions `expired` says are, and gives them back.
    fn remove_expired(
        &mut self,
        mut expired: impl FnMut(&HttpSession) -> bool,
    ) -> Vec<Arc<HttpSession>> {
        let ids: Vec<String> = self
            .by_id
            .iter()
            .filter(|(_, session)| expired(session))
            .map(|(id, _)| id.clone())
            .collect();
        ids.iter().filter_map(|id| self.remove(id)).collect()
    }

    /// Makes room for one more session of `principal`: past a cap, the sessions used
    /// least recently that are not busy are removed and given back, to be ended. Why
    /// there is no room, when every session that counts against the cap is busy.
    fn make_room(
        &mut self,
        limits: &Limits,
        principal: Option<&str>,
    ) -> Result<Vec<Arc<HttpSession>>, &'static str> {
        let mut removed = Vec::new();
        let held = principal.and_then(|principal| self.per_principal.get(principal));
        if let Some(held) = held
            && held.len() >= limits.max_sessions_per_principal
        {
            let held = held.iter().filter_map(|id| Some((id, self.by_id.get(id)?)));
            let ids = least_recently_used(held, 1);
            if ids.is_empty() {
                return Err("too many open sessions for this principal");
            }
            removed.extend(ids.iter().filter_map(|id| self.remove(id)));
        }
        if self.by_id.len() >= limits.max_sessions {
            let share = (self.by_id.len() / EVICTED_SHARE).max(1);
            let ids = least_recently_used(self.by_id.iter(), share);
            if ids.is_empty() {
                return Err("too many open sessions");
            }
            removed.extend(ids.iter().filter_map(|id| self.remove(id)));
        }
        Ok(removed)
    }
}

/// The ids of at most `count` of `sessions` that are not busy, those used least recently.
fn least_recently_used<'a>(
    sessions: impl Iterator<Item = (&'a String, &'a Arc<HttpSession>)>,
    count: usize,
) -> Vec<String> {
    let mut idle: Vec<(Instant, &String)> = sessions
        .filter(|(_, session)| !session.busy())
        .map(|(id, session)| (*session.last_used.lock().expect("session poisoned"), id))
        .collect();
    if idle.len() > count {
        idle.select_nth_unstable(count - 1);
        idle.truncate(count);
    }
    idle.into_iter().map(|(_, id)| id.clone()).collect()
}

/// Why a session could not be opened.
#[derive(Debug)]
pub(crate) enum NotOpened {
    /// A bound of [`Limits`] was reached: the client may try again later.
    Full(&'static str),
    Store(StoreError),
}

/// Every live session of one endpoint, by id (in a fleet: this instance's copies).
pub(crate) struct Sessions {
    live: Arc<Mutex<Table>>,
    /// Whether the task that ends idle sessions runs.
    sweeping: OnceLock<()>,
    limits: Limits,
    idle_timeout: Duration,
    core: Arc<ServerCore>,
    /// Fires when shutdown begins: every session's `ended` is a child of it.
    closing: CancellationToken,
    running: Running,
    fleet: Option<Arc<Fleet>>,
}

impl Sessions {
    pub fn new(
        limits: Limits,
        idle_timeout: Duration,
        core: Arc<ServerCore>,
        closing: CancellationToken,
        running: Running,
        fleet: Option<Arc<Fleet>>,
    ) -> Self {
        Sessions {
            live: Arc::new(Mutex::new(Table::default())),
            sweeping: OnceLock::new(),
            limits,
            idle_timeout,
            core,
            closing,
            running,
            fleet,
        }
    }

    /// The session's idle timeout.
    pub fn idle_timeout(&self) -> Duration {
        self.idle_timeout
    }

    /// A new session, not registered yet (see [`Sessions::register`]).
    pub fn create(&self) -> Arc<HttpSession> {
        let ended = self.closing.child_token();
        let standalone = Replay::new(STANDALONE);
        let mut protocol = Session::new(Arc::clone(&self.core), ended.clone());
        if self.fleet.is_none() {
            protocol.set_background(standalone_outbox(Arc::clone(&standalone)));
        }
        Arc::new(HttpSession {
            protocol: Mutex::new(protocol),
            calls: Calls::bounded(self.running.clone(), self.limits.max_calls_per_session),
            ended,
            negotiated: OnceLock::new(),
            streams: Mutex::new(Streams::new(standalone, first_number(self.fleet.is_some()))),
            last_used: Mutex::new(Instant::now()),
            #[cfg(feature = "otel")]
            in_fleet: self.fleet.is_some(),
            principal: OnceLock::new(),
            trusted: AtomicU64::new(0),
            touched: Mutex::new(Instant::now()),
        })
    }

    /// In a fleet: what only a fleet's copy of a session needs, once its id is known.
    fn join_fleet(&self, fleet: &Arc<Fleet>, id: &str, session: &HttpSession) {
        let mut protocol = session.protocol.lock().expect("session poisoned");
        protocol.set_background(fleet.standalone_outbox(id));
        // Ids of requests to the client: strings, after 64 random bits of this copy's.
        protocol.prefix_client_requests(random_id()[..16].to_owned());
    }

    /// Registers a session whose `initialize` succeeded, under a new random id (in a
    /// fleet, in the store too), and starts forwarding list changes to it; refused when a
    /// bound of [`Limits`] is reached.
    pub async fn register(&self, session: &Arc<HttpSession>) -> Result<String, NotOpened> {
        self.start_sweeping();
        let principal = session.principal.get().cloned().flatten();
        let made_room = self.live().make_room(&self.limits, principal.as_deref());
        // Ended outside the table's lock: ending takes each session's own locks.
        for ended in made_room.map_err(NotOpened::Full)? {
            ended.end(self.fleet.is_none());
        }
        let id = random_id();
        if let Some(fleet) = &self.fleet {
            let record = session
                .record()
                .expect("a registered session negotiated a revision");
            fleet
                .store
                .create_session(&id, &record, self.idle_timeout)
                .await
                .map_err(NotOpened::Store)?;
            self.join_fleet(fleet, &id, session);
        }
        self.live().insert(id.clone(), Arc::clone(session));
        forward_changes(Arc::downgrade(session), &self.core);
        Ok(id)
    }

    fn live(&self) -> std::sync::MutexGuard<'_, Table> {
        self.live.lock().expect("session table poisoned")
    }

    /// Starts the task that ends idle sessions, once: on a timer, so that no request
    /// passes over every session.
    fn start_sweeping(&self) {
        if self.sweeping.set(()).is_err() {
            return;
        }
        let (live, closing) = (Arc::downgrade(&self.live), self.closing.clone());
        let (idle_timeout, alone) = (self.idle_timeout, self.fleet.is_none());
        let every = (idle_timeout / 4).clamp(Duration::from_millis(100), Duration::from_secs(60));
        tokio::spawn(async move {
            let mut ticks = tokio::time::interval(every);
            ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                tokio::select! {
                    () = closing.cancelled() => return,
                    _ = ticks.tick() => {}
                }
                let Some(live) = live.upgrade() else { return };
                let now = Instant::now();
                let expired = live
                    .lock()
                    .expect("session table poisoned")
                    .remove_expired(|session| session.idle_at(now, idle_timeout));
                // Ended outside the table's lock: ending takes each session's own locks.
                for session in expired {
                    session.end(alone);
                }
            }
        });
    }

    /// The live session with this id, marked used; in a fleet, as the store has it: this
    /// instance's copy while it is trusted, else read from the store (a copy made here if
    /// this instance has none yet).
    pub async fn get(&self, id: &str) -> Result<Option<Arc<HttpSession>>, StoreError> {
        let Some(fleet) = &self.fleet else {
            return Ok(self.get_alone(id));
        };
        let generation = fleet.hearing.generation();
        if let Some((session, stale_in_store)) = self.trusted_copy(id, generation) {
            if stale_in_store {
                self.touch(fleet, id, &session);
            }
            return Ok(Some(session));
        }
        let handled = fleet.hearing.handled();
        let Some(record) = fleet.store.load_session(id, self.idle_timeout).await? else {
            // Ended or expired elsewhere.
            self.forget(id);
            return Ok(None);
        };
        let mut live = self.live();
        // A note handled meanwhile may be this session's, missed by the copy: not trusted.
        let trust = || generation * u64::from(fleet.hearing.handled() == handled);
        if let Some(session) = live.get(id) {
            let now = Instant::now();
            *session.last_used.lock().expect("session poisoned") = now;
            *session.touched.lock().expect("session poisoned") = now;
            let session = Arc::clone(session);
            drop(live);
            session
                .protocol
                .lock()
                .expect("session poisoned")
                .apply_record(&record);
            // Judged once applied: a reload may have applied a newer record first.
            session.trusted.store(trust(), Ordering::Release);
            return Ok(Some(session));
        }
        let session = self.create();
        session.trusted.store(trust(), Ordering::Release);
        let _ = session.principal.set(record.principal.clone());
        {
            let mut protocol = session.protocol.lock().expect("session poisoned");
            protocol.apply_record(&record);
            if let Some(version) = protocol.negotiated() {
                let _ = session.negotiated.set(version);
            }
        }
        self.join_fleet(fleet, id, &session);
        live.insert(id.to_owned(), Arc::clone(&session));
        drop(live);
        forward_changes(Arc::downgrade(&session), &self.core);
        Ok(Some(session))
    }

    /// This instance's copy of a session, marked used, if it was read from the store under
    /// the subscription of `generation` (0: none), and marked used there within half the
    /// idle timeout (so it cannot have expired there); and whether to mark it used there
    /// again, as it was not for a quarter of the idle timeout (counted as marked from now).
    fn trusted_copy(&self, id: &str, generation: u64) -> Option<(Arc<HttpSession>, bool)> {
        let live = self.live();
        let session = live.get(id)?;
        if generation == 0 || session.trusted.load(Ordering::Acquire) != generation {
            return None;
        }
        let now = Instant::now();
        let mut touched = session.touched.lock().expect("session poisoned");
        let since = now.saturating_duration_since(*touched);
        if since >= self.idle_timeout / 2 {
            return None;
        }
        let stale_in_store = since >= self.idle_timeout / 4;
        *touched = if stale_in_store { now } else { *touched };
        drop(touched);
        *session.last_used.lock().expect("session poisoned") = now;
        Some((Arc::clone(session), stale_in_store))
    }

    /// Marks a session used in the store, in the background: a trusted copy serves without
    /// reading the store, which would.
    fn touch(&self, fleet: &Arc<Fleet>, id: &str, session: &Arc<HttpSession>) {
        let (fleet, live) = (Arc::clone(fleet), Arc::downgrade(&self.live));
        let (id, session, idle) = (id.to_owned(), Arc::downgrade(session), self.idle_timeout);
        tokio::spawn(async move {
            match fleet.store.load_session(&id, idle).await {
                Ok(Some(_)) => {}
                // Expired in the store: ended here too.
                Ok(None) => live
                    .upgrade()
                    .into_iter()
                    .for_each(|live| forget_in(&live, &id)),
                Err(error) => {
                    tracing::debug!(%error, "a session was not marked used in the fleet's store");
                    if let Some(session) = session.upgrade() {
                        session.trusted.store(0, Ordering::Release);
                    }
                }
            }
        });
    }

    fn get_alone(&self, id: &str) -> Option<Arc<HttpSession>> {
        let mut live = self.live();
        let session = live.get(id)?;
        // One reading of the clock and one lock: found expired, or marked used.
        let now = Instant::now();
        let expired = {
            let mut last_used = session.last_used.lock().expect("session poisoned");
            let expired = now.saturating_duration_since(*last_used) > self.idle_timeout;
            if !expired {
                *last_used = now;
            }
            expired
        };
        if expired && !session.busy() {
            let session = live.remove(id);
            drop(live);
            if let Some(session) = session {
                session.end(true);
            }
            return None;
        }
        Some(Arc::clone(session))
    }

    /// This instance's copy of a session, if it has one (the store is not asked).
    pub fn local(&self, id: &str) -> Option<Arc<HttpSession>> {
        self.live().get(id).map(Arc::clone)
    }

    /// Ends and forgets a session (in a fleet: everywhere); false if there was none.
    pub async fn remove(&self, id: &str) -> Result<bool, StoreError> {
        let Some(fleet) = &self.fleet else {
            let removed = self.live().remove(id);
            return Ok(removed.map(|session| session.end(true)).is_some());
        };
        let record = fleet.store.load_session(id, self.idle_timeout).await?;
        let existed = fleet.store.remove_session(id).await?;
        if let Err(error) = fleet.session_ended(id).await {
            // The other instances' copies end when they next find it gone.
            tracing::warn!(%error, "the other instances were not told a session ended");
        }
        let removed = self.live().remove(id);
        match (removed, record) {
            (Some(session), _) => session.end(true),
            (None, Some(record)) => {
                // No copy here: one made for the purpose ends the session's tasks.
                let copy = self.create();
                copy.protocol
                    .lock()
                    .expect("session poisoned")
                    .apply_record(&record);
                copy.end(true);
            }
            (None, None) => {}
        }
        Ok(existed)
    }

    /// Ends this instance's copy of a session that ended elsewhere (its tasks were ended
    /// there).
    pub fn forget(&self, id: &str) {
        forget_in(&self.live, id);
    }

    /// Takes on the record another instance saved, for this instance's copy.
    pub async fn reload(&self, id: &str) {
        let (Some(fleet), Some(session)) = (&self.fleet, self.local(id)) else {
            return;
        };
        match fleet.store.load_session(id, self.idle_timeout).await {
            Ok(Some(record)) => session
                .protocol
                .lock()
                .expect("session poisoned")
                .apply_record(&record),
            Ok(None) => self.forget(id),
            Err(error) => {
                // Read from the store again at its next request.
                session.trusted.store(0, Ordering::Release);
                tracing::warn!(%error, "a session's copy may be out of date");
            }
        }
    }

    /// A session's record before a request that may change it (see [`Sessions::save`]).
    pub fn record_before(&self, session: &HttpSession) -> Option<SessionRecord> {
        self.fleet.as_ref().and_then(|_| session.record())
    }

    /// Saves what a request changed in a session's record since `before`, as a change (two
    /// instances changing one session at once both keep theirs), and tells the other
    /// instances.
    pub async fn save(
        &self,
        id: &str,
        before: Option<SessionRecord>,
        session: &HttpSession,
    ) -> Result<(), StoreError> {
        let (Some(fleet), Some(before), Some(after)) = (&self.fleet, before, session.record())
        else {
            return Ok(());
        };
        let change = SessionChange::between(&before, &after);
        if change.is_empty() {
            return Ok(());
        }
        fleet
            .store
            .change_session(id, &change, self.idle_timeout)
            .await?;
        fleet.session_changed(id).await
    }

    /// Shutdown: no answer to a tool's request to the client can arrive any more (calls in
    /// flight still finish; the sessions' streams end with the endpoint's closing token).
    pub fn disconnect_all(&self) {
        for session in self.live().by_id.values() {
            #[cfg_attr(not(feature = "otel"), allow(unused_mut))]
            let mut protocol = session.protocol.lock().expect("session poisoned");
            protocol.disconnect_client_requests();
            // Alone, the sessions end with the server.
            #[cfg(feature = "otel")]
            if self.fleet.is_none() {
                protocol.record_session_end();
            }
        }
    }
}

/// Ends and removes this instance's copy of session `id` from `live`, if it has one.
fn forget_in(live: &Mutex<Table>, id: &str) {
    let removed = live.lock().expect("session table poisoned").remove(id);
    if let Some(session) = removed {
        session.end(false);
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

#[cfg(test)]
mod tests;
