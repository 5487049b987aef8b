//! [`TaskStore`]: where tasks live, behind a trait, so one store can serve a fleet.
//!
//! The runtime reaches tasks only through this trait: it creates a task when a call becomes
//! one, records each change of status, the input the task waits for and the answers to it,
//! its outcome, and watches a task to learn of changes made elsewhere (a cancel or an answer
//! that reached another instance). [`InMemoryTaskStore`](super::InMemoryTaskStore) is the
//! default; a shared store (a database, Redis) lets any instance serve any request about
//! any task. [`testing::check_task_store`](crate::testing::check_task_store) runs the
//! contract every implementation must keep.

use std::future::Future;
use std::pin::Pin;
use std::time::{Duration, SystemTime};

use futures_util::Stream;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// What a store's methods return: a boxed future, so the trait can be used as
/// `Arc<dyn TaskStore>`.
pub type StoreFuture<'a, T> = Pin<Box<dyn Future<Output = Result<T, StoreError>> + Send + 'a>>;

/// The changes of one task, as a store reports them (see [`TaskStore::watch`]).
pub type TaskChanges = Pin<Box<dyn Stream<Item = TaskRecord> + Send + 'static>>;

/// A store (of tasks, or a fleet's) could not do what was asked (its database is
/// unreachable, say). The runtime answers the request that needed it with an internal error
/// and logs this. The message says what failed, e.g. `cannot reach Redis at redis://…: Connection refused`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct StoreError(pub String);

/// Who a task belongs to: only requests from the same owner see it.
///
/// The runtime makes it from the connection (stdio), the HTTP session, or the
/// authenticated principal (see [`Server::task_owner`](crate::Server::task_owner)). A store
/// treats it as an opaque key.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct TaskOwner(pub String);

/// Makes a task owner's key from an authenticated principal, if it is of the type given
/// (`Server::task_owner`).
pub(crate) type OwnerOfPrincipal =
    std::sync::Arc<dyn Fn(&(dyn std::any::Any + Send + Sync)) -> Option<String> + Send + Sync>;

/// The state of a task, as the spec names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TaskStatus {
    /// Running.
    Working,
    /// Waiting for the client to answer a request the tool made.
    InputRequired,
    /// Finished with a result (which may be a tool result with `isError`).
    Completed,
    /// Finished with an error.
    Failed,
    /// Stopped at the client's request.
    Cancelled,
}

impl TaskStatus {
    /// Whether the task has finished: its status never changes again.
    pub fn is_terminal(self) -> bool {
        matches!(
            self,
            TaskStatus::Completed | TaskStatus::Failed | TaskStatus::Cancelled
        )
    }

    /// The name the protocol uses (`"input_required"`, …).
    pub fn as_str(self) -> &'static str {
        match self {
            TaskStatus::Working => "working",
            TaskStatus::InputRequired => "input_required",
            TaskStatus::Completed => "completed",
            TaskStatus::Failed => "failed",
            TaskStatus::Cancelled => "cancelled",
        }
    }
}

/// How a finished task ended: the result of the request it ran, or a JSON-RPC error.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TaskOutcome {
    /// The request's result, as its revision writes it (a `CallToolResult`).
    Result(Value),
    /// A JSON-RPC error.
    Error {
        /// The error code.
        code: i64,
        /// The message.
        message: String,
        /// Further data, if any.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        data: Option<Value>,
    },
}

/// Everything stored about one task.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TaskRecord {
    /// The task id: 128 random bits in hex, made by the runtime.
    pub id: String,
    /// Who may see it.
    pub owner: TaskOwner,
    /// The protocol revision of the request that created it; it shapes every answer about it.
    pub protocol_version: String,
    /// What the task runs (the tool's name).
    pub tool: String,
    /// The current status.
    pub status: TaskStatus,
    /// A human-readable word on the status (why it failed, what it waits for).
    pub status_message: Option<String>,
    /// When it was created.
    pub created_at: SystemTime,
    /// When its status, input or outcome last changed.
    pub last_updated_at: SystemTime,
    /// How long after creation a finished task is kept; `None` keeps it until the store
    /// is dropped.
    pub ttl: Option<Duration>,
    /// How often a client should poll.
    pub poll_interval: Option<Duration>,
    /// What the task waits for, by key (a request the tool made: `{method, params}`),
    /// while it is `input_required`.
    pub input_requests: Map<String, Value>,
    /// Answers the client gave (2026-07-28 `tasks/update`), by key, not yet taken by the
    /// running tool.
    pub input_responses: Map<String, Value>,
    /// How it ended, once it has.
    pub outcome: Option<TaskOutcome>,
}

