//! The server's task settings: where tasks are stored, how long they are kept, how many one
//! client may run, and who owns them.

use std::any::Any;
use std::sync::Arc;
use std::time::Duration;

use super::Server;
use crate::task::engine::TaskSettings;
use crate::task::store::OwnerOfPrincipal;
use crate::task::{
    DEFAULT_MAX_TASKS_PER_OWNER, DEFAULT_TASK_POLL_INTERVAL, DEFAULT_TASK_TTL, InMemoryTaskStore,
    TaskStore,
};

/// What `Server` keeps about tasks until it serves.
#[derive(Clone)]
pub(crate) struct TaskConfig {
    pub store: Arc<dyn TaskStore>,
    pub max_ttl: Duration,
    pub poll_interval: Duration,
    pub max_unfinished_per_owner: usize,
    pub owner_of_principal: Option<OwnerOfPrincipal>,
}

impl Default for TaskConfig {
    fn default() -> Self {
        TaskConfig {
            store: Arc::new(InMemoryTaskStore::new()),
            max_ttl: DEFAULT_TASK_TTL,
            poll_interval: DEFAULT_TASK_POLL_INTERVAL,
            max_unfinished_per_owner: DEFAULT_MAX_TASKS_PER_OWNER,
            owner_of_principal: None,
        }
    }
}

impl std::fmt::Debug for TaskConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TaskConfig")
            .field("max_ttl", &self.max_ttl)
            .field("poll_interval", &self.poll_interval)
            .field("max_unfinished_per_owner", &self.max_unfinished_per_owner)
            .field("owner_of_principal", &self.owner_of_principal.is_some())
            .finish_non_exhaustive()
    }
}

impl TaskConfig {
    pub fn settings(&self, max_result_bytes: usize) -> TaskSettings {
        TaskSettings {
            max_ttl: self.max_ttl,
            poll_interval: self.poll_interval,
            max_unfinished_per_owner: self.max_unfinished_per_owner,
            max_result_bytes,
        }
    }
}

/// Tasks: tool calls that outlive their request (see the
/// [tasks chapter](crate::manual::tasks)).
impl Server {
    /// Where tasks are kept (default: an [`InMemoryTaskStore`], this process's memory). A
    /// store shared by every instance lets a fleet serve any request about any task.
    pub fn task_store(mut self, store: impl TaskStore) -> Self {
        self.tasks.store = Arc::new(store);
        self
    }

    /// The longest a finished task's result is kept, counted from the task's creation
    /// (default [`DEFAULT_TASK_TTL`]). A client asking for a longer ttl gets this one; a
    /// client asking for none gets it too. A task still running is never forgotten.
    pub fn max_task_ttl(mut self, ttl: Duration) -> Self {
        self.tasks.max_ttl = ttl;
        self
    }

    /// How often clients are told to poll a task's status (default
    /// [`DEFAULT_TASK_POLL_INTERVAL`]).
    pub fn task_poll_interval(mut self, interval: Duration) -> Self {
        self.tasks.poll_interval = interval;
        self
    }

    /// How many unfinished tasks one client may have at once (default
    /// [`DEFAULT_MAX_TASKS_PER_OWNER`]); a call that would make one more is refused with an
    /// error saying so, and no task is made.
    pub fn max_tasks_per_client(mut self, tasks: usize) -> Self {
        self.tasks.max_unfinished_per_owner = tasks.max(1);
        self
    }

    /// Who owns a task made by an authenticated request: the key `owner` makes from its
    /// principal (the type `P` your [`Authenticate`](crate::Authenticate) returns). Only
    /// requests whose principal maps to the same key see the task.
    ///
    /// The key is the principal's identity for HTTP sessions too: a session belongs to the
    /// principal that opened it (a request with another's credentials finds no such
    /// session), and [`max_sessions_per_principal`](crate::HttpServer::max_sessions_per_principal)
    /// counts by it.
    ///
    /// Without it, a task belongs to the connection (stdio) or HTTP session that made it;
    /// a 2026-07-28 request has no session, so its tasks are then shared by every client
    /// that knows their id (128 random bits, never listed).
    ///
    /// ```
    /// use mcp_runtime::Server;
    ///
    /// struct User { id: String }
    ///
    /// let server = Server::new("reports", "1.0.0").task_owner(|user: &User| user.id.clone());
    /// # let _ = server;
    /// ```
    pub fn task_owner<P: Send + Sync + 'static>(
        mut self,
        owner: impl Fn(&P) -> String + Send + Sync + 'static,
    ) -> Self {
        self.tasks.owner_of_principal =
            Some(Arc::new(move |principal: &(dyn Any + Send + Sync)| {
                principal.downcast_ref::<P>().map(&owner)
            }));
        self
    }
}
