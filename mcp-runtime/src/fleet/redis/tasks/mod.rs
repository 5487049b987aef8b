//! [`RedisTaskStore`]: tasks in Redis, so any instance of a fleet serves any request about
//! any task.
//!
//! Keys (after the link's prefix):
//!
//! - `task:ID`: a hash: `record` (the task as JSON, times in whole milliseconds since the
//!   epoch), `version` (raised by every write), `seq` (its number), `owner`, `runner` (the
//!   instance that created it, which runs it) and, once it finished with a ttl,
//!   `expires_at` (milliseconds). Its hash then expires by itself (`PEXPIREAT`), so Redis
//!   forgets it even if no instance purges: at `expires_at`, or [`LINGER`] after the
//!   change that finished it if that is later, so its watchers read its last state;
//! - `tasks:seq`: the counter that numbers tasks in order of creation, across the fleet;
//! - `tasks:owner:OWNER`: a sorted set of the owner's task ids by number: `list` walks it,
//!   and a number is the position a page ends at;
//! - `tasks:running:OWNER`: the set of the owner's unfinished task ids: `create` counts it;
//! - `tasks:runs:INSTANCE`: the set of the unfinished task ids an instance runs, and
//!   `tasks:runners`, the set of instances with such tasks: `purge_expired` walks them to
//!   fail the tasks of dead instances that nobody reads ([`sweep`]);
//! - `tasks:expiring`: a sorted set of finished task ids by `expires_at`: `purge_expired`
//!   walks it, also for tasks whose hash Redis already dropped;
//! - `tasks:owners`: a hash from task id to owner, to find a forgotten task's index entries;
//! - channel `tasks`: the id of each task that changed, for the watchers of every instance.
//!
//! `create`, writes and purges are Lua scripts ([`scripts`]), each atomic. An update reads
//! the task, applies its change here with the in-memory store's rules, and writes it back
//! only if nobody wrote it meanwhile (the `version` it read is still there); otherwise it
//! reads again.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use redis::Script;
use tokio_util::sync::{CancellationToken, DropGuard};

use super::link::{HEARTBEAT_TTL, LIVENESS, RedisLink};
use crate::protocol::random_id::random_id;
use crate::task::store::{
    Created, StoreError, StoreFuture, TaskChanges, TaskOwner, TaskPage, TaskRecord, TaskStore,
    TaskUpdate, Updated,
};

mod record;
mod scripts;
mod sweep;
mod watch;

use record::{decode, encode, millis, runner_gone, whole_millis};

/// How long a finished task's hash stays in Redis at least after the change that finished
/// it, even if its ttl has passed: long enough for every watcher to read that change (a
/// cancel must stop its runner). No method shows it meanwhile.
const LINGER: Duration = Duration::from_secs(30);
/// How many times a write is tried again when another instance wrote the task between the
/// read and the write.
const ATTEMPTS: usize = 32;
/// How many expired tasks `purge_expired` forgets at a time.
const PURGE_BATCH: usize = 100;

