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
//! - `instance:ID`: present while the instance sends heartbeats;
//! - `fleet:pulse` and `fleet:calm`: when (by Redis's clock, in ms) the last heartbeat of any
//!   instance came, and when the last gap in them ended: an instance whose key lapsed is
//!   dead only once the heartbeats have come without a gap for a grace period (see the
//!   link's `LIVENESS`), so that an outage of Redis kills nobody;
//! - channel `fleet`: messages between instances.

use std::time::Duration;

use futures_util::StreamExt;
use redis::{Script, ScriptInvocation};
use serde_json::Value;
use tokio::sync::mpsc;

use super::link::{LIVENESS, RedisLink};
use crate::fleet::store::{
    FleetMessages, FleetStore, SessionChange, SessionRecord, StoreError, StoreFuture, StreamBounds,
    StreamEvent, StreamEvents, StreamKey, StreamOrigin,
};

/// Appends events unless the stream ended (or, without an origin, is not known): atomic,
/// so that the runner's response and another instance's error for a dead runner never both
/// land. An event older than the newest stored is skipped (but for a stream's last), so that
/// a batch sent again after a timeout, which Redis may have run after all, is not doubled. ARGV: max events, max bytes, retain (ms), runner ('' for none), requests, then
/// seq, data, last ('1' or '0') per event. It reads them from `args`, which the script's
/// prelude sets: [`APPEND_ANY`] or [`APPEND_IF_DEAD`].
const APPEND: &str = r#"
if redis.call('EXISTS', KEYS[2]) == 0 then
  if args[4] == '' then return 0 end
  redis.call('HSET', KEYS[2], 'runner', args[4], 'requests', args[5], 'ended', '0', 'bytes', 0)
elseif redis.call('HGET', KEYS[2], 'ended') == '1' then
  return 0
end
local count = redis.call('LLEN', KEYS[1])
local bytes = tonumber(redis.call('HGET', KEYS[2], 'bytes') or '0')
local newest = tonumber(redis.call('HGET', KEYS[2], 'seq') or '-1')
for i = 6, #args, 3 do
  if args[i + 2] == '1' or tonumber(args[i]) > newest then
    local event = args[i] .. ':' .. args[i + 1]
    count = redis.call('RPUSH', KEYS[1], event)
    bytes = bytes + string.len(event)
    newest = math.max(newest, tonumber(args[i]))
    if args[i + 2] == '1' then
      redis.call('HSET', KEYS[2], 'ended', '1')
      break
    end
  end
end
redis.call('HSET', KEYS[2], 'seq', newest)
while count > 1 and (count > tonumber(args[1]) or bytes > tonumber(args[2])) do
  bytes = bytes - string.len(redis.call('LPOP', KEYS[1]))
  count = count - 1
end
redis.call('HSET', KEYS[2], 'bytes', bytes)
redis.call('PEXPIRE', KEYS[1], args[3])
redis.call('PEXPIRE', KEYS[2], args[3])
return 1
"#;

/// A stream's events after ARGV 1 (all when empty), with its runner, requests and whether
/// it ended; nil for a stream not kept. Read from the newest back only as far as the
/// events not yet delivered can reach: no more of them are kept than the sequence numbers
/// after ARGV 1 (some may have been dropped), so a reader that keeps up reads only what
/// is new, not the whole list on every poll.
const READ: &str = r#"
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

/// The prelude of an append by the stream's runner, or of any other but a dead runner's end.
const APPEND_ANY: &str = "local args = ARGV\n";

/// The prelude of an append that ends the stream of a dead runner: only while the instance
/// (KEYS 3; KEYS 4 and 5 the fleet's pulse and calm, ARGV 1 and 2 the gap and grace period)
/// is dead, checked in the same atomic step.
const APPEND_IF_DEAD: &str = r#"
if not runner_dead(KEYS[3], KEYS[4], KEYS[5], ARGV[1], ARGV[2]) then return 0 end
local args = {unpack(ARGV, 3)}
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

/// How long to wait before subscribing again after the subscription broke.
const RESUBSCRIBE_AFTER: Duration = Duration::from_millis(250);

