//! [`Tasks`]: what the runtime does with tasks, over whichever store the server has —
//! creates them, runs each one's work to its end, keeps the store's record in step,
//! tells the client of changes, and on shutdown marks the ones still running as failed.
//! Its settings are here too: what a server keeps of them until it serves (`TaskConfig`),
//! and what `Tasks` runs by (`TaskSettings`).

use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex, Once};
use std::time::Duration;

use futures_util::StreamExt as _;
use serde_json::{Map, Value, json};
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

use super::memory::InMemoryTaskStore;
use super::store::{
    Created, OwnerOfPrincipal, TaskChanges, TaskOutcome, TaskOwner, TaskRecord, TaskStatus,
    TaskStore, TaskUpdate, Updated,
};
use super::wire;
use crate::backoff::Backoff;
use crate::context::RequestHandle;
use crate::protocol::jsonrpc::{RpcError, code};
use crate::protocol::outbox::Outbox;
use crate::protocol::random_id::random_id;
use crate::protocol::version::ProtocolVersion;

/// The longest a finished task is kept unless the server says otherwise, and what a task
/// gets when its client asks for no ttl.
pub const DEFAULT_TASK_TTL: Duration = Duration::from_secs(3600);
/// How often clients are told to poll a task, unless the server says otherwise.
pub const DEFAULT_TASK_POLL_INTERVAL: Duration = Duration::from_millis(500);
/// How many unfinished tasks one owner may have at once, unless the server says otherwise.
pub const DEFAULT_MAX_TASKS_PER_OWNER: usize = 64;
/// How often expired tasks are purged from the store.
const PURGE_INTERVAL: Duration = Duration::from_secs(10);
/// How long a finished task's last update is tried again while the store fails, at most.
const FINAL_UPDATE_PATIENCE: Duration = Duration::from_secs(15 * 60);

/// The server's task settings.
#[derive(Clone, Debug)]
pub(crate) struct TaskSettings {
    /// The longest ttl a task gets (a client's longer request is capped to it), and the
    /// ttl of a task whose client asks for none.
    pub max_ttl: Duration,
    pub poll_interval: Duration,
    pub max_unfinished_per_owner: usize,
    /// The largest result a task may keep: the server's message limit.
    pub max_result_bytes: usize,
}

/// What `Server` keeps about tasks until it serves: the store, the settings (all but the
/// message limit, which is the server's), and who owns a task. `Server`'s methods in
/// `server/tasks.rs` set it.
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

/// How a task's work ended, as the session shaped it.
pub(crate) struct Finished {
    pub status: TaskStatus,
    pub outcome: TaskOutcome,
    pub message: Option<String>,
}

/// A task's work: the call pipeline's future, made into an outcome.
pub(crate) type TaskWork = Pin<Box<dyn Future<Output = Finished> + Send + 'static>>;

/// The tasks of one server.
pub(crate) struct Tasks {
    store: Arc<dyn TaskStore>,
    pub settings: TaskSettings,
    running: TaskTracker,
    /// Fires when the shutdown grace period is over: tasks still running are failed.
    grace_over: CancellationToken,
    /// Fires on shutdown: the purging loop stops.
    stopping: CancellationToken,
    purging: Once,
    /// 2025-11-25: by task, the response stream of a `tasks/result` waiting on it here, where
    /// the requests the task makes of its client go (see `input`).
    result_streams: Mutex<HashMap<String, Outbox>>,
}

impl Tasks {
    pub fn new(store: Arc<dyn TaskStore>, settings: TaskSettings) -> Self {
        Tasks {
            store,
            settings,
            running: TaskTracker::new(),
            grace_over: CancellationToken::new(),
            stopping: CancellationToken::new(),
            purging: Once::new(),
            result_streams: Mutex::new(HashMap::new()),
        }
    }

    pub fn store(&self) -> &dyn TaskStore {
        &*self.store
    }

    /// A new task's record, `working`, with a fresh id and its ttl capped.
    pub fn new_record(
        &self,
        owner: TaskOwner,
        version: ProtocolVersion,
        tool: &str,
        requested_ttl: Option<Duration>,
    ) -> TaskRecord {
        let now = self.store.now();
        let ttl = requested_ttl.map_or(self.settings.max_ttl, |ttl| ttl.min(self.settings.max_ttl));
        TaskRecord {
            id: random_id(),
            owner,
            protocol_version: version.as_str().to_owned(),
            tool: tool.to_owned(),
            status: TaskStatus::Working,
            status_message: None,
            created_at: now,
            last_updated_at: now,
            ttl: Some(ttl),
            poll_interval: Some(self.settings.poll_interval),
            input_requests: Map::new(),
            input_responses: Map::new(),
            outcome: None,
        }
    }

