//! [`RedisFleetStore`]: sessions, stream events, heartbeats and messages between
//! instances, in Redis.
//!
//! Keys (after the link's prefix):
//!
//! - `session:ID`: the session's record (JSON), expiring after the idle timeout, pushed
//!   back on every use; its subscriptions and log level as they change live beside it, in
//!   `session:ID:subscriptions` (a set) and `session:ID:level`, so that a change is one
//!   atomic command and two instances changing one session at once both keep theirs;
//! - `stream:SESSION:N:events`: a list of the stream's events, each `SEQ:DATA`, trimmed to
//!   the newest `max_events` and `max_bytes` (the newest is always kept);
//! - `stream:SESSION:N:meta`: a hash: `runner` (instance), `requests` (JSON ids), `ended`,
//!   `bytes` (the size of the events kept), `seq` (the newest event's number), `reader`
//!   (the connection that resumed it last);
//! - `stream:SESSION:N:whole`: instead of those two, a stream stored whole at once, first
//!   event to last (a call answered within one gathering of the instance's appends): one
//!   `SET`, no script;
//! - `instance:ID`: present while the instance sends heartbeats;
//! - `fleet:pulse` and `fleet:calm`: when (by Redis's clock, in ms) the last heartbeat of any
//!   instance came, and when the last gap in them ended: an instance whose key lapsed is
//!   dead only once the heartbeats have come without a gap for a grace period (see the
//!   link's `LIVENESS`), so that an outage of Redis kills nobody;
//! - channel `fleet`: messages between instances.

use std::time::Duration;

use redis::{ErrorKind, Script, ScriptInvocation, ServerErrorKind, ToRedisArgs};
use serde_json::Value;
use tokio::sync::mpsc;

use super::link::{LIVENESS, RedisLink};
use super::subscription::{Heard, listen};
use crate::fleet::store::{
    FleetMessages, FleetStore, SUBSCRIBED, SessionChange, SessionRecord, StoreError, StoreFuture,
    StreamAppend, StreamBounds, StreamEvent, StreamEvents, StreamKey, StreamOrigin, UNSUBSCRIBED,
};