/// The Redis [`FleetStore`]: see [`HttpServer::redis`](crate::HttpServer::redis), which makes one
/// (with a [`RedisTaskStore`](super::RedisTaskStore) on the same connection).
#[derive(Debug, Clone)]
pub struct RedisFleetStore {
    link: RedisLink,
    append: Script,
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
            append: Script::new(&format!("{APPEND_ANY}{APPEND}")),
            append_if_dead: Script::new(&format!("{LIVENESS}{APPEND_IF_DEAD}{APPEND}")),
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

    fn stream_keys(&self, stream: &StreamKey) -> (String, String) {
        let base = format!("stream:{}:{}", stream.session, stream.number);
        (
            self.link.key(format_args!("{base}:events")),
            self.link.key(format_args!("{base}:meta")),
        )
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
            if events.is_empty() {
                return Ok(false);
            }
            let (events_key, meta) = self.stream_keys(stream);
            let mut invocation = self.append.key(events_key);
            invocation.key(meta);
            add_append_args(&mut invocation, origin, events, bounds);
            let mut connection = self.link.connection();
            invocation
                .invoke_async::<i64>(&mut connection)
                .await
                .map(|appended| appended == 1)
                .map_err(|error| self.link.unavailable(error))
        })
    }

    fn read_events<'a>(
        &'a self,
        stream: &'a StreamKey,
        after: Option<u64>,
    ) -> StoreFuture<'a, Option<StreamEvents>> {
        Box::pin(async move {
            let (events, meta) = self.stream_keys(stream);
            let mut connection = self.link.connection();
            let read: Option<(Vec<String>, String, String, String, String)> = self
                .read
                .key(&events)
                .key(&meta)
                .arg(after.map_or_else(String::new, |after| after.to_string()))
                .invoke_async(&mut connection)
                .await
                .map_err(|error| self.link.unavailable(error))?;
            let Some((lines, runner, requests, ended, reader)) = read else {
                return Ok(None);
            };
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
        Box::pin(async move {
            let mut connection = self.link.connection();
            redis::cmd("PUBLISH")
                .arg(self.channel())
                .arg(message)
                .query_async::<i64>(&mut connection)
                .await
                .map(drop)
                .map_err(|error| self.link.unavailable(error))
        })
    }

    fn subscribe(&self) -> FleetMessages {
        let (sender, receiver) = mpsc::unbounded_channel();
        let client = self.link.client().clone();
        let channel = self.channel();
        tokio::spawn(async move {
            let mut failing = false;
            while !sender.is_closed() {
                match client.get_async_pubsub().await {
                    Ok(mut pubsub) => match pubsub.subscribe(&channel).await {
                        Ok(()) => {
                            if failing {
                                tracing::info!("subscribed to the fleet's messages again");
                                failing = false;
                            }
                            let mut messages = pubsub.on_message();
                            loop {
                                tokio::select! {
                                    message = messages.next() => {
                                        let Some(message) = message else { break };
                                        let Ok(text) = message.get_payload::<String>() else { continue };
                                        if sender.send(text).is_err() {
                                            return;
                                        }
                                    }
                                    () = sender.closed() => return,
                                }
                            }
                        }
                        Err(error) => failing = log_once(failing, &error),
                    },
                    Err(error) => failing = log_once(failing, &error),
                }
                tokio::time::sleep(RESUBSCRIBE_AFTER).await;
            }
        });
        Box::pin(tokio_stream_of(receiver))
    }
}

/// The arguments of [`APPEND`], after its prelude's.
fn add_append_args(
    invocation: &mut redis::ScriptInvocation<'_>,
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
    for event in events {
        invocation
            .arg(event.seq)
            .arg(&*event.data)
            .arg(if event.last { "1" } else { "0" });
    }
}

fn log_once(failing: bool, error: &redis::RedisError) -> bool {
    if !failing {
        tracing::warn!(%error, "lost the subscription to the fleet's messages; retrying");
    }
    true
}

fn tokio_stream_of(
    mut receiver: mpsc::UnboundedReceiver<String>,
) -> impl futures_util::Stream<Item = String> + Send + 'static {
    futures_util::stream::poll_fn(move |context| receiver.poll_recv(context))
}