    /// Stores a new task, refusing it (no task made) when its owner has too many running.
    pub async fn create(&self, record: &TaskRecord) -> Result<(), RpcError> {
        self.start_purging();
        let limit = self.settings.max_unfinished_per_owner;
        match self.store.create(record.clone(), limit).await {
            Ok(Created::Stored) => Ok(()),
            Ok(Created::OwnerAtLimit(limit)) => Err(RpcError::new(
                code::INVALID_REQUEST,
                format!(
                    "Invalid request: too many tasks: this client already has {limit} unfinished tasks, the \
                     server's limit. Wait for one to finish, or cancel one, then try again."
                ),
            )),
            Err(error) => Err(store_failed(&error)),
        }
    }

    /// The task `id` if `owner` may see it: another owner's task is as unknown as one that
    /// never existed, so ids reveal nothing.
    pub async fn get_owned(&self, owner: &TaskOwner, id: &str) -> Result<TaskRecord, RpcError> {
        self.find_owned(owner, id)
            .await?
            .ok_or_else(|| unknown_task(id))
    }

    /// The task `id` if `owner` may see it, `None` if it is unknown or another owner's (one
    /// rule for `get_owned` and listen streams); `Err` only when the store fails.
    async fn find_owned(
        &self,
        owner: &TaskOwner,
        id: &str,
    ) -> Result<Option<TaskRecord>, RpcError> {
        match self.store.get(id).await {
            Ok(Some(record)) if record.owner == *owner => Ok(Some(record)),
            Ok(_) => Ok(None),
            Err(error) => Err(store_failed(&error)),
        }
    }

    /// The changes of task `id` from its state now, if `owner` may see it (the rule of
    /// `find_owned`); `None` for a task unknown to `owner`.
    pub async fn watch_owned(
        &self,
        owner: &TaskOwner,
        id: &str,
    ) -> Result<Option<TaskChanges>, RpcError> {
        if self.find_owned(owner, id).await?.is_none() {
            return Ok(None);
        }
        self.store
            .watch(id)
            .await
            .map_err(|error| store_failed(&error))
    }

    /// Applies `update` to a task `owner` may see; `Refused` carries the task as it is.
    pub async fn update_owned(
        &self,
        owner: &TaskOwner,
        id: &str,
        update: TaskUpdate,
    ) -> Result<Updated, RpcError> {
        self.get_owned(owner, id).await?;
        self.store
            .update(id, update)
            .await
            .map_err(|error| store_failed(&error))
    }

    /// Waits until the task has finished, and gives it as it ended.
    pub async fn wait_finished(&self, owner: &TaskOwner, id: &str) -> Result<TaskRecord, RpcError> {
        let record = self.get_owned(owner, id).await?;
        if record.status.is_terminal() {
            return Ok(record);
        }
        let mut changes = match self.store.watch(id).await {
            Ok(Some(changes)) => changes,
            Ok(None) => return Err(unknown_task(id)),
            Err(error) => return Err(store_failed(&error)),
        };
        while let Some(record) = changes.next().await {
            if record.status.is_terminal() {
                return Ok(record);
            }
        }
        // The store forgot the task while it ran (it expired or was purged by hand).
        Err(unknown_task(id))
    }

    /// 2025-11-25: a `tasks/result` for `id` waits with its response stream `outbox`; the
    /// task's requests to the client go there until the returned guard is dropped.
    pub fn attach_result_stream(self: &Arc<Self>, id: &str, outbox: Outbox) -> ResultStream {
        self.result_streams
            .lock()
            .expect("result streams poisoned")
            .insert(id.to_owned(), outbox.clone());
        ResultStream {
            tasks: Arc::clone(self),
            id: id.to_owned(),
            outbox,
        }
    }

    /// The response stream of a `tasks/result` waiting on `id` now, if one is still open.
    pub fn result_stream_now(&self, id: &str) -> Option<Outbox> {
        let streams = self.result_streams.lock().expect("result streams poisoned");
        let stream = streams.get(id)?;
        (!stream.is_closed()).then(|| stream.clone())
    }