/// `append(events key, meta key, a, o)`: appends events to a stream unless it ended (or,
/// without a runner, is not known); 1 if it added any, else 0. Atomic (a script), so that
/// the runner's response and another instance's error for a dead runner never both land. An
/// event older than the newest stored is skipped (but for a stream's last), so that a batch
/// sent again after a timeout, which Redis may have run after all, is not doubled. Its
/// arguments are `a[o + 1]` on: max events, max bytes, retain (ms), runner ('' for none),
/// requests, the number of events, then seq, data, last ('1' or '0') per event. A new
/// stream, as a call answered at once makes, reads nothing: its events are trimmed here.
const APPEND: &str = r#"
local function append(events_key, meta, a, o)
  local max_events, max_bytes, retain = tonumber(a[o + 1]), tonumber(a[o + 2]), a[o + 3]
  local runner, first, last = a[o + 4], o + 7, o + 6 + 3 * tonumber(a[o + 6])
  if runner ~= '' and redis.call('EXISTS', meta) == 0 then
    local pushed, sizes, bytes, newest, ended = {}, {}, 0, -1, '0'
    for i = first, last, 3 do
      local event = a[i] .. ':' .. a[i + 1]
      pushed[#pushed + 1] = event
      sizes[#sizes + 1] = string.len(event)
      bytes = bytes + sizes[#sizes]
      newest = math.max(newest, tonumber(a[i]))
      if a[i + 2] == '1' then ended = '1' break end
    end
    local drop = 0
    while #pushed - drop > 1 and (#pushed - drop > max_events or bytes > max_bytes) do
      drop = drop + 1
      bytes = bytes - sizes[drop]
    end
    redis.call('HSET', meta, 'runner', runner, 'requests', a[o + 5], 'ended', ended, 'bytes', bytes, 'seq', newest)
    redis.call('RPUSH', events_key, unpack(pushed, drop + 1))
    redis.call('PEXPIRE', events_key, retain)
    redis.call('PEXPIRE', meta, retain)
    return 1
  end
  if redis.call('EXISTS', meta) == 0 or redis.call('HGET', meta, 'ended') == '1' then
    return 0
  end
  local count = redis.call('LLEN', events_key)
  local bytes = tonumber(redis.call('HGET', meta, 'bytes') or '0')
  local newest = tonumber(redis.call('HGET', meta, 'seq') or '-1')
  for i = first, last, 3 do
    if a[i + 2] == '1' or tonumber(a[i]) > newest then
      local event = a[i] .. ':' .. a[i + 1]
      count = redis.call('RPUSH', events_key, event)
      bytes = bytes + string.len(event)
      newest = math.max(newest, tonumber(a[i]))
      if a[i + 2] == '1' then
        redis.call('HSET', meta, 'ended', '1')
        break
      end
    end
  end
  redis.call('HSET', meta, 'seq', newest)
  while count > 1 and (count > max_events or bytes > max_bytes) do
    bytes = bytes - string.len(redis.call('LPOP', events_key))
    count = count - 1
  end
  redis.call('HSET', meta, 'bytes', bytes)
  redis.call('PEXPIRE', events_key, retain)
  redis.call('PEXPIRE', meta, retain)
  return 1
end
"#;

/// Appends to the streams of KEYS (two keys each: events, meta), their arguments one after
/// the other in ARGV (see [`APPEND`]): what each added.
const APPEND_MANY: &str = r#"
local added, o = {}, 0
for s = 1, #KEYS / 2 do
  added[s] = append(KEYS[2 * s - 1], KEYS[2 * s], ARGV, o)
  o = o + 6 + 3 * tonumber(ARGV[o + 6])
end
return added
"#;

/// Ends the stream of a dead runner: appends only while the instance (KEYS 3; KEYS 4 and 5
/// the fleet's pulse and calm, ARGV 1 and 2 the gap and grace period) is dead, checked in
/// the same atomic step. The append's arguments follow.
const APPEND_IF_DEAD: &str = r#"
if not runner_dead(KEYS[3], KEYS[4], KEYS[5], ARGV[1], ARGV[2]) then return 0 end
return append(KEYS[1], KEYS[2], ARGV, 2)
"#;

/// A stream's events after ARGV 1 (all when empty), with its runner, requests and whether
/// it ended; nil for a stream not kept. Read from the newest back only as far as the
/// events not yet delivered can reach: no more of them are kept than the sequence numbers
/// after ARGV 1 (some may have been dropped), so a reader that keeps up reads only what
/// is new, not the whole list on every poll.
const READ: &str = r#"
local whole = redis.call('GET', KEYS[3])
if whole then return {{whole}, '', '', 'whole', ''} end
local meta = redis.call('HMGET', KEYS[2], 'runner', 'requests', 'ended', 'seq', 'reader')
if not meta[1] or not meta[2] then return false end
local first = 0
if ARGV[1] ~= '' then
  local newer = tonumber(meta[4] or '-1') - tonumber(ARGV[1])
  if newer <= 0 then return {{}, meta[1], meta[2], meta[3] or '', meta[5] or ''} end
  first = -newer
end
return {redis.call('LRANGE', KEYS[1], first, -1), meta[1], meta[2], meta[3] or '', meta[5] or ''}
"#;

/// Makes ARGV 1 the reader of a kept stream (KEYS 1, its meta hash).
const CLAIM: &str = r#"
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], 'reader', ARGV[1])
return 1
"#;

/// Writes a session's record (KEYS 1, its subscriptions and level KEYS 2 and 3): ARGV 1 the
/// JSON, 2 the idle timeout in ms, 3 the level (empty for none), the subscriptions after.
/// The prelude `SAVE_IF_LIVE` leaves an ended session ended.
const WRITE: &str = r#"
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
redis.call('DEL', KEYS[2])
for i = 4, #ARGV do redis.call('SADD', KEYS[2], ARGV[i]) end
redis.call('PEXPIRE', KEYS[2], ARGV[2])
if ARGV[3] == '' then redis.call('DEL', KEYS[3]) else redis.call('SET', KEYS[3], ARGV[3], 'PX', ARGV[2]) end
return 1
"#;

/// See [`WRITE`].
const SAVE_IF_LIVE: &str = "if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end\n";

/// A session's record with its subscriptions and level, marked used (ARGV 1 the idle
/// timeout in ms); nil if it ended.
const LOAD: &str = r#"
local json = redis.call('GET', KEYS[1])
if not json then return false end
for i = 1, 3 do redis.call('PEXPIRE', KEYS[i], ARGV[1]) end
return {json, redis.call('SMEMBERS', KEYS[2]), redis.call('GET', KEYS[3])}
"#;

/// Changes a live session: ARGV 1 the idle timeout in ms, 2 the level set (empty for none),
/// 3 how many URIs to subscribe to; those URIs, then the ones to unsubscribe from.
const CHANGE: &str = r#"
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
local added = tonumber(ARGV[3])
for i = 4, 3 + added do redis.call('SADD', KEYS[2], ARGV[i]) end
for i = 4 + added, #ARGV do redis.call('SREM', KEYS[2], ARGV[i]) end
if ARGV[2] ~= '' then redis.call('SET', KEYS[3], ARGV[2]) end
for i = 1, 3 do redis.call('PEXPIRE', KEYS[i], ARGV[1]) end
return 1
"#;

/// The Redis [`FleetStore`]: see [`HttpServer::redis`](crate::HttpServer::redis), which makes one
/// (with a [`RedisTaskStore`](super::RedisTaskStore) on the same connection).
#[derive(Debug, Clone)]
pub struct RedisFleetStore {
    link: RedisLink,
    append_many: Script,
    append_if_dead: Script,
    read: Script,
    claim: Script,
    create: Script,
    save: Script,
    load: Script,
    change: Script,
}

fn millis(duration: Duration) -> u64 {
    u64::try_from(duration.as_millis())
        .unwrap_or(u64::MAX)
        .max(1)
}

impl RedisFleetStore {
    /// A fleet store on `link`.
    pub fn new(link: RedisLink) -> Self {
        RedisFleetStore {
            link,
            append_many: Script::new(&format!("{APPEND}{APPEND_MANY}")),
            append_if_dead: Script::new(&format!("{LIVENESS}{APPEND}{APPEND_IF_DEAD}")),
            read: Script::new(READ),
            claim: Script::new(CLAIM),
            create: Script::new(WRITE),
            save: Script::new(&format!("{SAVE_IF_LIVE}{WRITE}")),
            load: Script::new(LOAD),
            change: Script::new(CHANGE),
        }
    }

    /// A session's keys: its record, its subscriptions and its log level.
    fn session_keys(&self, id: &str) -> [String; 3] {
        [
            self.link.key(format_args!("session:{id}")),
            self.link.key(format_args!("session:{id}:subscriptions")),
            self.link.key(format_args!("session:{id}:level")),
        ]
    }

    /// Writes a session's record with `script` (see [`WRITE`]).
    async fn write_session(
        &self,
        script: &Script,
        id: &str,
        record: &SessionRecord,
        idle: Duration,
    ) -> Result<(), StoreError> {
        // The subscriptions and level live in their own keys only (see `LOAD`).
        let json = Self::encode(&SessionRecord {
            subscriptions: Default::default(),
            log_level: None,
            ..record.clone()
        })?;
        let mut invocation = self.on_session(script, id);
        invocation
            .arg(json)
            .arg(millis(idle))
            .arg(record.log_level.as_deref().unwrap_or(""));
        for uri in &record.subscriptions {
            invocation.arg(uri);
        }
        self.run(invocation).await
    }

    /// `script` invoked on session `id`'s keys.
    fn on_session<'s>(&self, script: &'s Script, id: &str) -> ScriptInvocation<'s> {
        let mut invocation = script.prepare_invoke();
        for key in self.session_keys(id) {
            invocation.key(key);
        }
        invocation
    }

    /// Runs a script for what it does (its count is not read).
    async fn run(&self, invocation: ScriptInvocation<'_>) -> Result<(), StoreError> {
        let mut connection = self.link.connection();
        invocation
            .invoke_async::<i64>(&mut connection)
            .await
            .map(drop)
            .map_err(|error| self.link.unavailable(error))
    }

    /// Writes a stream's key ending in `part` (`:events`, `:meta`) into `key`.
    fn stream_key(&self, key: &mut String, stream: &StreamKey, part: &str) {
        key.clear();
        key.push_str(self.link.prefix());
        key.push_str("stream:");
        key.push_str(&stream.session);
        key.push(':');
        key.push_str(itoa::Buffer::new().format(stream.number));
        key.push_str(part);
    }

    /// A stream's keys: its events and its meta hash.
    fn stream_keys(&self, stream: &StreamKey) -> (String, String) {
        let (mut events, mut meta) = (String::new(), String::new());
        self.stream_key(&mut events, stream, ":events");
        self.stream_key(&mut meta, stream, ":meta");
        (events, meta)
    }

    fn channel(&self) -> String {
        self.link.key("fleet")
    }

    fn encode(record: &SessionRecord) -> Result<String, StoreError> {
        serde_json::to_string(record).map_err(|error| StoreError(error.to_string()))
    }
}