/// Tasks in Redis (feature `redis`): every instance of a fleet that names the same Redis
/// and key prefix sees the same tasks, so any instance can answer any request about any
/// task, and a cancel or an answer that reaches one instance reaches the task wherever it
/// runs. [`HttpServer::redis`](crate::HttpServer::redis) makes one, beside its
/// [`RedisFleetStore`](super::RedisFleetStore), on the same connection.
///
/// What each method costs: `get` is one round trip; `create`, `update` and
/// `purge_expired` are Lua scripts, atomic whatever the other instances do (an update
/// reads, then writes only if the task did not change meanwhile, else reads again); `list`
/// reads the owner's index, then the tasks of the page. A finished task with a ttl is
/// dropped by Redis itself a little after it expires, and by `purge_expired` before that.
///
/// [`watch`](TaskStore::watch) hears of changes made on every instance: each write
/// publishes the task's id, and each store holds one subscription (opened by its first
/// watch, opened again if it breaks) that wakes the watchers of that id, which read the
/// task again. A stream goes on across a Redis outage and ends when its task is forgotten.
///
/// Each task is recorded as run by the instance that created it. A task still `working` or
/// `input_required` whose instance stopped sending heartbeats (see
/// [`RedisLink`]) while Redis was reachable is failed by the first store that reads it, or
/// by the next `purge_expired` of any instance if nobody does (every 10 s by each server),
/// so that it no longer counts against its owner's limit (a heartbeat that lapsed during
/// an outage of Redis, or in the few seconds after one, proves nothing), with the status
/// message
/// "The server instance running the task stopped before it finished." (and an internal
/// error saying so): its result will never come.
///
/// Every failure to reach Redis is a [`StoreError`] within a few seconds: the link gives up
/// on a command after 2 s, and reconnects by itself once Redis is back.
#[derive(Clone)]
pub struct RedisTaskStore {
    inner: Arc<Inner>,
}

struct Inner {
    link: RedisLink,
    instance: Arc<str>,
    create: Script,
    write: Script,
    forget: Script,
    forget_runner: Script,
    hub: Arc<watch::Hub>,
    stop: CancellationToken,
    // Ends the subscription once the store and all its watch streams are dropped.
    _stop_on_drop: DropGuard,
}

impl std::fmt::Debug for RedisTaskStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RedisTaskStore")
            .field("link", &self.inner.link)
            .field("instance", &self.inner.instance)
            .finish_non_exhaustive()
    }
}

/// A task as read, with what writing it back needs.
struct Loaded {
    record: TaskRecord,
    version: String,
    runner: Option<String>,
}

/// What a write did.
enum Written {
    Done,
    /// Another write came between the read and this one (or the runner is alive after
    /// all): read again.
    Changed,
    /// The task is gone or expired.
    Gone,
}

impl RedisTaskStore {
    /// A store on `link`, whose tasks are recorded as run by `instance`: the id of this
    /// server instance, whose heartbeat someone sends (the server does, for its own id).
    /// A task run by an instance whose heartbeat stops fails when another instance reads
    /// it; this store's own tasks are never failed by it.
    pub fn new(link: RedisLink, instance: impl Into<Arc<str>>) -> Self {
        let stop = CancellationToken::new();
        RedisTaskStore {
            inner: Arc::new(Inner {
                link,
                instance: instance.into(),
                create: Script::new(scripts::CREATE),
                write: Script::new(&format!("{LIVENESS}{}", scripts::WRITE)),
                forget: Script::new(scripts::FORGET),
                forget_runner: Script::new(scripts::FORGET_RUNNER),
                hub: Arc::default(),
                _stop_on_drop: stop.clone().drop_guard(),
                stop,
            }),
        }
    }

    /// A store on the Redis at `url` (`redis://host:port/db`) whose keys start with
    /// `prefix`, for a program that keeps only its tasks in Redis: connects now (failing if
    /// Redis cannot be reached), picks a random instance id and sends its heartbeat for as
    /// long as the process runs. Must be called within a Tokio runtime.
    pub async fn connect(url: &str, prefix: &str) -> Result<Self, StoreError> {
        let link = RedisLink::open(url, prefix)?;
        link.check().await?;
        let instance: Arc<str> = Arc::from(random_id());
        // The first heartbeat before any task: another instance must never take a task of
        // this one for a dead runner's.
        link.heartbeat(&instance, HEARTBEAT_TTL).await?;
        link.spawn_heartbeat(Arc::clone(&instance));
        Ok(Self::new(link, instance))
    }

    /// The instance this store records as running the tasks it creates.
    pub fn instance(&self) -> &str {
        &self.inner.instance
    }

    fn link(&self) -> &RedisLink {
        &self.inner.link
    }

    fn task_key(&self, id: &str) -> String {
        self.link().key(format_args!("task:{id}"))
    }