    /// Runs a task's work to its end on a task of its own. The store's record follows it;
    /// a cancel (made on any instance) stops the work; every change of status is sent on
    /// `notify`, if the task's revision has status notifications.
    pub fn run(
        self: &Arc<Self>,
        record: TaskRecord,
        work: TaskWork,
        request: Option<RequestHandle>,
        notify: Option<Outbox>,
    ) {
        let tasks = Arc::clone(self);
        self.running.spawn(async move {
            tasks.drive(record, work, request, notify).await;
        });
    }

    async fn drive(
        &self,
        record: TaskRecord,
        mut work: TaskWork,
        request: Option<RequestHandle>,
        notify: Option<Outbox>,
    ) {
        let id = record.id.clone();
        let tell = |record: &TaskRecord| {
            if let Some(outbox) = &notify {
                outbox.send(&json!({
                    "jsonrpc": "2.0",
                    "method": "notifications/tasks/status",
                    "params": wire::task_object(record),
                }));
            }
        };
        let mut changes = match self.store.watch(&id).await {
            Ok(Some(changes)) => Some(changes),
            Ok(None) => None,
            Err(error) => {
                tracing::error!(task = %id, %error, "cannot watch a task; a cancel from elsewhere will not stop it");
                None
            }
        };
        let mut last_status = record.status;
        let finished = loop {
            let change = async {
                match &mut changes {
                    Some(changes) => changes.next().await,
                    None => std::future::pending().await,
                }
            };
            tokio::select! {
                finished = &mut work => break Some(finished),
                change = change => match change {
                    Some(record) if record.status == TaskStatus::Cancelled => {
                        // Nothing more about the task reaches the client, and work the tool
                        // handed off learns it should stop.
                        if let Some(request) = &request {
                            request.abandon();
                        }
                        tell(&record);
                        return;
                    }
                    Some(record) => {
                        if record.status != last_status {
                            last_status = record.status;
                            tell(&record);
                        }
                    }
                    // The task was forgotten (purged by hand): nobody can ask for the result.
                    None => {
                        changes = None;
                    }
                },
                () = self.grace_over.cancelled() => {
                    if let Some(request) = &request {
                        request.abandon();
                    }
                    break None;
                }
            }
        };
        let finished = match finished {
            Some(finished) => self.bounded(finished),
            None => Finished {
                status: TaskStatus::Failed,
                outcome: TaskOutcome::Error {
                    code: code::INTERNAL_ERROR,
                    message: "Internal error: the server shut down before the task finished."
                        .to_owned(),
                    data: None,
                },
                message: Some("The server shut down before the task finished.".to_owned()),
            },
        };
        self.result_streams
            .lock()
            .expect("result streams poisoned")
            .remove(&id);
        let update = TaskUpdate::Finished {
            outcome: finished.outcome,
            status: finished.status,
            message: finished.message,
        };
        // Kept here until the store takes it: a blip of the store at the task's end must not
        // lose its result (one outcome per running task, each within the size limit).
        let give_up_at = tokio::time::Instant::now() + FINAL_UPDATE_PATIENCE;
        let mut backoff = Backoff::new();
        loop {
            match self.store.update(&id, update.clone()).await {
                Ok(Updated::Applied(record)) => return tell(&record),
                // Cancelled meanwhile (or an earlier attempt landed after all): it stands.
                Ok(Updated::Refused(_) | Updated::Unknown) => return,
                Err(error) => {
                    if self.grace_over.is_cancelled() || tokio::time::Instant::now() >= give_up_at {
                        tracing::error!(task = %id, %error, "cannot record how a task ended");
                        return;
                    }
                    if backoff.is_fresh() {
                        tracing::warn!(task = %id, %error, "cannot record how a task ended yet; trying again");
                    }
                    tokio::select! {
                        () = tokio::time::sleep(backoff.pause()) => {}
                        () = self.grace_over.cancelled() => {}
                    }
                }
            }
        }
    }

    /// A result too large to send is not kept: the task fails, saying why.
    fn bounded(&self, finished: Finished) -> Finished {
        let TaskOutcome::Result(result) = &finished.outcome else {
            return finished;
        };
        let size = serde_json::to_vec(result).map_or(0, |bytes| bytes.len());
        let limit = self.settings.max_result_bytes;
        if size <= limit {
            return finished;
        }
        let message = format!(
            "the task's result is {size} bytes, over the server's message limit of {limit} \
             bytes, so it cannot be sent"
        );
        Finished {
            status: TaskStatus::Failed,
            outcome: TaskOutcome::Error {
                code: code::INTERNAL_ERROR,
                message: format!("Internal error: {message}."),
                data: None,
            },
            message: Some(format!("The result is too large: {message}.")),
        }
    }

