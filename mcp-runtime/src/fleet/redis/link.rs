//! [`RedisLink`]: the connection to one Redis that the Redis stores share, and how their
//! keys are named.

use std::sync::Arc;
use std::time::Duration;

use redis::aio::{ConnectionManager, ConnectionManagerConfig};

pub(crate) use crate::fleet::{HEARTBEAT_EVERY, HEARTBEAT_TTL};
use crate::task::StoreError;

/// How long one command may take before it fails (Redis gone, network partition): a
/// request that needs the store is answered with an error rather than hanging.
const RESPONSE_TIMEOUT: Duration = Duration::from_secs(2);
/// How long connecting may take.
const CONNECTION_TIMEOUT: Duration = Duration::from_secs(1);

/// A connection to Redis (reconnecting by itself after a failure) and the key prefix that
/// keeps one server's keys apart from another's in the same Redis.
#[derive(Clone)]
pub struct RedisLink {
    client: redis::Client,
    connection: ConnectionManager,
    prefix: Arc<str>,
    url: Arc<str>,
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

    /// The key `name` of this server: the prefix, then the name.
    pub fn key(&self, name: impl std::fmt::Display) -> String {
        format!("{}{name}", self.prefix)
    }

    /// The key that says `instance` is alive.
    pub(crate) fn instance_key(&self, instance: &str) -> String {
        self.key(format_args!("instance:{instance}"))
    }

    /// Marks `instance` alive for `ttl`.
    pub(crate) async fn heartbeat(&self, instance: &str, ttl: Duration) -> Result<(), StoreError> {
        let mut connection = self.connection();
        let ttl_ms = u64::try_from(ttl.as_millis()).unwrap_or(u64::MAX).max(1);
        redis::cmd("SET")
            .arg(self.instance_key(instance))
            .arg(1)
            .arg("PX")
            .arg(ttl_ms)
            .query_async::<()>(&mut connection)
            .await
            .map_err(|error| self.unavailable(error))
    }

    /// Whether `instance` sent a heartbeat within its ttl.
    pub(crate) async fn is_alive(&self, instance: &str) -> Result<bool, StoreError> {
        let mut connection = self.connection();
        redis::cmd("EXISTS")
            .arg(self.instance_key(instance))
            .query_async::<bool>(&mut connection)
            .await
            .map_err(|error| self.unavailable(error))
    }

    /// Sends `instance`'s heartbeat every [`HEARTBEAT_EVERY`] for as long as the process
    /// runs (a failure is logged once per outage; the next beat tries again).
    pub(crate) fn spawn_heartbeat(&self, instance: Arc<str>) {
        let link = self.clone();
        tokio::spawn(async move {
            let mut failing = false;
            loop {
                match link.heartbeat(&instance, HEARTBEAT_TTL).await {
                    Ok(()) if failing => {
                        failing = false;
                        tracing::info!("Redis is reachable again");
                    }
                    Ok(()) => {}
                    Err(error) if !failing => {
                        failing = true;
                        tracing::warn!(%error, "cannot send this instance's heartbeat");
                    }
                    Err(_) => {}
                }
                tokio::time::sleep(HEARTBEAT_EVERY).await;
            }
        });
    }

    /// The error a failed command becomes: Redis cannot be reached, and why.
    pub fn unavailable(&self, error: redis::RedisError) -> StoreError {
        StoreError(format!("cannot reach Redis at {}: {error}", self.url))
    }
}
