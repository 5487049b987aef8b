//! [`Notifier`]: how a server tells its clients that a resource changed, or that its list of
//! resources or prompts did. Every connection listens; each passes on what its client asked
//! for (a `resources/subscribe`, a `subscriptions/listen` filter).

use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use tokio::sync::broadcast;

use crate::tool::extract::{Extract, Rejection, ToolCall};

/// How many changes a slow connection may fall behind before it misses some (it is told,
/// in the server's log).
const BACKLOG: usize = 1024;

/// One change a client may be told of.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Change {
    /// `notifications/resources/updated` for this URI, to the clients subscribed to it.
    ResourceUpdated(Arc<str>),
    /// `notifications/resources/list_changed`.
    ResourceListChanged,
    /// `notifications/prompts/list_changed`.
    PromptListChanged,
}

/// Tells clients that a resource changed, or that the list of resources or prompts did.
///
/// Get it from [`Server::notifier`](crate::Server::notifier) for use outside requests (a
/// file watcher, a background task), or take it as a parameter of any tool, resource or
/// prompt: it is an extractor, supplied by the server, never in a schema. Clones share one
/// channel; it is cheap to clone and works from any thread.
///
/// - [`resource_updated`](Notifier::resource_updated) reaches the clients subscribed to the
///   URI: through `resources/subscribe` in the handshake era, through the
///   `resourceSubscriptions` of a `subscriptions/listen` stream under 2026-07-28.
/// - [`resource_list_changed`](Notifier::resource_list_changed) and
///   [`prompt_list_changed`](Notifier::prompt_list_changed) reach every client (handshake
///   era) or every listen stream that asked for them (2026-07-28). They are sent only by a
///   server that announced `listChanged: true`, which calling
///   [`Server::notifier`](crate::Server::notifier) does.
///
/// ```
/// use mcp_runtime::{mcp_tool, Notifier, Server};
///
/// /// Append a line to the journal.
/// #[mcp_tool]
/// async fn append(line: String, notifier: Notifier) -> &'static str {
///     // ... write the line ...
///     notifier.resource_updated("journal://today");
///     "appended"
/// }
///
/// let server = Server::new("journal", "1.0.0");
/// let notifier = server.notifier(); // for a file watcher, say
/// notifier.resource_updated("journal://today");
/// ```
#[derive(Clone)]
pub struct Notifier {
    inner: Arc<NotifierInner>,
}

struct NotifierInner {
    changes: broadcast::Sender<Change>,
    /// The changes made in this process (not relayed from another instance of a fleet):
    /// those a fleet passes on to the other instances.
    #[cfg(feature = "http")]
    local: broadcast::Sender<Change>,
    /// Whether clients are told the lists may change (`listChanged: true`).
    announced: AtomicBool,
}

impl fmt::Debug for Notifier {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Notifier")
            .field("listeners", &self.inner.changes.receiver_count())
            .field("announces_list_changes", &self.announces_list_changes())
            .finish()
    }
}

impl Default for Notifier {
    fn default() -> Self {
        Notifier::new()
    }
}

impl Notifier {
    /// A notifier of its own, that no server listens to: for calling a function that takes
    /// one directly, as in a unit test. A server's is [`Server::notifier`](crate::Server::notifier).
    pub fn new() -> Self {
        Notifier {
            inner: Arc::new(NotifierInner {
                changes: broadcast::channel(BACKLOG).0,
                #[cfg(feature = "http")]
                local: broadcast::channel(BACKLOG).0,
                announced: AtomicBool::new(false),
            }),
        }
    }

    /// Tells the clients subscribed to `uri` that the resource changed
    /// (`notifications/resources/updated`); they read it again if they care.
    pub fn resource_updated(&self, uri: impl Into<String>) {
        let uri: String = uri.into();
        self.send(Change::ResourceUpdated(uri.into()));
    }

    /// Tells clients that the list of resources changed
    /// (`notifications/resources/list_changed`).
    pub fn resource_list_changed(&self) {
        self.send(Change::ResourceListChanged);
    }

    /// Tells clients that the list of prompts changed (`notifications/prompts/list_changed`).
    pub fn prompt_list_changed(&self) {
        self.send(Change::PromptListChanged);
    }

    fn send(&self, change: Change) {
        #[cfg(feature = "http")]
        let _ = self.inner.local.send(change.clone());
        // No receiver: no connection is open, so nobody is to be told.
        let _ = self.inner.changes.send(change);
    }

    /// Tells this process's clients of a change made by another instance of a fleet (and
    /// not the other instances again).
    #[cfg(feature = "http")]
    pub(crate) fn relay(&self, change: Change) {
        let _ = self.inner.changes.send(change);
    }

    /// The changes made in this process from now on, for a fleet to pass on.
    #[cfg(feature = "http")]
    pub(crate) fn subscribe_local(&self) -> broadcast::Receiver<Change> {
        self.inner.local.subscribe()
    }

    /// Marks the lists as changeable: clients are told `listChanged: true`.
    pub(crate) fn announce_list_changes(&self) {
        self.inner.announced.store(true, Ordering::Relaxed);
    }

    /// Whether clients are told the lists of resources and prompts may change.
    pub(crate) fn announces_list_changes(&self) -> bool {
        self.inner.announced.load(Ordering::Relaxed)
    }

    /// The changes from now on, for a connection to pass on to its client.
    pub(crate) fn subscribe(&self) -> broadcast::Receiver<Change> {
        self.inner.changes.subscribe()
    }
}

impl Extract for Notifier {
    fn extract(call: &mut ToolCall, _parameter: &'static str) -> Result<Self, Rejection> {
        // Every server registers its notifier among its states when it starts.
        call.states()
            .get::<Notifier>()
            .map(|notifier| (*notifier).clone())
            .ok_or_else(|| Rejection::new("this server has no notifier"))
    }

    fn argument_kind() -> crate::tool::arguments::ArgumentKind {
        crate::tool::arguments::ArgumentKind::Supplied
    }
}

/// The next change a connection receives, skipping (and logging) any it fell behind on;
/// `None` once the server's notifier is gone.
pub(crate) async fn next_change(changes: &mut broadcast::Receiver<Change>) -> Option<Change> {
    loop {
        match changes.recv().await {
            Ok(change) => return Some(change),
            Err(broadcast::error::RecvError::Lagged(missed)) => {
                tracing::warn!(
                    missed,
                    "a connection fell behind on resource and prompt change notifications; \
                     {missed} were not sent to its client"
                );
            }
            Err(broadcast::error::RecvError::Closed) => return None,
        }
    }
}
