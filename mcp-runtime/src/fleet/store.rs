//! [`FleetStore`]: what the instances of one server share so that any of them serves any
//! request of a handshake-era session.

use std::collections::BTreeSet;
use std::pin::Pin;
use std::time::Duration;

use futures_util::Stream;
use serde::{Deserialize, Serialize};
use serde_json::Value;

pub use crate::task::{StoreError, StoreFuture};

/// An instance that sent no heartbeat for this long, while the store was reachable, is taken
/// for dead: the streams of its calls end with an error, its unfinished tasks fail.
pub(crate) const HEARTBEAT_TTL: Duration = Duration::from_secs(3);
/// How often an instance sends its heartbeat.
pub(crate) const HEARTBEAT_EVERY: Duration = Duration::from_secs(1);
/// How soon an instance sends its heartbeat again after one failed, so that it is known to
/// be alive as soon as the store is back.
pub(crate) const HEARTBEAT_RETRY: Duration = Duration::from_millis(250);

/// Messages between instances, as a store delivers them (see [`FleetStore::subscribe`]).
pub type FleetMessages = Pin<Box<dyn Stream<Item = String> + Send + 'static>>;

/// What a [`FleetStore::subscribe`] stream yields when its subscription is made, first and
/// again after a break: from now on, every message published reaches this instance. (Not a
/// message any instance sends: those are JSON.)
pub const SUBSCRIBED: &str = "\0subscribed";
/// What a [`FleetStore::subscribe`] stream yields when its subscription breaks: messages
/// published until the next [`SUBSCRIBED`] are not received.
///
/// A store whose stream yields these two, and whose
/// [`publish_counted`](FleetStore::publish_counted) counts, lets each instance keep its copy
/// of a session between requests, trusted while the subscription holds: the instance that
/// ends or changes a session waits until every instance listening has heard. With any other
/// store, an instance reads the session from the store on every request.
pub const UNSUBSCRIBED: &str = "\0unsubscribed";

/// What a handshake-era session is, as every instance needs to know it to serve its
/// requests: what `initialize` negotiated and what the client asked for since.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct SessionRecord {
    /// The negotiated protocol revision, e.g. `2025-11-25`.
    pub protocol_version: String,
    /// The client's `clientInfo`.
    pub client_info: Option<Value>,
    /// The client's `capabilities`.
    pub client_capabilities: Value,
    /// The level `logging/setLevel` set, if any (`debug` … `emergency`).
    pub log_level: Option<String>,
    /// The resource URIs the client subscribed to.
    pub subscriptions: BTreeSet<String>,
    /// Who owns the tasks the session makes.
    pub task_owner: String,
    /// The identity of the principal that opened the session ([`Server::task_owner`]'s key
    /// for it), if it has one: a request from another principal finds no such session.
    ///
    /// [`Server::task_owner`]: crate::Server::task_owner
    #[serde(default)]
    pub principal: Option<String>,
}

impl SessionRecord {
    /// A record of a session that negotiated `protocol_version`, with nothing else set.
    pub fn new(protocol_version: impl Into<String>, task_owner: impl Into<String>) -> Self {
        SessionRecord {
            protocol_version: protocol_version.into(),
            client_info: None,
            client_capabilities: Value::Object(Default::default()),
            log_level: None,
            subscriptions: BTreeSet::new(),
            task_owner: task_owner.into(),
            principal: None,
        }
    }
}

/// What a request changed in a session's record: the subscriptions it added and removed,
/// and the log level it set. Applied as a change, not by replacing the record, so that two
/// instances changing one session at once both keep theirs.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct SessionChange {
    /// Resource URIs subscribed to.
    pub subscribe: Vec<String>,
    /// Resource URIs unsubscribed from.
    pub unsubscribe: Vec<String>,
    /// The log level set, if one was.
    pub log_level: Option<String>,
}