impl TaskRecord {
    /// When a finished task is forgotten: its creation plus its ttl. A task that has not
    /// finished is never forgotten, whatever its ttl: its result has not been kept yet.
    pub fn expires_at(&self) -> Option<SystemTime> {
        if !self.status.is_terminal() {
            return None;
        }
        self.ttl.map(|ttl| self.created_at + ttl)
    }

    /// Whether it is forgotten as of `now`.
    pub fn is_expired(&self, now: SystemTime) -> bool {
        self.expires_at().is_some_and(|at| at <= now)
    }

    /// Applies `update` as the [contract](TaskStore) says, `now` being the time of the
    /// change: `Ok(true)` if it changed the record, `Ok(false)` if it was refused (the
    /// record untouched), `Err` for an update no task can take (the record untouched). The
    /// rules of every store that keeps records as values, the in-memory and Redis ones among
    /// them.
    pub fn apply(&mut self, update: TaskUpdate, now: SystemTime) -> Result<bool, StoreError> {
        // A caller's bug whatever the task's state, so reported before a refusal could hide it.
        if let TaskUpdate::Finished { status, .. } = &update
            && !matches!(status, TaskStatus::Completed | TaskStatus::Failed)
        {
            return Err(StoreError(format!(
                "a task finishes completed or failed, not {}",
                status.as_str()
            )));
        }
        // Every status that is not terminal is running (`working` or `input_required`), so the
        // one test also refuses `Working` and `InputRequired` to a task that is not running.
        if self.status.is_terminal() {
            return Ok(false);
        }
        match update {
            TaskUpdate::Working { message } => {
                self.status = TaskStatus::Working;
                self.status_message = message;
                self.input_requests.clear();
            }
            TaskUpdate::InputRequired { requests, message } => {
                self.status = TaskStatus::InputRequired;
                self.status_message = message;
                self.input_requests.extend(requests);
            }
            TaskUpdate::InputResponses(responses) => {
                // An answered request waits no more: a client polling right after its
                // `tasks/update` sees only what is still asked, and `working` once nothing is,
                // whichever instance it asks and however soon the tool takes the answer.
                for (key, answer) in responses {
                    if self.input_requests.remove(&key).is_some() {
                        self.input_responses.insert(key, answer);
                    }
                }
                if self.status == TaskStatus::InputRequired && self.input_requests.is_empty() {
                    self.status = TaskStatus::Working;
                    self.status_message = None;
                }
            }
            TaskUpdate::InputTaken(keys) => {
                for key in &keys {
                    self.input_responses.remove(key);
                    self.input_requests.remove(key);
                }
            }
            TaskUpdate::Finished {
                outcome,
                status,
                message,
            } => {
                self.status = status;
                self.status_message = message;
                self.outcome = Some(outcome);
                self.input_requests.clear();
                self.input_responses.clear();
            }
            TaskUpdate::Cancelled { message } => {
                self.status = TaskStatus::Cancelled;
                self.status_message = message;
                self.input_requests.clear();
                self.input_responses.clear();
            }
        }
        // Never backwards, even if the clock steps back: a client comparing two polls must not
        // see a later state stamped earlier.
        self.last_updated_at = now.max(self.last_updated_at);
        Ok(true)
    }
}

/// A change to one task (see [`TaskStore::update`]).
#[derive(Clone, Debug, PartialEq)]
pub enum TaskUpdate {
    /// Back to `working`: the input it waited for came, or it made progress worth a word.
    /// Clears `input_requests`.
    Working {
        /// The new status message (`None` clears it).
        message: Option<String>,
    },
    /// The tool asked the client something: status `input_required`, and these requests
    /// added to `input_requests`.
    InputRequired {
        /// The new requests, by key.
        requests: Map<String, Value>,
        /// The new status message.
        message: Option<String>,
    },
    /// The client answered (2026-07-28 `tasks/update`): each answer to a request still in
    /// `input_requests` moves it from there to `input_responses` (others are ignored); the
    /// task is `working` once no request is left. The running tool takes the answers.
    InputResponses(Map<String, Value>),
    /// The running tool took these answers: removed from `input_responses`, and their
    /// requests from `input_requests`.
    InputTaken(Vec<String>),
    /// The task finished: `completed` with a result, `failed` with an error.
    Finished {
        /// How it ended.
        outcome: TaskOutcome,
        /// `Completed` or `Failed`.
        status: TaskStatus,
        /// The status message.
        message: Option<String>,
    },
    /// The client cancelled it.
    Cancelled {
        /// The status message.
        message: Option<String>,
    },
}

