//! [`RedisLink`]: the connection to one Redis that the Redis stores share, and how their
//! keys are named.

use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use redis::aio::{ConnectionManager, ConnectionManagerConfig, MultiplexedConnection};
use redis::{AsyncConnectionConfig, Script};

pub(crate) use crate::fleet::HEARTBEAT_TTL;
use crate::fleet::spawn_beats;
use crate::task::StoreError;

/// `runner_dead(instance key, pulse key, calm key, gap ms, grace ms)`: whether an instance
/// is dead, by Redis's clock: its heartbeat key lapsed, and the fleet's heartbeats have
/// reached Redis without a gap (the pulse: the last heartbeat of any instance) for the grace
/// period since the last gap (calm: when it ended). A lapse during an outage of Redis, or
/// just after one, proves nothing. For the scripts that decide on a death.
pub(crate) const LIVENESS: &str = r#"
local function redis_now()
  local time = redis.call('TIME')
  return tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
end
local function runner_dead(instance, pulse_key, calm_key, gap, grace)
  if redis.call('EXISTS', instance) == 1 then return false end
  local pulse = redis.call('GET', pulse_key)
  if not pulse then return true end
  local now = redis_now()
  if now - tonumber(pulse) > tonumber(gap) then return false end
  local calm = tonumber(redis.call('GET', calm_key) or '0')
  return now - calm >= tonumber(grace)
end
"#;

/// A heartbeat: marks the instance (KEYS 1) alive for ARGV 1 ms, and keeps the fleet's
/// pulse (KEYS 2) and the end of its last gap (KEYS 3, ARGV 2 the gap in ms) up to date.
/// Returns Redis's time (ms), which sets the link's clock.
const BEAT: &str = r#"
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local pulse = redis.call('GET', KEYS[2])
if not pulse then
  redis.call('SET', KEYS[3], 0)
elseif now - tonumber(pulse) > tonumber(ARGV[2]) then
  redis.call('SET', KEYS[3], now)
end
redis.call('SET', KEYS[2], now)
redis.call('SET', KEYS[1], 1, 'PX', ARGV[1])
return now
"#;

/// No heartbeat from any instance for this long means the store was unreachable (or
/// stalled), not that every instance died.
const HEARTBEAT_GAP: Duration = Duration::from_secs(2);
/// How long after such a gap no instance is taken for dead: every live instance beats again
/// well within it.
const HEARTBEAT_GRACE: Duration = Duration::from_secs(6);

/// How long one command may take before it fails (Redis gone, network partition): a
/// request that needs the store is answered with an error rather than hanging.
pub(super) const RESPONSE_TIMEOUT: Duration = Duration::from_secs(2);
/// How long connecting may take.
pub(super) const CONNECTION_TIMEOUT: Duration = Duration::from_secs(1);
/// The longest heartbeat round trip whose answer still sets the clock.
const CLOCK_ROUND_TRIP: Duration = Duration::from_millis(100);

/// A connection to Redis (reconnecting by itself after a failure) and the key prefix that
/// keeps one server's keys apart from another's in the same Redis.
#[derive(Clone)]
pub struct RedisLink {
    client: redis::Client,
    connection: ConnectionManager,
    prefix: Arc<str>,
    url: Arc<str>,
    beat: Script,
    alive: Script,
    /// Redis's clock less this machine's, in ms, as the last heartbeat measured it.
    clock_offset: Arc<AtomicI64>,
}

impl std::fmt::Debug for RedisLink {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RedisLink")
            .field("url", &self.url)
            .field("prefix", &self.prefix)
            .finish_non_exhaustive()
    }
}

impl RedisLink {
    /// A link to the Redis at `url` (`redis://host:port/db`), whose keys all start with
    /// `prefix`. It connects on first use; [`RedisLink::check`] connects now. Must be called
    /// within a tokio runtime.
    pub fn open(url: &str, prefix: &str) -> Result<Self, StoreError> {
        let client = redis::Client::open(url)
            .map_err(|error| StoreError(format!("invalid Redis URL `{url}`: {error}")))?;
        let config = ConnectionManagerConfig::new()
            .set_response_timeout(Some(RESPONSE_TIMEOUT))
            .set_connection_timeout(Some(CONNECTION_TIMEOUT))
            .set_number_of_retries(1)
            .set_max_delay(Duration::from_millis(500));
        let connection = ConnectionManager::new_lazy_with_config(client.clone(), config)
            .map_err(|error| StoreError(format!("Redis at {url}: {error}")))?;
        Ok(RedisLink {
            client,
            connection,
            prefix: Arc::from(prefix),
            url: Arc::from(url),
            beat: Script::new(BEAT),
            clock_offset: Arc::default(),
            alive: Script::new(&format!(
                "{LIVENESS}\nif runner_dead(KEYS[1], KEYS[2], KEYS[3], ARGV[1], ARGV[2]) then return 0 end\nreturn 1"
            )),
        })
    }

    /// Connects now (a `PING`): fails with a message naming the URL if Redis cannot be
    /// reached.
    pub async fn check(&self) -> Result<(), StoreError> {
        let mut connection = self.connection();
        let pong: Result<String, _> = redis::cmd("PING").query_async(&mut connection).await;
        pong.map(drop)
            .map_err(|error| StoreError(format!("cannot reach Redis at {}: {error}", self.url)))
    }

    /// A handle on the shared, reconnecting connection (cheap to clone; commands from
    /// clones are pipelined on one socket).
    pub fn connection(&self) -> ConnectionManager {
        self.connection.clone()
    }

    /// The client, for connections of their own (a pub/sub subscription).
    pub fn client(&self) -> &redis::Client {
        &self.client
    }

    /// What every key of this server starts with.
    pub(crate) fn prefix(&self) -> &str {
        &self.prefix
    }