impl FleetStore for RedisFleetStore {
    fn create_session<'a>(
        &'a self,
        id: &'a str,
        record: &'a SessionRecord,
        idle: Duration,
    ) -> StoreFuture<'a, ()> {
        Box::pin(self.write_session(&self.create, id, record, idle))
    }

    fn load_session<'a>(
        &'a self,
        id: &'a str,
        idle: Duration,
    ) -> StoreFuture<'a, Option<SessionRecord>> {
        Box::pin(async move {
            let mut invocation = self.on_session(&self.load, id);
            let mut connection = self.link.connection();
            let loaded: Option<(String, Vec<String>, Option<String>)> = invocation
                .arg(millis(idle))
                .invoke_async(&mut connection)
                .await
                .map_err(|error| self.link.unavailable(error))?;
            let Some((json, subscriptions, level)) = loaded else {
                return Ok(None);
            };
            let mut record: SessionRecord = serde_json::from_str(&json)
                .map_err(|error| StoreError(format!("a session record in Redis: {error}")))?;
            record.subscriptions = subscriptions.into_iter().collect();
            if level.is_some() {
                record.log_level = level;
            }
            Ok(Some(record))
        })
    }

    fn save_session<'a>(
        &'a self,
        id: &'a str,
        record: &'a SessionRecord,
        idle: Duration,
    ) -> StoreFuture<'a, ()> {
        Box::pin(self.write_session(&self.save, id, record, idle))
    }

    fn change_session<'a>(
        &'a self,
        id: &'a str,
        change: &'a SessionChange,
        idle: Duration,
    ) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            let mut invocation = self.on_session(&self.change, id);
            invocation
                .arg(millis(idle))
                .arg(change.log_level.as_deref().unwrap_or(""))
                .arg(change.subscribe.len());
            for uri in change.subscribe.iter().chain(&change.unsubscribe) {
                invocation.arg(uri);
            }
            self.run(invocation).await
        })
    }

    fn remove_session<'a>(&'a self, id: &'a str) -> StoreFuture<'a, bool> {
        Box::pin(async move {
            let [record, subscriptions, level] = self.session_keys(id);
            let mut connection = self.link.connection();
            let (removed, _): (i64, i64) = redis::pipe()
                .atomic()
                .del(record)
                .del(&[subscriptions, level])
                .query_async(&mut connection)
                .await
                .map_err(|error| self.link.unavailable(error))?;
            Ok(removed > 0)
        })
    }

    fn append_events<'a>(
        &'a self,
        stream: &'a StreamKey,
        origin: Option<&'a StreamOrigin>,
        events: &'a [StreamEvent],
        bounds: StreamBounds,
    ) -> StoreFuture<'a, bool> {
        Box::pin(async move {
            let append = [StreamAppend::new(stream, origin, events, bounds)];
            let added = self.append_many(&append).await?;
            Ok(added.first().copied().unwrap_or(false))
        })
    }

    fn append_many<'a>(&'a self, appends: &'a [StreamAppend<'a>]) -> StoreFuture<'a, Vec<bool>> {
        Box::pin(async move {
            let shape: Vec<Shape> = appends.iter().map(Shape::of).collect();
            let scripted = || {
                appends
                    .iter()
                    .zip(&shape)
                    .filter(|(_, shape)| **shape == Shape::Scripted)
                    .map(|(append, _)| append)
            };
            // One pipeline: a `SET` per whole stream, then one script for the others, each
            // key and argument written straight into its command (a `ScriptInvocation`
            // would hold each in a buffer of its own, then copy them all).
            let mut pipe = redis::pipe();
            let mut key = String::new();
            for (append, _) in appends
                .iter()
                .zip(&shape)
                .filter(|(_, shape)| **shape == Shape::Whole)
            {
                self.stream_key(&mut key, append.stream, ":whole");
                pipe.cmd("SET")
                    .arg(&key)
                    .arg(whole_stream(append))
                    .arg("PX")
                    .arg(millis(append.bounds.retain))
                    .arg("NX");
            }
            let scripts = scripted().count();
            if scripts > 0 {
                let call = pipe
                    .cmd("EVALSHA")
                    .arg(self.append_many.get_hash())
                    .arg(2 * scripts);
                for append in scripted() {
                    for part in [":events", ":meta"] {
                        self.stream_key(&mut key, append.stream, part);
                        call.arg(&key);
                    }
                }
                for append in scripted() {
                    add_append_args(call, append.origin, append.events, append.bounds);
                }
            }
            if shape.iter().all(|shape| *shape == Shape::Empty) {
                return Ok(vec![false; appends.len()]);
            }
            let mut connection = self.link.connection();
            let mut replies = pipe.query_async::<Vec<redis::Value>>(&mut connection).await;
            if matches!(&replies, Err(error) if error.kind() == ErrorKind::Server(ServerErrorKind::NoScript))
            {
                // Redis restarted, or flushed its scripts: loaded again, tried again (a
                // whole stream's `SET` again finds it set).
                self.append_many
                    .prepare_invoke()
                    .load_async(&mut connection)
                    .await
                    .map_err(|error| self.link.unavailable(error))?;
                replies = pipe.query_async(&mut connection).await;
            }
            let mut replies = replies
                .map_err(|error| self.link.unavailable(error))?
                .into_iter();
            let mut set = Vec::new();
            for shape in &shape {
                if *shape == Shape::Whole {
                    set.push(matches!(replies.next(), Some(redis::Value::Okay)));
                }
            }
            let mut scripted = match replies.next() {
                Some(redis::Value::Array(added)) => added,
                _ => Vec::new(),
            }
            .into_iter();
            let mut set = set.into_iter();
            Ok(shape
                .iter()
                .map(|shape| match shape {
                    Shape::Empty => false,
                    Shape::Whole => set.next().unwrap_or(false),
                    Shape::Scripted => matches!(scripted.next(), Some(redis::Value::Int(1))),
                })
                .collect())
        })
    }

    fn read_events<'a>(
        &'a self,
        stream: &'a StreamKey,
        after: Option<u64>,
    ) -> StoreFuture<'a, Option<StreamEvents>> {
        Box::pin(async move {
            let (events, meta) = self.stream_keys(stream);
            let mut whole = String::new();
            self.stream_key(&mut whole, stream, ":whole");
            let mut connection = self.link.connection();
            let read: Option<(Vec<String>, String, String, String, String)> = self
                .read
                .key(&events)
                .key(&meta)
                .key(&whole)
                .arg(after.map_or_else(String::new, |after| after.to_string()))
                .invoke_async(&mut connection)
                .await
                .map_err(|error| self.link.unavailable(error))?;
            let Some((lines, runner, requests, ended, reader)) = read else {
                return Ok(None);
            };
            if ended == "whole" {
                let value = lines.first().map_or("", String::as_str);
                let read = read_whole_stream(value, after)
                    .ok_or_else(|| StoreError("a stream in Redis could not be read".into()))?;
                return Ok(Some(read));
            }
            let events = lines
                .into_iter()
                .filter_map(|line| {
                    let (seq, data) = line.split_once(':')?;
                    Some((seq.parse::<u64>().ok()?, data.to_owned()))
                })
                .filter(|(seq, _)| after.is_none_or(|after| *seq > after))
                .collect();
            let requests = serde_json::from_str(&requests).unwrap_or(Value::Null);
            Ok(Some(
                StreamEvents::new(events, ended == "1", runner, requests)
                    .with_reader(Some(reader).filter(|reader| !reader.is_empty())),
            ))
        })
    }

    fn claim_stream<'a>(&'a self, stream: &'a StreamKey, reader: &'a str) -> StoreFuture<'a, bool> {
        Box::pin(async move {
            let (_, meta) = self.stream_keys(stream);
            let mut connection = self.link.connection();
            let claimed: i64 = self
                .claim
                .key(&meta)
                .arg(reader)
                .invoke_async(&mut connection)
                .await
                .map_err(|error| self.link.unavailable(error))?;
            Ok(claimed == 1)
        })
    }

    fn heartbeat<'a>(&'a self, instance: &'a str, ttl: Duration) -> StoreFuture<'a, ()> {
        Box::pin(self.link.heartbeat(instance, ttl))
    }

    fn record_once<'a>(&'a self, key: &'a str, ttl: Duration) -> StoreFuture<'a, Option<bool>> {
        Box::pin(async move {
            let mut connection = self.link.connection();
            let key = self.link.key(format_args!("once:{key}"));
            let set: Option<String> = redis::cmd("SET")
                .arg(key)
                .arg(1)
                .arg("NX")
                .arg("PX")
                .arg(ttl.as_millis().max(1) as u64)
                .query_async(&mut connection)
                .await
                .map_err(|error| self.link.unavailable(error))?;
            Ok(Some(set.is_some()))
        })
    }

    fn is_alive<'a>(&'a self, instance: &'a str) -> StoreFuture<'a, bool> {
        Box::pin(self.link.is_alive(instance))
    }

    fn end_for_dead_runner<'a>(
        &'a self,
        stream: &'a StreamKey,
        runner: &'a str,
        events: &'a [StreamEvent],
        bounds: StreamBounds,
    ) -> StoreFuture<'a, bool> {
        Box::pin(async move {
            if events.is_empty() {
                return Ok(false);
            }
            let (events_key, meta) = self.stream_keys(stream);
            let (pulse, calm) = self.link.pulse_keys();
            let (gap, grace) = RedisLink::liveness_args();
            let mut invocation = self.append_if_dead.key(events_key);
            invocation
                .key(meta)
                .key(self.link.instance_key(runner))
                .key(pulse)
                .key(calm)
                .arg(gap)
                .arg(grace);
            add_append_args(&mut invocation, None, events, bounds);
            let mut connection = self.link.connection();
            invocation
                .invoke_async::<i64>(&mut connection)
                .await
                .map(|appended| appended == 1)
                .map_err(|error| self.link.unavailable(error))
        })
    }

    fn publish<'a>(&'a self, message: &'a str) -> StoreFuture<'a, ()> {
        Box::pin(async move { self.publish_counted(message).await.map(drop) })
    }

    fn publish_counted<'a>(&'a self, message: &'a str) -> StoreFuture<'a, Option<usize>> {
        Box::pin(async move {
            let mut connection = self.link.connection();
            redis::cmd("PUBLISH")
                .arg(self.channel())
                .arg(message)
                .query_async::<usize>(&mut connection)
                .await
                .map(Some)
                .map_err(|error| self.link.unavailable(error))
        })
    }

    fn subscribe(&self) -> FleetMessages {
        let (sender, receiver) = mpsc::unbounded_channel();
        let client = self.link.client().clone();
        let channel = self.channel();
        tokio::spawn(async move {
            let hear = |heard| {
                let text = match heard {
                    Heard::Subscribed => SUBSCRIBED.to_owned(),
                    Heard::Message(text) => text,
                    Heard::Broke => UNSUBSCRIBED.to_owned(),
                };
                let _ = sender.send(text);
            };
            listen(
                &client,
                &channel,
                "the fleet's messages",
                sender.closed(),
                hear,
            )
            .await;
        });
        Box::pin(tokio_stream_of(receiver))
    }
}