    fn owner_key(&self, owner: &TaskOwner) -> String {
        self.link().key(format_args!("tasks:owner:{}", owner.0))
    }

    fn running_key(&self, owner: &TaskOwner) -> String {
        self.link().key(format_args!("tasks:running:{}", owner.0))
    }

    /// The set of the unfinished tasks `instance` runs.
    fn runs_key(&self, instance: &str) -> String {
        self.link().key(format_args!("tasks:runs:{instance}"))
    }

    fn channel(&self) -> String {
        self.link().key("tasks")
    }

    fn unavailable(&self, error: redis::RedisError) -> StoreError {
        self.link().unavailable(error)
    }

    fn contended(&self, id: &str) -> StoreError {
        StoreError(format!(
            "task {id} changed {ATTEMPTS} times while this instance tried to write it"
        ))
    }

    /// The runner of a task still running on another instance than this one.
    fn runs_elsewhere<'a>(&self, loaded: &'a Loaded) -> Option<&'a str> {
        let runner = loaded.runner.as_deref()?;
        (!loaded.record.status.is_terminal() && runner != &*self.inner.instance).then_some(runner)
    }

    // ---- reading ---------------------------------------------------------------------

    /// The task as stored (expired or not), or `None`.
    async fn read(&self, id: &str) -> Result<Option<Loaded>, StoreError> {
        let mut connection = self.link().connection();
        let fields: (Option<String>, Option<String>, Option<String>) = redis::cmd("HMGET")
            .arg(self.task_key(id))
            .arg("record")
            .arg("version")
            .arg("runner")
            .query_async(&mut connection)
            .await
            .map_err(|error| self.unavailable(error))?;
        loaded(id, fields)
    }

    /// The task as stored (expired or not), failed first if its runner is dead, and
    /// whether it still runs on another instance.
    async fn load(&self, id: &str) -> Result<Option<(TaskRecord, bool)>, StoreError> {
        match self.read(id).await? {
            Some(loaded) => self.settle(id, loaded).await,
            None => Ok(None),
        }
    }

    /// `loaded`, unless it runs on an instance that stopped sending heartbeats: then it
    /// fails, atomically with a check that the instance is still silent.
    async fn settle(
        &self,
        id: &str,
        mut loaded: Loaded,
    ) -> Result<Option<(TaskRecord, bool)>, StoreError> {
        for _ in 0..ATTEMPTS {
            let Some(runner) = self.runs_elsewhere(&loaded) else {
                return Ok(Some((loaded.record, false)));
            };
            if self.link().is_alive(runner).await? {
                return Ok(Some((loaded.record, true)));
            }
            let mut failed = loaded.record.clone();
            failed.apply(runner_gone(), self.now())?;
            let runner = runner.to_owned();
            match self.write(id, &loaded, &failed, Some(&runner)).await? {
                Written::Done => {
                    tracing::warn!(
                        task = %id,
                        instance = %runner,
                        "the instance running a task stopped; the task failed"
                    );
                    return Ok(Some((failed, false)));
                }
                Written::Gone => return Ok(None),
                Written::Changed => match self.read(id).await? {
                    Some(again) => loaded = again,
                    None => return Ok(None),
                },
            }
        }
        Err(self.contended(id))
    }

    // ---- writing ---------------------------------------------------------------------

    /// Writes `record` over `read` unless the task changed since (see [`scripts::WRITE`]);
    /// with `dead_runner`, only while that instance is dead (see the link's `LIVENESS`).
    async fn write(
        &self,
        id: &str,
        read: &Loaded,
        record: &TaskRecord,
        dead_runner: Option<&str>,
    ) -> Result<Written, StoreError> {
        let now = millis(self.now());
        let expires_at = record.expires_at().map(millis);
        let finishes = record.status.is_terminal() && !read.record.status.is_terminal();
        let heartbeat = self
            .link()
            .instance_key(dead_runner.unwrap_or(&self.inner.instance));
        let (pulse, calm) = self.link().pulse_keys();
        let (gap, grace) = RedisLink::liveness_args();
        let mut connection = self.link().connection();
        let written: i64 = self
            .inner
            .write
            .key(self.task_key(id))
            .key(self.running_key(&record.owner))
            .key(self.link().key("tasks:expiring"))
            .key(heartbeat)
            .key(pulse)
            .key(calm)
            .key(self.runs_key(read.runner.as_deref().unwrap_or(&self.inner.instance)))
            .arg(&read.version)
            .arg(encode(record)?)
            .arg(flag(finishes))
            .arg(expires_at.map(|at| at.to_string()).unwrap_or_default())
            .arg(vanish_at(expires_at, now))
            .arg(now)
            .arg(id)
            .arg(self.channel())
            .arg(flag(dead_runner.is_some()))
            .arg(gap)
            .arg(grace)
            .invoke_async(&mut connection)
            .await
            .map_err(|error| self.unavailable(error))?;
        Ok(match written {
            1 => Written::Done,
            0 => Written::Changed,
            _ => Written::Gone,
        })
    }

    /// Forgets task `id` if it expired as of `now` (or Redis dropped its record): whether
    /// it did.
    async fn forget(&self, id: &str, now: i64) -> Result<bool, StoreError> {
        let owners = self.link().key("tasks:owners");
        for _ in 0..ATTEMPTS {
            let mut connection = self.link().connection();
            let (listed, stored): (Option<String>, Option<String>) = redis::pipe()
                .cmd("HGET")
                .arg(&owners)
                .arg(id)
                .cmd("HGET")
                .arg(self.task_key(id))
                .arg("owner")
                .query_async(&mut connection)
                .await
                .map_err(|error| self.unavailable(error))?;
            let owner = TaskOwner(listed.or(stored).unwrap_or_default());
            let forgot: i64 = self
                .inner
                .forget
                .key(self.task_key(id))
                .key(self.link().key("tasks:expiring"))
                .key(&owners)
                .key(self.owner_key(&owner))
                .key(self.running_key(&owner))
                .arg(id)
                .arg(now)
                .arg(&owner.0)
                .arg(self.channel())
                .invoke_async(&mut connection)
                .await
                .map_err(|error| self.unavailable(error))?;
            match forgot {
                1 => return Ok(true),
                0 => return Ok(false),
                _ => {}
            }
        }
        Err(self.contended(id))
    }

    // ---- the methods -----------------------------------------------------------------

    async fn create_task(
        &self,
        task: TaskRecord,
        max_unfinished: usize,
    ) -> Result<Created, StoreError> {
        let record = encode(&task)?;
        let expires_at = task.expires_at().map(millis);
        let unfinished = !task.status.is_terminal();
        let limit = u64::try_from(max_unfinished).unwrap_or(u64::MAX);
        let mut orphans_settled = false;
        for _ in 0..ATTEMPTS {
            let now = millis(self.now());
            let mut connection = self.link().connection();
            let created: i64 = self
                .inner
                .create
                .key(self.task_key(&task.id))
                .key(self.link().key("tasks:owners"))
                .key(self.running_key(&task.owner))
                .key(self.owner_key(&task.owner))
                .key(self.link().key("tasks:seq"))
                .key(self.link().key("tasks:expiring"))
                .key(self.runs_key(&self.inner.instance))
                .key(self.link().key("tasks:runners"))
                .arg(&task.id)
                .arg(&record)
                .arg(&task.owner.0)
                .arg(&*self.inner.instance)
                .arg(flag(unfinished))
                .arg(limit)
                .arg(now)
                .arg(expires_at.map(|at| at.to_string()).unwrap_or_default())
                .arg(vanish_at(expires_at, now))
                .invoke_async(&mut connection)
                .await
                .map_err(|error| self.unavailable(error))?;
            match created {
                1 => return Ok(Created::Stored),
                // At the limit: tasks whose instance died count no more once they are
                // failed, so a few crashes cannot block the owner for good.
                0 if !orphans_settled && self.settle_owner(&task.owner).await? => {
                    orphans_settled = true;
                }
                0 => return Ok(Created::OwnerAtLimit(max_unfinished)),
                -1 => return Err(StoreError(format!("a task with id {} exists", task.id))),
                // An expired task (or what is left of one) holds the id: it is free again.
                _ => {
                    self.forget(&task.id, now).await?;
                }
            }
        }
        Err(self.contended(&task.id))
    }

    /// Fails the unfinished tasks of `owner` whose instance died (see [`Self::settle`]):
    /// whether any did.
    async fn settle_owner(&self, owner: &TaskOwner) -> Result<bool, StoreError> {
        let mut connection = self.link().connection();
        let running: Vec<String> = redis::cmd("SMEMBERS")
            .arg(self.running_key(owner))
            .query_async(&mut connection)
            .await
            .map_err(|error| self.unavailable(error))?;
        let mut settled = false;
        for id in running {
            if let Some((record, _)) = self.load(&id).await? {
                settled |= record.status.is_terminal();
            }
        }
        Ok(settled)
    }

    async fn get_task(&self, id: &str) -> Result<Option<TaskRecord>, StoreError> {
        Ok(self
            .load(id)
            .await?
            .map(|(record, _)| record)
            .filter(|record| !record.is_expired(self.now())))
    }

    async fn update_task(&self, id: &str, update: TaskUpdate) -> Result<Updated, StoreError> {
        for _ in 0..ATTEMPTS {
            let Some(read) = self.read(id).await? else {
                return Ok(Updated::Unknown);
            };
            let now = self.now();
            if read.record.is_expired(now) {
                return Ok(Updated::Unknown);
            }
            let mut record = read.record.clone();
            if !record.apply(update.clone(), now)? {
                return Ok(Updated::Refused(read.record));
            }
            match self.write(id, &read, &record, None).await? {
                Written::Done => return Ok(Updated::Applied(record)),
                Written::Gone => return Ok(Updated::Unknown),
                Written::Changed => {}
            }
        }
        Err(self.contended(id))
    }

    async fn list_tasks(
        &self,
        owner: &TaskOwner,
        after: Option<&str>,
        limit: usize,
    ) -> Result<TaskPage, StoreError> {
        // Positions are task numbers; anything else names no position this store gave.
        let mut from = match after.map(str::parse::<u64>) {
            None => "-inf".to_owned(),
            Some(Ok(seq)) => format!("({seq}"),
            Some(Err(_)) => return Ok(TaskPage::default()),
        };
        // A limit of 0 reads as 1, as in the in-memory store: a page must make progress.
        // One below the largest, so the task past the page can be counted.
        let limit = limit.clamp(1, usize::MAX - 1);
        let index = self.owner_key(owner);
        let now = self.now();
        let mut found: Vec<(u64, Loaded)> = Vec::new();
        // One task more than the page: whether another page follows. Tasks of the index
        // that are gone or expired are skipped, so read on until enough are found.
        'read: while found.len() <= limit {
            let want = (limit + 1 - found.len()).clamp(8, 1000);
            let mut connection = self.link().connection();
            let entries: Vec<redis::Value> = redis::cmd("ZRANGEBYSCORE")
                .arg(&index)
                .arg(&from)
                .arg("+inf")
                .arg("WITHSCORES")
                .arg("LIMIT")
                .arg(0)
                .arg(want)
                .query_async(&mut connection)
                .await
                .map_err(|error| self.unavailable(error))?;
            let entries = scored(entries)?;
            if entries.is_empty() {
                break;
            }
            let mut reads = redis::pipe();
            for (id, _) in &entries {
                reads
                    .cmd("HMGET")
                    .arg(self.task_key(id))
                    .arg("record")
                    .arg("version")
                    .arg("runner");
            }
            let rows: Vec<(Option<String>, Option<String>, Option<String>)> = reads
                .query_async(&mut connection)
                .await
                .map_err(|error| self.unavailable(error))?;
            let complete = entries.len() < want;
            for ((id, seq), fields) in entries.into_iter().zip(rows) {
                from = format!("({seq}");
                let Some(loaded) = loaded(&id, fields)? else {
                    continue;
                };
                // An owner's index may name an id that another owner reused after expiry.
                if loaded.record.owner != *owner || loaded.record.is_expired(now) {
                    continue;
                }
                found.push((seq, loaded));
                if found.len() > limit {
                    break 'read;
                }
            }
            if complete {
                break;
            }
        }
        let more = found.len() > limit;
        found.truncate(limit);
        let next = more.then(|| found.last().map(|(seq, _)| seq.to_string()));
        let alive = self.alive_runners(&found).await?;
        let mut page = TaskPage {
            tasks: Vec::with_capacity(found.len()),
            next: next.flatten(),
        };
        for (_, loaded) in found {
            let record = match self.runs_elsewhere(&loaded) {
                Some(runner) if !alive.get(runner).copied().unwrap_or(false) => {
                    let id = loaded.record.id.clone();
                    match self.settle(&id, loaded).await? {
                        Some((record, _)) => record,
                        None => continue,
                    }
                }
                _ => loaded.record,
            };
            page.tasks.push(record);
        }
        Ok(page)
    }

    /// Which of the other instances running these tasks are alive, in one round trip.
    async fn alive_runners(
        &self,
        found: &[(u64, Loaded)],
    ) -> Result<HashMap<String, bool>, StoreError> {
        let mut runners: Vec<&str> = found
            .iter()
            .filter_map(|(_, loaded)| self.runs_elsewhere(loaded))
            .collect();
        runners.sort_unstable();
        runners.dedup();
        if runners.is_empty() {
            return Ok(HashMap::new());
        }
        let mut checks = redis::pipe();
        for runner in &runners {
            checks.cmd("EXISTS").arg(self.link().instance_key(runner));
        }
        let mut connection = self.link().connection();
        let alive: Vec<bool> = checks
            .query_async(&mut connection)
            .await
            .map_err(|error| self.unavailable(error))?;
        Ok(runners.into_iter().map(str::to_owned).zip(alive).collect())
    }

    async fn watch_task(&self, id: &str) -> Result<Option<TaskChanges>, StoreError> {
        // Registered before the read: a change made after it is heard, and one made before
        // it is in what it reads.
        let registration = self.inner.hub.register(id);
        self.inner.hub.listen(
            self.link().client(),
            self.channel(),
            self.inner.stop.clone(),
        );
        let Some((record, elsewhere)) = self.load(id).await? else {
            return Ok(None);
        };
        if record.is_expired(self.now()) {
            return Ok(None);
        }
        Ok(Some(watch::changes(
            self.clone(),
            id.to_owned(),
            registration,
            record,
            elsewhere,
        )))
    }

    async fn purge(&self, now: SystemTime) -> Result<usize, StoreError> {
        let now = millis(now);
        let expiring = self.link().key("tasks:expiring");
        let mut purged = 0;
        loop {
            let mut connection = self.link().connection();
            let ids: Vec<String> = redis::cmd("ZRANGEBYSCORE")
                .arg(&expiring)
                .arg("-inf")
                .arg(now)
                .arg("LIMIT")
                .arg(0)
                .arg(PURGE_BATCH)
                .query_async(&mut connection)
                .await
                .map_err(|error| self.unavailable(error))?;
            let full = ids.len() == PURGE_BATCH;
            let forgotten =
                futures_util::future::join_all(ids.iter().map(|id| self.forget(id, now))).await;
            let mut progress = false;
            for forgot in forgotten {
                if forgot? {
                    purged += 1;
                    progress = true;
                }
            }
            // Entries that cannot go (none should) would otherwise be read again forever.
            if !full || !progress {
                self.sweep().await?;
                return Ok(purged);
            }
        }
    }
}

