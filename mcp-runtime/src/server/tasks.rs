//! The server's task settings: where tasks are stored, how long they are kept, how many one
//! client may run, and who owns them. They are kept in a `TaskConfig`, beside the engine they
//! configure (`task/engine.rs`), so that `Server` holds one without importing this file.

use std::any::Any;
use std::sync::Arc;
use std::time::Duration;

use super::Server;
use crate::task::TaskStore;

/// Tasks: tool calls that outlive their request (see the
/// [tasks chapter](crate::manual::tasks)).
impl Server {
    /// Where tasks are kept (default: an [`InMemoryTaskStore`](crate::InMemoryTaskStore),
    /// this process's memory). A store shared by every instance lets a fleet serve any
    /// request about any task.
    pub fn task_store(mut self, store: impl TaskStore) -> Self {
        self.tasks.store = Arc::new(store);
        self
    }

    /// The longest a finished task's result is kept, counted from the task's creation
    /// (default [`DEFAULT_TASK_TTL`](crate::task::DEFAULT_TASK_TTL)). A client asking for a
    /// longer ttl gets this one; a client asking for none gets it too. A task still running
    /// is never forgotten.
    pub fn max_task_ttl(mut self, ttl: Duration) -> Self {
        self.tasks.max_ttl = ttl;
        self
    }

    /// How often clients are told to poll a task's status (default
    /// [`DEFAULT_TASK_POLL_INTERVAL`](crate::task::DEFAULT_TASK_POLL_INTERVAL)).
    pub fn task_poll_interval(mut self, interval: Duration) -> Self {
        self.tasks.poll_interval = interval;
        self
    }

    /// How many unfinished tasks one client may have at once (default
    /// [`DEFAULT_MAX_TASKS_PER_OWNER`](crate::task::DEFAULT_MAX_TASKS_PER_OWNER)); a call
    /// that would make one more is refused with an error saying so, and no task is made.
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
