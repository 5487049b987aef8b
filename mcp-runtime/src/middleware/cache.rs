//! [`ResponseCache`]: results of read-only, idempotent tools kept for a while, keyed by the
//! tool and its arguments.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::middleware::layer::{Layer, LayerFuture, Next};
use crate::middleware::request::ToolRequest;
use crate::tool::result::CallToolResult;

type Partition = Arc<dyn Fn(&ToolRequest) -> Option<String> + Send + Sync>;

/// A layer that answers a repeated call of a `read_only` + `idempotent` tool from memory:
/// the same tool with the same arguments within `ttl` gets the result the first call got,
/// without running the tool.
///
/// - Only tools marked both `read_only` and `idempotent` are cached; every other call
///   passes through untouched.
/// - Only successful results are kept: an error (`isError`), a refusal by a rate limit or
///   a call still waiting for the client's input is never replayed.
/// - At most `capacity` results are kept; when full, expired entries go first, then the
///   oldest.
/// - Results are shared by every caller allowed to call the tool (scopes are checked
///   before any layer). A tool whose answer depends on who asks (it reads
///   [`Principal`](crate::Principal)) needs [`partition_by`](ResponseCache::partition_by),
///   or no cache.
///
/// ```
/// use std::time::Duration;
/// use mcp_runtime::Server;
/// use mcp_runtime::middleware::ResponseCache;
///
/// let server = Server::new("weather", "1.0.0")
///     .layer(ResponseCache::new(1_000, Duration::from_secs(60)));
/// # drop(server);
/// ```
#[derive(Clone)]
pub struct ResponseCache {
    inner: Arc<CacheInner>,
}

struct CacheInner {
    capacity: usize,
    ttl: Duration,
    partition: Option<Partition>,
    entries: Mutex<Entries>,
}

#[derive(Default)]
struct Entries {
    by_key: HashMap<String, Entry>,
    /// Keys in the order they were stored, for evicting the oldest.
    order: VecDeque<String>,
}

struct Entry {
    result: CallToolResult,
    expires: Instant,
}

impl ResponseCache {
    /// A cache of at most `capacity` results, each kept for `ttl`.
    pub fn new(capacity: usize, ttl: Duration) -> Self {
        ResponseCache {
            inner: Arc::new(CacheInner {
                capacity: capacity.max(1),
                ttl,
                partition: None,
                entries: Mutex::new(Entries::default()),
            }),
        }
    }

    /// Keeps separate results per partition, e.g. per user:
    /// `.partition_by(|call| call.context().principal::<User>().map(|user| user.id.clone()))`.
    /// A call whose partition is `None` is not cached.
    pub fn partition_by(
        self,
        partition: impl Fn(&ToolRequest) -> Option<String> + Send + Sync + 'static,
    ) -> Self {
        ResponseCache {
            inner: Arc::new(CacheInner {
                capacity: self.inner.capacity,
                ttl: self.inner.ttl,
                partition: Some(Arc::new(partition)),
                entries: Mutex::new(Entries::default()),
            }),
        }
    }

    /// How many results are stored now (expired ones included until they are evicted).
    pub fn len(&self) -> usize {
        self.inner
            .entries
            .lock()
            .expect("cache poisoned")
            .by_key
            .len()
    }

    /// Whether nothing is stored.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Forgets every stored result, e.g. after the data behind the tools changed.
    pub fn clear(&self) {
        let mut entries = self.inner.entries.lock().expect("cache poisoned");
        entries.by_key.clear();
        entries.order.clear();
    }
}

impl CacheInner {
    /// The call's key: partition, tool and arguments (a `serde_json` map serializes its
    /// keys in order, so equal arguments give equal keys). `None`: not cacheable.
    fn key(&self, call: &ToolRequest) -> Option<String> {
        if !(call.is_read_only() && call.is_idempotent()) {
            return None;
        }
        let partition = match &self.partition {
            Some(partition) => partition(call)?,
            None => String::new(),
        };
        let arguments = serde_json::to_string(call.arguments()).ok()?;
        Some(format!(
            "{}\u{0}{partition}\u{0}{}\u{0}{arguments}",
            partition.len(),
            call.name()
        ))
    }

    fn get(&self, key: &str) -> Option<CallToolResult> {
        let entries = self.entries.lock().expect("cache poisoned");
        let entry = entries.by_key.get(key)?;
        (entry.expires > Instant::now()).then(|| entry.result.clone())
    }

    fn store(&self, key: String, result: CallToolResult) {
        let now = Instant::now();
        let mut entries = self.entries.lock().expect("cache poisoned");
        let Entries { by_key, order } = &mut *entries;
        if by_key.len() >= self.capacity && !by_key.contains_key(&key) {
            by_key.retain(|_, entry| entry.expires > now);
            order.retain(|key| by_key.contains_key(key));
            while by_key.len() >= self.capacity {
                let Some(oldest) = order.pop_front() else {
                    break;
                };
                by_key.remove(&oldest);
            }
        }
        let expires = now + self.ttl;
        if by_key
            .insert(key.clone(), Entry { result, expires })
            .is_none()
        {
            order.push_back(key);
        }
    }
}

impl Layer for ResponseCache {
    fn call(&self, call: ToolRequest, next: Next) -> LayerFuture {
        let Some(key) = self.inner.key(&call) else {
            return next.run(call);
        };
        if let Some(hit) = self.inner.get(&key) {
            tracing::trace!(tool = %call.name(), "answered from the response cache");
            return Box::pin(std::future::ready(hit));
        }
        let inner = Arc::clone(&self.inner);
        Box::pin(async move {
            let result = next.run(call).await;
            if !result.is_error && !result.awaits_input() {
                inner.store(key, result.clone());
            }
            result
        })
    }
}