/// A task from the fields `record`, `version`, `runner` of its hash.
fn loaded(
    id: &str,
    (record, version, runner): (Option<String>, Option<String>, Option<String>),
) -> Result<Option<Loaded>, StoreError> {
    let (Some(record), Some(version)) = (record, version) else {
        return Ok(None);
    };
    Ok(Some(Loaded {
        record: decode(id, &record)?,
        version,
        runner,
    }))
}

/// The members and scores of a `WITHSCORES` reply, whether flat (RESP2) or in pairs
/// (RESP3).
fn scored(values: Vec<redis::Value>) -> Result<Vec<(String, u64)>, StoreError> {
    let malformed =
        |error: redis::ParsingError| StoreError(format!("a task index in Redis: {error}"));
    let mut entries = Vec::with_capacity(values.len() / 2);
    let mut values = values.into_iter();
    while let Some(value) = values.next() {
        let (member, score) = match value {
            redis::Value::Array(pair) => {
                redis::from_redis_value::<(String, f64)>(redis::Value::Array(pair))
                    .map_err(malformed)?
            }
            member => {
                let score = values.next().unwrap_or(redis::Value::Nil);
                (
                    redis::from_redis_value(member).map_err(malformed)?,
                    redis::from_redis_value(score).map_err(malformed)?,
                )
            }
        };
        // Task numbers are whole and far below 2^53, so the score is exact.
        entries.push((member, score as u64));
    }
    Ok(entries)
}

