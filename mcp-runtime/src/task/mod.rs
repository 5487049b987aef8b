//! Tasks: tool calls that outlive their request.
//!
//! A client may ask for a call to run as a task (2025-11-25 `params.task`; under 2026-07-28
//! the `io.modelcontextprotocol/tasks` extension): the call is answered at once with the
//! task's id, the tool runs on, and the client polls for its status, answers what it asks,
//! cancels it, or fetches its result. The tool itself is written as any other.
//!
//! The folder holds one concern a file: `store` (the [`TaskStore`] trait every store
//! implements, and what it keeps), `memory` (the in-memory default), `engine` (creating
//! tasks, running each to its end, shutdown), `input` (a task asking its client), `listen`
//! (2026-07-28 status notifications on a listen stream), `wire` (how a task is written in
//! each era), `contract` (the store contract as a test, for
//! `testing::check_task_store`).

#[cfg(feature = "testing")]
pub(crate) mod contract;
pub(crate) mod engine;
pub(crate) mod input;
pub(crate) mod listen;
pub(crate) mod memory;
pub(crate) mod store;
pub(crate) mod wire;

pub use engine::{DEFAULT_MAX_TASKS_PER_OWNER, DEFAULT_TASK_POLL_INTERVAL, DEFAULT_TASK_TTL};
pub use memory::InMemoryTaskStore;
pub use store::{
    Created, StoreError, StoreFuture, TaskChanges, TaskOutcome, TaskOwner, TaskPage, TaskRecord,
    TaskStatus, TaskStore, TaskUpdate, Updated,
};

/// Whether a tool may run as a task (`#[mcp_tool(task = "optional")]`): its
/// `execution.taskSupport` in 2025-11-25.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum TaskSupport {
    /// Calls always run within their request (the default).
    #[default]
    Forbidden,
    /// A client that asks for a task gets one; other calls run within their request.
    Optional,
    /// Every call must run as a task; a call that does not ask for one is refused.
    Required,
}

impl TaskSupport {
    /// The spec's name for it.
    pub fn as_str(self) -> &'static str {
        match self {
            TaskSupport::Forbidden => "forbidden",
            TaskSupport::Optional => "optional",
            TaskSupport::Required => "required",
        }
    }
}