    /// Cancels every unfinished task of `owner`, in the background: its HTTP session ended,
    /// so no request can reach them any more.
    #[cfg(feature = "http")]
    pub fn cancel_all_of(self: &Arc<Self>, owner: TaskOwner) {
        let tasks = Arc::clone(self);
        tokio::spawn(async move {
            let mut after: Option<String> = None;
            loop {
                let page = match tasks.store.list(&owner, after.as_deref(), 100).await {
                    Ok(page) => page,
                    Err(error) => {
                        tracing::warn!(%error, "cannot cancel the tasks of an ended session");
                        return;
                    }
                };
                for task in page.tasks.iter().filter(|task| !task.status.is_terminal()) {
                    let update = TaskUpdate::Cancelled {
                        message: Some("The session that made the task ended.".to_owned()),
                    };
                    if let Err(error) = tasks.store.update(&task.id, update).await {
                        tracing::warn!(task = %task.id, %error, "cannot cancel a task of an ended session");
                    }
                }
                match page.next {
                    Some(next) => after = Some(next),
                    None => return,
                }
            }
        });
    }

    /// Lets running tasks finish for `grace`, then fails the rest.
    pub async fn shut_down(&self, grace: Duration) {
        self.stopping.cancel();
        self.running.close();
        if tokio::time::timeout(grace, self.running.wait())
            .await
            .is_err()
        {
            tracing::warn!(
                ?grace,
                "tasks still running after the shutdown grace period are marked failed"
            );
            self.grace_over.cancel();
            self.running.wait().await;
        }
    }

    /// Starts the loop that purges expired tasks, once, when the first task is made.
    fn start_purging(&self) {
        self.purging.call_once(|| {
            let store = Arc::clone(&self.store);
            let stopping = self.stopping.clone();
            tokio::spawn(async move {
                let mut ticks = tokio::time::interval(PURGE_INTERVAL);
                loop {
                    tokio::select! {
                        () = stopping.cancelled() => break,
                        _ = ticks.tick() => {
                            if let Err(error) = store.purge_expired(store.now()).await {
                                tracing::warn!(%error, "cannot purge expired tasks");
                            }
                        }
                    }
                }
            });
        });
    }
}

/// A `tasks/result` waiting with its stream: on drop, the task's requests stop going there.
pub(crate) struct ResultStream {
    tasks: Arc<Tasks>,
    id: String,
    outbox: Outbox,
}

impl Drop for ResultStream {
    fn drop(&mut self) {
        let mut streams = self
            .tasks
            .result_streams
            .lock()
            .expect("result streams poisoned");
        // A later `tasks/result` may have taken the place: only this one's own goes.
        if streams
            .get(&self.id)
            .is_some_and(|stream| stream.same_channel(&self.outbox))
        {
            streams.remove(&self.id);
        }
    }
}

/// The answer about a task id this owner cannot see.
pub(crate) fn unknown_task(id: &str) -> RpcError {
    RpcError::invalid_params(format!(
        "Invalid params: unknown task `{id}` (it never existed, belongs to another client, or \
         expired after its ttl)."
    ))
}

fn store_failed(error: &super::store::StoreError) -> RpcError {
    tracing::error!(%error, "the task store failed");
    RpcError::new(
        code::INTERNAL_ERROR,
        "Internal error: the task store is unavailable.",
    )
}

/// The result a finished task gives for 2025-11-25 `tasks/result`: the original request's
/// result, tied to the task in `_meta`, or its error.
pub(crate) fn task_payload(record: &TaskRecord) -> Result<Value, RpcError> {
    match &record.outcome {
        Some(TaskOutcome::Result(result)) => {
            let mut result = result.clone();
            if let Value::Object(members) = &mut result {
                let meta = members.entry("_meta").or_insert_with(|| json!({}));
                if let Value::Object(meta) = meta {
                    meta.insert(wire::RELATED_TASK.into(), json!({ "taskId": record.id }));
                }
            }
            Ok(result)
        }
        Some(TaskOutcome::Error {
            code,
            message,
            data,
        }) => {
            let error = RpcError::new(*code, message.clone());
            Err(match data {
                Some(data) => error.with_data(data.clone()),
                None => error,
            })
        }
        None => Err(RpcError::invalid_params(format!(
            "Invalid params: task `{}` was cancelled; it has no result.",
            record.id
        ))),
    }
}