/// What [`TaskStore::create`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Created {
    /// The task is stored.
    Stored,
    /// Its owner already has this many unfinished tasks (the limit given); nothing was
    /// stored.
    OwnerAtLimit(usize),
}

/// What [`TaskStore::update`] did.
#[derive(Clone, Debug, PartialEq)]
pub enum Updated {
    /// The update was applied; the task as stored now.
    Applied(TaskRecord),
    /// The task had finished already (or the update does not apply to its status): nothing
    /// changed; the task as it is.
    Refused(TaskRecord),
    /// No such task (never created, or forgotten after its ttl).
    Unknown,
}

/// One page of an owner's tasks (see [`TaskStore::list`]).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TaskPage {
    /// The tasks, oldest first.
    pub tasks: Vec<TaskRecord>,
    /// Where the next page starts, if there is one: pass it as `after`. `None` when nothing
    /// remains, also when the page is exactly full (a store looks one task ahead).
    pub next: Option<String>,
}

/// Where tasks live. The runtime uses only this trait, so a store shared by a fleet (a
/// database, Redis) lets any instance serve any request about any task.
///
/// Every method may be called from any instance of a fleet at any time, so each must be
/// atomic on its own: `create` checks the owner's limit and stores in one step, and
/// `update` never changes a finished task. The contract, checked by
/// [`testing::check_task_store`](crate::testing::check_task_store):
///
/// - `get` and `list` never return a task that [`is_expired`](TaskRecord::is_expired),
///   whether or not `purge_expired` has run;
/// - `update` stamps `last_updated_at`, refuses every change to a finished task, and
///   refuses `InputRequired` and `Working` unless the task is running;
/// - `watch` yields the task as it is now, then the task after every applied update
///   (intermediate states may be skipped when changes come fast, the latest never), and
///   ends when the task is forgotten;
/// - `list` returns only the owner's tasks, oldest first, in pages that neither repeat nor
///   skip one while tasks are added.
pub trait TaskStore: Send + Sync + 'static {
    /// Stores a new task, unless its owner already has `max_unfinished` tasks that have not
    /// finished (counted whatever the new record's status). An id already stored (and not
    /// expired) is an error.
    fn create(&self, task: TaskRecord, max_unfinished: usize) -> StoreFuture<'_, Created>;

    /// The task with this id, unless it is unknown or expired.
    fn get<'a>(&'a self, id: &'a str) -> StoreFuture<'a, Option<TaskRecord>>;

    /// Applies a change to a task, stamping `last_updated_at` (see [`Updated`]).
    fn update<'a>(&'a self, id: &'a str, update: TaskUpdate) -> StoreFuture<'a, Updated>;

    /// Up to `limit` of `owner`'s tasks, oldest first, starting after the position `after`
    /// (a `next` of an earlier page). An `after` the store never gave yields an empty page
    /// (the runtime refuses cursors it did not give before asking).
    fn list<'a>(
        &'a self,
        owner: &'a TaskOwner,
        after: Option<&'a str>,
        limit: usize,
    ) -> StoreFuture<'a, TaskPage>;

    /// The task as it is now and then after each change; `None` if it is unknown or expired.
    /// The stream ends when the task is purged.
    fn watch<'a>(&'a self, id: &'a str) -> StoreFuture<'a, Option<TaskChanges>>;

    /// Forgets every task expired as of `now`; returns how many. The runtime calls it
    /// periodically.
    fn purge_expired(&self, now: SystemTime) -> StoreFuture<'_, usize>;

    /// The time by the store's clock: the runtime stamps new tasks with it and purges by
    /// it. A store that instances share gives them one clock (the Redis store gives
    /// Redis's), so that a task expires at one time whichever instance looks.
    fn now(&self) -> SystemTime {
        SystemTime::now()
    }
}