impl SessionChange {
    /// What changed from `before` to `after`.
    pub fn between(before: &SessionRecord, after: &SessionRecord) -> Self {
        SessionChange {
            subscribe: after
                .subscriptions
                .difference(&before.subscriptions)
                .cloned()
                .collect(),
            unsubscribe: before
                .subscriptions
                .difference(&after.subscriptions)
                .cloned()
                .collect(),
            log_level: (after.log_level != before.log_level)
                .then(|| after.log_level.clone())
                .flatten(),
        }
    }

    /// Whether nothing changed.
    pub fn is_empty(&self) -> bool {
        self.subscribe.is_empty() && self.unsubscribe.is_empty() && self.log_level.is_none()
    }

    /// Makes the change to `record`.
    pub fn apply(&self, record: &mut SessionRecord) {
        record.subscriptions.extend(self.subscribe.iter().cloned());
        for uri in &self.unsubscribe {
            record.subscriptions.remove(uri);
        }
        if let Some(level) = &self.log_level {
            record.log_level = Some(level.clone());
        }
    }
}

/// One resumable stream: a session's id and the stream's number in it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct StreamKey {
    /// The session (its `Mcp-Session-Id`).
    pub session: String,
    /// The stream's number, the first part of its event ids.
    pub number: u64,
}

/// Where a response stream comes from: the instance running the requests it answers, and
/// their JSON-RPC ids (an array).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct StreamOrigin {
    /// The instance running the requests.
    pub runner: String,
    /// The ids of the requests (an array; one id but for a batch).
    pub requests: Value,
}

impl StreamOrigin {
    /// The stream of `requests`, run by `runner`.
    pub fn new(runner: impl Into<String>, requests: Value) -> Self {
        StreamOrigin {
            runner: runner.into(),
            requests,
        }
    }
}

/// One event to append to a stream.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct StreamEvent {
    /// Its sequence number, the second part of its id.
    pub seq: u64,
    /// The JSON-RPC message it carries (empty for a priming event).
    pub data: std::sync::Arc<str>,
    /// Whether it is the stream's response, its last event.
    pub last: bool,
}

impl StreamEvent {
    /// Event `seq` carrying `data`; `last` for the response.
    pub fn new(seq: u64, data: impl Into<std::sync::Arc<str>>, last: bool) -> Self {
        StreamEvent {
            seq,
            data: data.into(),
            last,
        }
    }
}

/// How much of a stream a store keeps, and how long.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct StreamBounds {
    /// At most this many events…
    pub max_events: usize,
    /// …and at most this many bytes of them.
    pub max_bytes: usize,
    /// How long the stream is kept after this append.
    pub retain: Duration,
}

impl StreamBounds {
    /// Bounds of `max_events` events and `max_bytes` bytes, the stream kept for `retain`.
    pub fn new(max_events: usize, max_bytes: usize, retain: Duration) -> Self {
        StreamBounds {
            max_events,
            max_bytes,
            retain,
        }
    }
}

/// One stream's append among several (see [`FleetStore::append_many`]): what
/// [`append_events`](FleetStore::append_events) takes.
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub struct StreamAppend<'a> {
    /// The stream.
    pub stream: &'a StreamKey,
    /// Its origin, to create it if it is not stored yet.
    pub origin: Option<&'a StreamOrigin>,
    /// The events, in order.
    pub events: &'a [StreamEvent],
    /// How much of it to keep, and how long.
    pub bounds: StreamBounds,
}

impl<'a> StreamAppend<'a> {
    /// An append of `events` to `stream`.
    pub fn new(
        stream: &'a StreamKey,
        origin: Option<&'a StreamOrigin>,
        events: &'a [StreamEvent],
        bounds: StreamBounds,
    ) -> Self {
        StreamAppend {
            stream,
            origin,
            events,
            bounds,
        }
    }
}

/// What a store holds of a stream: the events after the one asked for, and its state.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct StreamEvents {
    /// The retained events after the one asked for, oldest first: sequence number and data.
    pub events: Vec<(u64, String)>,
    /// Whether the stream ended (its last event is its response).
    pub ended: bool,
    /// The instance running the stream's requests.
    pub runner: String,
    /// The JSON-RPC ids of the requests the stream answers (an array).
    pub requests: Value,
    /// The reader that last claimed the stream (see
    /// [`claim_stream`](FleetStore::claim_stream)), if the store keeps it.
    pub reader: Option<String>,
}