/// How an append is stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Shape {
    /// No events: nothing to send.
    Empty,
    /// A whole stream at once, from its first event to its last (a call answered within
    /// the instance's gathering): one `SET` of `stream:SESSION:N:whole`, no script.
    Whole,
    /// Anything else: by [`APPEND`], into the stream's list and meta hash.
    Scripted,
}

impl Shape {
    fn of(append: &StreamAppend<'_>) -> Shape {
        let events = append.events;
        if events.is_empty() {
            Shape::Empty
        } else if append.origin.is_some()
            && events[0].seq == 0
            && events.iter().any(|event| event.last)
        {
            Shape::Whole
        } else {
            Shape::Scripted
        }
    }
}

/// A whole stream as one value: its runner and requests, each on a line, then each event
/// up to its last as `SEQ:LENGTH:DATA`, trimmed to the bounds as a list would be.
fn whole_stream(append: &StreamAppend<'_>) -> Vec<u8> {
    let origin = append.origin.expect("a whole stream has its origin");
    let end = append
        .events
        .iter()
        .position(|event| event.last)
        .map_or(append.events.len(), |last| last + 1);
    let events = &append.events[..end];
    let mut first = 0;
    let mut bytes: usize = events.iter().map(|event| event.data.len()).sum();
    while events.len() - first > 1
        && (events.len() - first > append.bounds.max_events || bytes > append.bounds.max_bytes)
    {
        bytes -= events[first].data.len();
        first += 1;
    }
    let mut value = Vec::with_capacity(bytes + 64 + 24 * events.len());
    value.extend_from_slice(origin.runner.as_bytes());
    value.push(b'\n');
    value.extend_from_slice(origin.requests.to_string().as_bytes());
    value.push(b'\n');
    let mut number = itoa::Buffer::new();
    for event in &events[first..] {
        value.extend_from_slice(number.format(event.seq).as_bytes());
        value.push(b':');
        value.extend_from_slice(number.format(event.data.len()).as_bytes());
        value.push(b':');
        value.extend_from_slice(event.data.as_bytes());
    }
    value
}