fn flag(on: bool) -> &'static str {
    if on { "1" } else { "0" }
}

/// When a finished task's hash goes: at its expiry, but not before [`LINGER`] from `now`.
fn vanish_at(expires_at: Option<i64>, now: i64) -> String {
    let linger = i64::try_from(LINGER.as_millis()).unwrap_or(i64::MAX);
    expires_at
        .map(|at| at.max(now.saturating_add(linger)).to_string())
        .unwrap_or_default()
}

// The methods do their work when first polled, not when called, as futures do.
impl watch::Reload for RedisTaskStore {
    fn reload(
        &self,
        id: &str,
    ) -> impl Future<Output = Result<Option<(TaskRecord, bool)>, StoreError>> + Send {
        self.load(id)
    }

    fn now(&self) -> SystemTime {
        TaskStore::now(self)
    }
}

impl TaskStore for RedisTaskStore {
    fn create(&self, task: TaskRecord, max_unfinished: usize) -> StoreFuture<'_, Created> {
        Box::pin(self.create_task(task, max_unfinished))
    }

    fn get<'a>(&'a self, id: &'a str) -> StoreFuture<'a, Option<TaskRecord>> {
        Box::pin(self.get_task(id))
    }

    fn update<'a>(&'a self, id: &'a str, update: TaskUpdate) -> StoreFuture<'a, Updated> {
        Box::pin(self.update_task(id, update))
    }

    fn list<'a>(
        &'a self,
        owner: &'a TaskOwner,
        after: Option<&'a str>,
        limit: usize,
    ) -> StoreFuture<'a, TaskPage> {
        Box::pin(self.list_tasks(owner, after, limit))
    }

    fn watch<'a>(&'a self, id: &'a str) -> StoreFuture<'a, Option<TaskChanges>> {
        Box::pin(self.watch_task(id))
    }

    fn purge_expired(&self, now: SystemTime) -> StoreFuture<'_, usize> {
        Box::pin(self.purge(now))
    }

    /// Redis's clock (see [`RedisLink`]), in whole milliseconds.
    fn now(&self) -> SystemTime {
        whole_millis(self.link().now())
    }
}