impl StreamEvents {
    /// A stream's events and state, as a store read them.
    pub fn new(events: Vec<(u64, String)>, ended: bool, runner: String, requests: Value) -> Self {
        StreamEvents {
            events,
            ended,
            runner,
            requests,
            reader: None,
        }
    }

    /// The same, with the reader that last claimed the stream.
    pub fn with_reader(mut self, reader: Option<String>) -> Self {
        self.reader = reader;
        self
    }
}

/// Where the instances of one server keep what they share: handshake-era sessions, the
/// events of resumable response streams, which instances are alive, and a channel for
/// messages between them. With one, a load balancer may send any request to any instance,
/// with no sticky routing.
///
/// [`HttpServer::redis`](crate::HttpServer::redis) plugs in the Redis one (the reference
/// implementation, [`RedisFleetStore`](super::RedisFleetStore)); another database plugs in
/// through [`HttpServer::fleet_store`](crate::HttpServer::fleet_store). Tasks have a store of their
/// own ([`TaskStore`](crate::TaskStore)).
///
/// Every method may fail with [`StoreError`] (the database is unreachable, say): the
/// request that needed it is answered with an error saying the store is unavailable (HTTP
/// 503), and the next one tries again.
pub trait FleetStore: Send + Sync + 'static {
    /// Stores a new session, which expires after `idle` without use.
    fn create_session<'a>(
        &'a self,
        id: &'a str,
        record: &'a SessionRecord,
        idle: Duration,
    ) -> StoreFuture<'a, ()>;

    /// The session, marked used (it now expires `idle` from now); `None` if it ended or
    /// expired.
    fn load_session<'a>(
        &'a self,
        id: &'a str,
        idle: Duration,
    ) -> StoreFuture<'a, Option<SessionRecord>>;

    /// Replaces a live session's record (its log level or subscriptions changed). A session
    /// that ended meanwhile stays ended.
    fn save_session<'a>(
        &'a self,
        id: &'a str,
        record: &'a SessionRecord,
        idle: Duration,
    ) -> StoreFuture<'a, ()>;

    /// Makes `change` to a live session's record (a session that ended stays ended). A
    /// store that can makes it in one atomic step, so that changes two instances make to
    /// one session at once are both kept; this default loads the record, changes it and
    /// saves it, which can lose one of two concurrent changes.
    fn change_session<'a>(
        &'a self,
        id: &'a str,
        change: &'a SessionChange,
        idle: Duration,
    ) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            if let Some(mut record) = self.load_session(id, idle).await? {
                change.apply(&mut record);
                self.save_session(id, &record, idle).await?;
            }
            Ok(())
        })
    }

    /// Ends a session; false if there was none.
    fn remove_session<'a>(&'a self, id: &'a str) -> StoreFuture<'a, bool>;

    /// Appends `events` (in order) to a stream, unless the stream ended; an event marked
    /// `last` ends it. With `origin`, a stream not stored yet is created (its first events);
    /// without, only a stored one takes them. The oldest events go once the stream is over
    /// `bounds` (the newest is always kept), and the stream is kept `bounds.retain` from now.
    /// False if nothing was added (the stream had ended, or is unknown without `origin`).
    /// Appending and the checks are one atomic step, so that of two instances that end a
    /// stream (its runner with the response, another with an error because the runner died)
    /// exactly one does.
    fn append_events<'a>(
        &'a self,
        stream: &'a StreamKey,
        origin: Option<&'a StreamOrigin>,
        events: &'a [StreamEvent],
        bounds: StreamBounds,
    ) -> StoreFuture<'a, bool>;

    /// Appends to several streams, each as [`append_events`](FleetStore::append_events)
    /// would, and says for each whether it added anything. A store that can does them all
    /// in one round trip: an instance gathers the appends of the calls it answers within a
    /// millisecond into one. This default makes them one after the other.
    fn append_many<'a>(&'a self, appends: &'a [StreamAppend<'a>]) -> StoreFuture<'a, Vec<bool>> {
        Box::pin(async move {
            let mut added = Vec::with_capacity(appends.len());
            for append in appends {
                let StreamAppend {
                    stream,
                    origin,
                    events,
                    bounds,
                } = *append;
                added.push(self.append_events(stream, origin, events, bounds).await?);
            }
            Ok(added)
        })
    }

    /// The stream's retained events after `after` (all when `None`), and its state; `None`
    /// for a stream not retained.
    fn read_events<'a>(
        &'a self,
        stream: &'a StreamKey,
        after: Option<u64>,
    ) -> StoreFuture<'a, Option<StreamEvents>>;

    /// Makes `reader` the stream's reader: a client that resumes a stream again (on any
    /// instance) takes it over from the connection that read it before, whose reader sees
    /// another's id in [`StreamEvents::reader`] and ends. False if the stream is not kept.
    /// This default keeps no reader: an earlier reader then ends only when its client is
    /// found gone.
    fn claim_stream<'a>(&'a self, stream: &'a StreamKey, reader: &'a str) -> StoreFuture<'a, bool> {
        let _ = (stream, reader);
        Box::pin(async { Ok(true) })
    }

    /// Marks `instance` alive for `ttl`; instances call this well within it.
    fn heartbeat<'a>(&'a self, instance: &'a str, ttl: Duration) -> StoreFuture<'a, ()>;

    /// Whether `instance` may be alive: false only when it sent no heartbeat within its ttl
    /// while the store was reachable (an instance whose heartbeat lapsed during an outage
    /// of the store is alive until it has had the time to beat again).
    fn is_alive<'a>(&'a self, instance: &'a str) -> StoreFuture<'a, bool>;

    /// Appends `events` (the error for the requests of a stream whose runner died) only if
    /// `runner` is not alive (see [`is_alive`](FleetStore::is_alive)), with no `origin`; false
    /// if nothing was added. A store that can should check and append in one atomic step,
    /// so that a runner that beats again meanwhile keeps its response; this default checks,
    /// then appends.
    fn end_for_dead_runner<'a>(
        &'a self,
        stream: &'a StreamKey,
        runner: &'a str,
        events: &'a [StreamEvent],
        bounds: StreamBounds,
    ) -> StoreFuture<'a, bool> {
        Box::pin(async move {
            if self.is_alive(runner).await? {
                return Ok(false);
            }
            self.append_events(stream, None, events, bounds).await
        })
    }

    /// Records `key` for `ttl` unless it is recorded already, in one atomic step: `Some(true)`
    /// if this recorded it, `Some(false)` if it was there (another instance, or an earlier
    /// call, recorded it within its ttl). What a fleet uses to refuse a DPoP proof replayed
    /// to another instance. This default records nothing and says `None`: each instance then
    /// remembers what it saw by itself.
    fn record_once<'a>(&'a self, key: &'a str, ttl: Duration) -> StoreFuture<'a, Option<bool>> {
        let _ = (key, ttl);
        Box::pin(async { Ok(None) })
    }

    /// Sends a message to every instance (this one included) that subscribed.
    fn publish<'a>(&'a self, message: &'a str) -> StoreFuture<'a, ()>;

    /// Sends a message as [`publish`](FleetStore::publish) does, and says how many
    /// subscriptions received it (this instance's included), if the store can tell (see
    /// [`UNSUBSCRIBED`]). This default cannot: it publishes and says `None`.
    fn publish_counted<'a>(&'a self, message: &'a str) -> StoreFuture<'a, Option<usize>> {
        Box::pin(async move { self.publish(message).await.map(|()| None) })
    }

    /// The messages published from now on. The stream keeps going across failures of the
    /// database (it reconnects; what was published while it was down is lost) and ends only
    /// when the store is dropped. A store that can tell yields [`SUBSCRIBED`] and
    /// [`UNSUBSCRIBED`] as its subscription is made and breaks.
    fn subscribe(&self) -> FleetMessages;
}
