//! The fleet settings of an [`HttpServer`]: the store its instances share (Redis, or one of
//! your own), so that any instance serves any request.

use std::sync::Arc;

use super::Server;
use super::http::HttpServer;
use crate::error::Error;
use crate::fleet::FleetStore;

/// The default prefix of every key a server keeps in Redis.
pub const DEFAULT_REDIS_KEY_PREFIX: &str = "mcp:";

/// Where the instances of a fleet keep what they share, until the server is built.
pub(crate) enum FleetConfig {
    /// Redis, at this URL, under this key prefix.
    #[cfg(feature = "redis")]
    Redis { url: String, prefix: String },
    /// A store of the application's own (its tasks are wherever `Server::task_store` put
    /// them).
    Store(Arc<dyn FleetStore>),
}

/// A fleet: several instances of one server behind a load balancer (see the
/// [HTTP chapter](crate::manual::http) and [`fleet`](crate::fleet)).
impl HttpServer {
    /// Shares this server's handshake-era sessions, resumable streams and tasks with every
    /// other instance that names the same Redis (`redis://host:port/db`) and key prefix
    /// (default [`DEFAULT_REDIS_KEY_PREFIX`], see [`redis_key_prefix`](HttpServer::redis_key_prefix)),
    /// and exchanges messages with them, so a load balancer may send any request to any
    /// instance (feature `redis`).
    ///
    /// [`serve`](HttpServer::serve) refuses to start when Redis cannot be reached. Once
    /// serving, a request that needs Redis while it is down is answered with an error
    /// saying so (HTTP 503), other requests are served as usual, and the server recovers
    /// by itself when Redis is back.
    #[cfg(feature = "redis")]
    pub fn redis(mut self, url: impl Into<String>) -> Self {
        let prefix = match self.fleet.take() {
            Some(FleetConfig::Redis { prefix, .. }) => prefix,
            _ => DEFAULT_REDIS_KEY_PREFIX.to_owned(),
        };
        self.fleet = Some(FleetConfig::Redis {
            url: url.into(),
            prefix,
        });
        self
    }

    /// The prefix of every key this server keeps in Redis (default
    /// [`DEFAULT_REDIS_KEY_PREFIX`]): servers that share one Redis each need their own.
    /// Only meaningful with [`redis`](HttpServer::redis), before or after it.
    #[cfg(feature = "redis")]
    pub fn redis_key_prefix(mut self, prefix: impl Into<String>) -> Self {
        let url = match self.fleet.take() {
            Some(FleetConfig::Redis { url, .. }) => url,
            _ => String::new(),
        };
        self.fleet = Some(FleetConfig::Redis {
            url,
            prefix: prefix.into(),
        });
        self
    }

    /// Shares sessions and resumable streams through a store of your own (another
    /// database); pair it with [`Server::task_store`](crate::Server::task_store) for tasks.
    /// [`redis`](HttpServer::redis) does both with Redis.
    pub fn fleet_store(mut self, store: impl FleetStore) -> Self {
        self.fleet = Some(FleetConfig::Store(Arc::new(store)));
        self
    }
}

impl FleetConfig {
    /// Opens the configured store (for Redis: the link, and the task store on it, which
    /// replaces `server`'s, its tasks run by `instance`). Must run within a tokio runtime.
    pub(crate) fn open(
        self,
        server: &mut Server,
        instance: &Arc<str>,
    ) -> Result<Arc<dyn FleetStore>, Error> {
        match self {
            #[cfg(feature = "redis")]
            FleetConfig::Redis { url, prefix } => {
                use crate::fleet::{RedisFleetStore, RedisLink, RedisTaskStore};
                if url.is_empty() {
                    return Err(Error::StoreUnavailable(
                        "`redis_key_prefix` was set without `redis(url)`".into(),
                    ));
                }
                if tokio::runtime::Handle::try_current().is_err() {
                    return Err(Error::StoreUnavailable(
                        "a server with Redis must be built within a tokio runtime".into(),
                    ));
                }
                let link = RedisLink::open(&url, &prefix)
                    .map_err(|error| Error::StoreUnavailable(error.0))?;
                let store = RedisFleetStore::new(link.clone());
                // Tasks record the instance running them, so that the others can tell when
                // it died: the same id the endpoint's heartbeat keeps alive.
                server.tasks.store = Arc::new(RedisTaskStore::new(link, Arc::clone(instance)));
                Ok(Arc::new(store))
            }
            FleetConfig::Store(store) => {
                let _ = (server, instance);
                Ok(store)
            }
        }
    }
}
