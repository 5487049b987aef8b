//! The fleet settings of an [`HttpServer`](crate::HttpServer): the store its instances share
//! (Redis, or one of your own), so that any instance serves any request. The builder methods
//! that set them are with the rest of `HttpServer`'s (`server/http.rs`).

use std::sync::Arc;

use super::Server;
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