/// Reads what [`whole_stream`] wrote: the stream, ended, with its events after `after`.
fn read_whole_stream(value: &str, after: Option<u64>) -> Option<StreamEvents> {
    let (runner, rest) = value.split_once('\n')?;
    let (requests, mut rest) = rest.split_once('\n')?;
    let mut events = Vec::new();
    while !rest.is_empty() {
        let (seq, tail) = rest.split_once(':')?;
        let (length, tail) = tail.split_once(':')?;
        let length: usize = length.parse().ok()?;
        let seq: u64 = seq.parse().ok()?;
        if after.is_none_or(|after| seq > after) {
            events.push((seq, tail.get(..length)?.to_owned()));
        }
        rest = tail.get(length..)?;
    }
    let requests = serde_json::from_str(requests).unwrap_or(Value::Null);
    Some(StreamEvents::new(events, true, runner.to_owned(), requests))
}

/// One stream's arguments of [`APPEND`].
fn add_append_args(
    invocation: &mut impl ScriptArgs,
    origin: Option<&StreamOrigin>,
    events: &[StreamEvent],
    bounds: StreamBounds,
) {
    invocation
        .arg(bounds.max_events.max(1))
        .arg(bounds.max_bytes)
        .arg(millis(bounds.retain));
    match origin {
        Some(origin) => invocation
            .arg(&origin.runner)
            .arg(origin.requests.to_string()),
        None => invocation.arg("").arg(""),
    };
    invocation.arg(events.len());
    for event in events {
        invocation
            .arg(event.seq)
            .arg(&*event.data)
            .arg(if event.last { "1" } else { "0" });
    }
}

/// What takes a script's arguments: a [`ScriptInvocation`], or a pipeline whose last
/// command calls it.
trait ScriptArgs {
    fn arg<T: ToRedisArgs>(&mut self, arg: T) -> &mut Self;
}

impl ScriptArgs for ScriptInvocation<'_> {
    fn arg<T: ToRedisArgs>(&mut self, arg: T) -> &mut Self {
        ScriptInvocation::arg(self, arg)
    }
}

impl ScriptArgs for redis::Pipeline {
    fn arg<T: ToRedisArgs>(&mut self, arg: T) -> &mut Self {
        redis::Pipeline::arg(self, arg)
    }
}

fn tokio_stream_of(
    mut receiver: mpsc::UnboundedReceiver<String>,
) -> impl futures_util::Stream<Item = String> + Send + 'static {
    futures_util::stream::poll_fn(move |context| receiver.poll_recv(context))
}