    /// The key `name` of this server: the prefix, then the name.
    pub fn key(&self, name: impl std::fmt::Display) -> String {
        format!("{}{name}", self.prefix)
    }

    /// The key that says `instance` is alive.
    pub(crate) fn instance_key(&self, instance: &str) -> String {
        self.key(format_args!("instance:{instance}"))
    }

    /// The keys of the fleet's pulse (the time of the last heartbeat of any instance) and of
    /// the end of its last gap.
    pub(crate) fn pulse_keys(&self) -> (String, String) {
        (self.key("fleet:pulse"), self.key("fleet:calm"))
    }

    /// The arguments the liveness check takes after its keys: the gap and the grace period,
    /// in milliseconds.
    pub(crate) fn liveness_args() -> (u64, u64) {
        (millis(HEARTBEAT_GAP), millis(HEARTBEAT_GRACE))
    }

    /// Marks `instance` alive for `ttl`, on a connection of its own: the heartbeat must not
    /// wait behind other commands, nor depend on the runtime that drives the shared
    /// connection.
    pub(crate) async fn heartbeat(&self, instance: &str, ttl: Duration) -> Result<(), StoreError> {
        let mut connection = self.heartbeat_connection().await?;
        self.beat_on(&mut connection, instance, ttl).await
    }

    /// A connection of its own, driven by the runtime this is called on.
    async fn heartbeat_connection(&self) -> Result<MultiplexedConnection, StoreError> {
        let config = AsyncConnectionConfig::new()
            .set_connection_timeout(Some(CONNECTION_TIMEOUT))
            .set_response_timeout(Some(RESPONSE_TIMEOUT));
        self.client
            .get_multiplexed_async_connection_with_config(&config)
            .await
            .map_err(|error| self.unavailable(error))
    }

    async fn beat_on(
        &self,
        connection: &mut MultiplexedConnection,
        instance: &str,
        ttl: Duration,
    ) -> Result<(), StoreError> {
        let (pulse, calm) = self.pulse_keys();
        let sent = (Instant::now(), SystemTime::now());
        let redis_now = self
            .beat
            .key(self.instance_key(instance))
            .key(pulse)
            .key(calm)
            .arg(millis(ttl))
            .arg(millis(HEARTBEAT_GAP))
            .invoke_async::<i64>(connection)
            .await
            .map_err(|error| self.unavailable(error))?;
        let round_trip = sent.0.elapsed();
        // A slow answer says little about when Redis read its clock.
        if round_trip <= CLOCK_ROUND_TRIP {
            let local = epoch_millis(sent.1 + round_trip / 2);
            self.clock_offset
                .store(redis_now.saturating_sub(local), Ordering::Relaxed);
        }
        Ok(())
    }

    /// The time by Redis's clock, as this machine's clock and the last heartbeat's
    /// measure of the difference say (this machine's until a heartbeat measured it): the
    /// instances of a fleet agree on when a task expires even if their clocks do not.
    pub(crate) fn now(&self) -> SystemTime {
        let offset = self.clock_offset.load(Ordering::Relaxed);
        let local = SystemTime::now();
        let shift = Duration::from_millis(offset.unsigned_abs());
        if offset >= 0 {
            local + shift
        } else {
            local.checked_sub(shift).unwrap_or(local)
        }
    }

    /// Whether `instance` may be alive: false only once its heartbeat lapsed while the
    /// fleet's heartbeats reached Redis (see [`LIVENESS`]).
    pub(crate) async fn is_alive(&self, instance: &str) -> Result<bool, StoreError> {
        let mut connection = self.connection();
        let (pulse, calm) = self.pulse_keys();
        let (gap, grace) = Self::liveness_args();
        self.alive
            .key(self.instance_key(instance))
            .key(pulse)
            .key(calm)
            .arg(gap)
            .arg(grace)
            .invoke_async::<bool>(&mut connection)
            .await
            .map_err(|error| self.unavailable(error))
    }

    /// Sends `instance`'s heartbeat for as long as the process runs, from a thread of its
    /// own (see [`spawn_beats`]), on a connection it keeps until a beat fails.
    pub(crate) fn spawn_heartbeat(&self, instance: Arc<str>) {
        let link = self.clone();
        let kept: Arc<Mutex<Option<MultiplexedConnection>>> = Arc::default();
        spawn_beats(
            move || {
                let link = link.clone();
                let instance = Arc::clone(&instance);
                let kept = Arc::clone(&kept);
                async move {
                    let reused = kept
                        .lock()
                        .unwrap_or_else(|poison| poison.into_inner())
                        .take();
                    let mut connection = match reused {
                        Some(connection) => connection,
                        None => link.heartbeat_connection().await?,
                    };
                    // A failed connection is dropped: the next beat connects afresh.
                    link.beat_on(&mut connection, &instance, HEARTBEAT_TTL)
                        .await?;
                    *kept.lock().unwrap_or_else(|poison| poison.into_inner()) = Some(connection);
                    Ok(())
                }
            },
            || true,
        );
    }

    /// The error a failed command becomes: Redis cannot be reached, and why.
    pub fn unavailable(&self, error: redis::RedisError) -> StoreError {
        StoreError(format!("cannot reach Redis at {}: {error}", self.url))
    }
}

/// `duration` in whole milliseconds, at least one.
fn millis(duration: Duration) -> u64 {
    u64::try_from(duration.as_millis())
        .unwrap_or(u64::MAX)
        .max(1)
}

/// `time` in milliseconds since the epoch (0 before it).
fn epoch_millis(time: SystemTime) -> i64 {
    time.duration_since(UNIX_EPOCH).map_or(0, |since| {
        i64::try_from(since.as_millis()).unwrap_or(i64::MAX)
    })
}
