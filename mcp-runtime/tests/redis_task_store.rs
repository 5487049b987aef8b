//! `RedisTaskStore` against a real `redis-server`: the `TaskStore` contract, tasks shared
//! by two instances, a task whose runner died, and Redis going away and coming back.
//!
//! Run with `cargo test -p mcp-runtime --features redis,testing --test redis_task_store`
//! (needs `redis-server`: `apt-get install redis-server`).

use std::future::Future;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, Weak};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use futures_util::StreamExt;
use mcp_runtime::TaskStore;
use mcp_runtime::fleet::{RedisLink, RedisTaskStore};
use mcp_runtime::task::{
    Created, TaskChanges, TaskOutcome, TaskOwner, TaskRecord, TaskStatus, TaskUpdate, Updated,
};
use mcp_runtime::testing::{RedisServer, check_task_store};
use serde_json::{Map, json};

const RUNNER_GONE: &str = "The server instance running the task stopped before it finished.";
/// How long a change may take to reach a watcher on another instance.
const WAIT: Duration = Duration::from_secs(5);

/// The server the tests of this file share while they run at the same time (a `static`
/// one would never be dropped, and its process would outlive the tests).
fn shared_redis() -> Arc<RedisServer> {
    static SHARED: Mutex<Weak<RedisServer>> = Mutex::new(Weak::new());
    let mut shared = SHARED
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some(server) = shared.upgrade() {
        return server;
    }
    let server = Arc::new(RedisServer::start());
    *shared = Arc::downgrade(&server);
    server
}

/// A name no other test of this process uses.
fn unique(what: &str) -> String {
    static COUNT: AtomicUsize = AtomicUsize::new(0);
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .subsec_nanos();
    format!(
        "{what}-{}-{nanos}-{}",
        std::process::id(),
        COUNT.fetch_add(1, Ordering::Relaxed)
    )
}

fn fresh_prefix() -> String {
    format!("{}:", unique("test"))
}

/// Now, in whole milliseconds (what the store keeps).
fn now() -> SystemTime {
    let since = SystemTime::now().duration_since(UNIX_EPOCH).unwrap();
    UNIX_EPOCH + Duration::from_millis(since.as_millis() as u64)
}

fn running_task(owner: &TaskOwner) -> TaskRecord {
    let now = now();
    TaskRecord {
        id: unique("task"),
        owner: owner.clone(),
        protocol_version: "2025-11-25".to_owned(),
        tool: "sleep".to_owned(),
        status: TaskStatus::Working,
        status_message: None,
        created_at: now,
        last_updated_at: now,
        ttl: Some(Duration::from_secs(3600)),
        poll_interval: None,
        input_requests: Map::new(),
        input_responses: Map::new(),
        outcome: None,
    }
}

fn completed() -> TaskUpdate {
    TaskUpdate::Finished {
        outcome: TaskOutcome::Result(json!({ "content": [], "isError": false })),
        status: TaskStatus::Completed,
        message: Some("done".to_owned()),
    }
}

fn applied(updated: Updated) -> TaskRecord {
    match updated {
        Updated::Applied(record) => record,
        other => panic!("the update was not applied: {other:?}"),
    }
}

/// Reads `changes` until `expected` comes.
async fn until_seen(changes: &mut TaskChanges, expected: &TaskRecord) {
    let deadline = tokio::time::Instant::now() + WAIT;
    loop {
        match tokio::time::timeout_at(deadline, changes.next()).await {
            Ok(Some(record)) if record == *expected => return,
            Ok(Some(_)) => continue,
            Ok(None) => panic!("the watch ended before {expected:?}"),
            Err(_) => panic!("{expected:?} did not come within {WAIT:?}"),
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn keeps_the_contract() {
    let redis = shared_redis();
    let url = redis.url();
    // A fresh prefix for each rule: one rule's tasks are not another's to purge.
    check_task_store(|| {
        let link = RedisLink::open(&url, &fresh_prefix()).expect("a valid URL");
        RedisTaskStore::new(link, "contract")
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn instances_share_tasks_and_their_changes() {
    let redis = shared_redis();
    let prefix = fresh_prefix();
    let a = RedisTaskStore::connect(&redis.url(), &prefix)
        .await
        .unwrap();
    let b = RedisTaskStore::connect(&redis.url(), &prefix)
        .await
        .unwrap();
    assert_ne!(a.instance(), b.instance());
    let owner = TaskOwner(unique("owner"));

    // Created on A: B reads it, lists it, cancels it; A's watch sees the cancel.
    let task = running_task(&owner);
    assert_eq!(a.create(task.clone(), 10).await.unwrap(), Created::Stored);
    assert_eq!(b.get(&task.id).await.unwrap(), Some(task.clone()));
    let page = b.list(&owner, None, 10).await.unwrap();
    assert_eq!(page.tasks, std::slice::from_ref(&task));
    assert_eq!(page.next, None);
    let mut on_a = a.watch(&task.id).await.unwrap().expect("A finds its task");
    assert_eq!(
        tokio::time::timeout(WAIT, on_a.next()).await.unwrap(),
        Some(task.clone())
    );
    // Once A's subscription is surely up (A's watch reads the task once then), and the
    // first change seen, only a message through it can tell A of the cancel: A runs the
    // task, so its watch never reads it unprompted.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let working = TaskUpdate::Working {
        message: Some("started".to_owned()),
    };
    let started = applied(b.update(&task.id, working).await.unwrap());
    until_seen(&mut on_a, &started).await;
    let cancel = TaskUpdate::Cancelled {
        message: Some("stopped by the client".to_owned()),
    };
    let cancelled = applied(b.update(&task.id, cancel).await.unwrap());
    assert_eq!(cancelled.status, TaskStatus::Cancelled);
    until_seen(&mut on_a, &cancelled).await;
    assert_eq!(a.get(&task.id).await.unwrap(), Some(cancelled.clone()));
    assert_eq!(
        a.update(&task.id, completed()).await.unwrap(),
        Updated::Refused(cancelled)
    );

    // Created on A: B's watch sees A's progress and completion.
    let task = running_task(&owner);
    assert_eq!(a.create(task.clone(), 10).await.unwrap(), Created::Stored);
    let mut on_b = b.watch(&task.id).await.unwrap().expect("B finds A's task");
    let working = TaskUpdate::Working {
        message: Some("half way".to_owned()),
    };
    let halfway = applied(a.update(&task.id, working).await.unwrap());
    until_seen(&mut on_b, &halfway).await;
    let done = applied(a.update(&task.id, completed()).await.unwrap());
    until_seen(&mut on_b, &done).await;

    // Both count the owner's unfinished tasks alike: the two above finished.
    let page = a.list(&owner, None, 1).await.unwrap();
    assert_eq!(page.tasks.len(), 1);
    let rest = b.list(&owner, page.next.as_deref(), 1).await.unwrap();
    assert_eq!(rest.tasks, [done]);
    assert_eq!(rest.next, None);
    assert_eq!(
        b.create(running_task(&owner), 1).await.unwrap(),
        Created::Stored
    );
    assert_eq!(
        a.create(running_task(&owner), 1).await.unwrap(),
        Created::OwnerAtLimit(1)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_task_whose_runner_died_fails_when_read() {
    let redis = shared_redis();
    let prefix = fresh_prefix();
    // An instance that sends no heartbeat: as if it had died since creating its tasks.
    let ghost = RedisTaskStore::new(RedisLink::open(&redis.url(), &prefix).unwrap(), "ghost");
    let owner = TaskOwner(unique("owner"));
    let working = running_task(&owner);
    let waiting = TaskRecord {
        status: TaskStatus::InputRequired,
        input_requests: json!({ "q": { "method": "elicitation/create" } })
            .as_object()
            .unwrap()
            .clone(),
        ..running_task(&owner)
    };
    let watched = running_task(&owner);
    let finished = TaskRecord {
        status: TaskStatus::Completed,
        outcome: Some(TaskOutcome::Result(json!({ "content": [] }))),
        ..running_task(&owner)
    };
    for task in [&working, &waiting, &watched, &finished] {
        assert_eq!(
            ghost.create(task.clone(), 4).await.unwrap(),
            Created::Stored
        );
    }
    // The ghost's own store does not judge its own instance.
    assert_eq!(ghost.get(&working.id).await.unwrap(), Some(working.clone()));

    let reader = RedisTaskStore::connect(&redis.url(), &prefix)
        .await
        .unwrap();
    let is_failed = |record: &TaskRecord| {
        record.status == TaskStatus::Failed
            && record.status_message.as_deref() == Some(RUNNER_GONE)
            && record.outcome
                == Some(TaskOutcome::Error {
                    code: -32603,
                    message: RUNNER_GONE.to_owned(),
                    data: None,
                })
            && record.input_requests.is_empty()
    };
    // Through get.
    let read = reader.get(&working.id).await.unwrap().unwrap();
    assert!(is_failed(&read), "{read:?}");
    assert!(read.last_updated_at >= working.last_updated_at);
    // Stored so: the ghost sees it failed too, and nothing changes it any more.
    assert_eq!(ghost.get(&working.id).await.unwrap(), Some(read.clone()));
    assert_eq!(
        ghost.update(&working.id, completed()).await.unwrap(),
        Updated::Refused(read.clone())
    );
    // Through list: the waiting one fails, the finished one stays as it was.
    let page = reader.list(&owner, None, 10).await.unwrap();
    assert_eq!(page.tasks.len(), 4);
    assert_eq!(page.tasks[0], read);
    assert!(is_failed(&page.tasks[1]), "{:?}", page.tasks[1]);
    assert_eq!(page.tasks[1].id, waiting.id);
    assert_eq!(page.tasks[3], finished);
    // Through watch.
    let mut changes = reader.watch(&watched.id).await.unwrap().unwrap();
    let first = tokio::time::timeout(WAIT, changes.next())
        .await
        .unwrap()
        .unwrap();
    assert!(is_failed(&first), "{first:?}");
    // Failed tasks no longer count against the owner's limit.
    assert_eq!(
        reader.create(running_task(&owner), 1).await.unwrap(),
        Created::Stored
    );

    // An instance alive when the watch began, whose heartbeat then stops: the watch, which
    // reads a task run elsewhere now and then, yields the task failed.
    let client = redis::Client::open(redis.url()).unwrap();
    let mut connection = client.get_multiplexed_async_connection().await.unwrap();
    redis::cmd("SET")
        .arg(format!("{prefix}instance:mortal"))
        .arg(1)
        .arg("PX")
        .arg(1000)
        .query_async::<()>(&mut connection)
        .await
        .unwrap();
    let mortal = RedisTaskStore::new(RedisLink::open(&redis.url(), &prefix).unwrap(), "mortal");
    let task = running_task(&TaskOwner(unique("owner")));
    mortal.create(task.clone(), 1).await.unwrap();
    let mut changes = reader.watch(&task.id).await.unwrap().unwrap();
    let first = tokio::time::timeout(WAIT, changes.next()).await.unwrap();
    assert_eq!(first, Some(task));
    let next = tokio::time::timeout(Duration::from_secs(8), changes.next())
        .await
        .expect("the watch did not notice the runner died");
    assert!(next.as_ref().is_some_and(is_failed), "{next:?}");
}

/// An instance that sends no heartbeat, as if it died with three tasks of one owner running
/// (the owner's limit): the store, the owner and the tasks.
async fn orphans_of_a_ghost(
    redis: &RedisServer,
    prefix: &str,
) -> (RedisTaskStore, TaskOwner, Vec<TaskRecord>) {
    let ghost = RedisTaskStore::new(RedisLink::open(&redis.url(), prefix).unwrap(), "ghost");
    let owner = TaskOwner(unique("anonymous"));
    let orphans: Vec<TaskRecord> = (0..3).map(|_| running_task(&owner)).collect();
    for task in &orphans {
        assert_eq!(
            ghost.create(task.clone(), 3).await.unwrap(),
            Created::Stored
        );
    }
    (ghost, owner, orphans)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn tasks_of_a_dead_instance_do_not_hold_their_owner_at_the_limit() {
    let redis = shared_redis();
    let prefix = fresh_prefix();
    let (_ghost, owner, orphans) = orphans_of_a_ghost(&redis, &prefix).await;
    // No one read them, so nothing failed them yet; creating one more fails them first.
    let live = RedisTaskStore::connect(&redis.url(), &prefix)
        .await
        .unwrap();
    assert_eq!(
        live.create(running_task(&owner), 3).await.unwrap(),
        Created::Stored
    );
    for task in &orphans {
        let read = live.get(&task.id).await.unwrap().unwrap();
        assert_eq!(read.status, TaskStatus::Failed, "{read:?}");
        assert_eq!(read.status_message.as_deref(), Some(RUNNER_GONE));
    }
    // Tasks of a live instance still count.
    for _ in 0..2 {
        assert_eq!(
            live.create(running_task(&owner), 3).await.unwrap(),
            Created::Stored
        );
    }
    assert_eq!(
        live.create(running_task(&owner), 3).await.unwrap(),
        Created::OwnerAtLimit(3)
    );
}

/// The store's clock is Redis's, measured by each heartbeat: on one machine, within a few
/// milliseconds of the local clock (a unit or sign slip would be seconds or years off).
#[tokio::test]
async fn the_store_keeps_time_by_redis() {
    let redis = shared_redis();
    let store = RedisTaskStore::connect(&redis.url(), &fresh_prefix())
        .await
        .unwrap();
    let local = SystemTime::now();
    let by_redis = store.now();
    let apart = by_redis
        .duration_since(local)
        .or_else(|early| Ok::<_, ()>(early.duration()))
        .unwrap();
    assert!(apart < Duration::from_millis(500), "{apart:?} apart");
}

/// Tasks of a dead instance that nobody reads are failed by any instance's purge: they no
/// longer count against their owner, and their keys expire with their ttl.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn tasks_of_a_dead_instance_are_failed_in_the_background() {
    let redis = shared_redis();
    let prefix = fresh_prefix();
    let (ghost, owner, orphans) = orphans_of_a_ghost(&redis, &prefix).await;
    let live = RedisTaskStore::connect(&redis.url(), &prefix)
        .await
        .unwrap();
    let mine = running_task(&TaskOwner(unique("other")));
    assert_eq!(live.create(mine.clone(), 3).await.unwrap(), Created::Stored);
    live.purge_expired(now()).await.unwrap();
    // Read by the ghost's own store, which never fails its own tasks: what is stored.
    for task in &orphans {
        let stored = ghost.get(&task.id).await.unwrap().unwrap();
        assert_eq!(stored.status, TaskStatus::Failed, "{stored:?}");
        assert_eq!(stored.status_message.as_deref(), Some(RUNNER_GONE));
    }
    // The live instance's task runs on, and the owner may create tasks again.
    assert_eq!(
        live.get(&mine.id).await.unwrap().unwrap().status,
        TaskStatus::Working
    );
    assert_eq!(
        ghost.create(running_task(&owner), 3).await.unwrap(),
        Created::Stored
    );
}

/// Runs `call` and checks that it fails, within a few seconds.
async fn fails_quickly<T: std::fmt::Debug>(
    what: &str,
    call: impl Future<Output = Result<T, mcp_runtime::task::StoreError>>,
) {
    let started = Instant::now();
    let result = tokio::time::timeout(Duration::from_secs(8), call)
        .await
        .unwrap_or_else(|_| panic!("{what} hung while Redis was down"));
    assert!(
        result.is_err(),
        "{what} succeeded while Redis was down: {result:?}"
    );
    assert!(
        started.elapsed() < Duration::from_secs(6),
        "{what} took {:?} to fail",
        started.elapsed()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn fails_while_redis_is_down_and_recovers() {
    // A server of its own: the other tests' must stay up.
    let mut redis = RedisServer::start();
    let store = RedisTaskStore::connect(&redis.url(), &fresh_prefix())
        .await
        .unwrap();
    let owner = TaskOwner(unique("owner"));
    let task = running_task(&owner);
    store.create(task.clone(), 10).await.unwrap();
    let mut changes = store.watch(&task.id).await.unwrap().unwrap();
    assert_eq!(changes.next().await, Some(task.clone()));

    redis.stop();
    fails_quickly("create", store.create(running_task(&owner), 10)).await;
    fails_quickly("get", store.get(&task.id)).await;
    fails_quickly("update", store.update(&task.id, completed())).await;
    fails_quickly("list", store.list(&owner, None, 10)).await;
    fails_quickly("watch", async {
        store.watch(&task.id).await.map(|changes| changes.is_some())
    })
    .await;
    fails_quickly("purge_expired", store.purge_expired(SystemTime::now())).await;

    // Back, empty (it keeps nothing on disk): the same store works again by itself.
    redis.start_again();
    let deadline = Instant::now() + Duration::from_secs(10);
    while store.get(&task.id).await.is_err() {
        assert!(Instant::now() < deadline, "the store did not recover");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(store.get(&task.id).await.unwrap(), None);
    // The watch lived through the outage and ends: its task is gone with Redis's data.
    assert_eq!(
        tokio::time::timeout(Duration::from_secs(10), changes.next())
            .await
            .expect("the watch neither ended nor yielded"),
        None
    );
    let again = running_task(&owner);
    assert_eq!(
        store.create(again.clone(), 10).await.unwrap(),
        Created::Stored
    );
    assert_eq!(store.get(&again.id).await.unwrap(), Some(again.clone()));
    assert_eq!(
        store.list(&owner, None, 10).await.unwrap().tasks,
        std::slice::from_ref(&again)
    );
    let mut changes = store.watch(&again.id).await.unwrap().unwrap();
    assert_eq!(changes.next().await, Some(again.clone()));
    let done = applied(store.update(&again.id, completed()).await.unwrap());
    until_seen(&mut changes, &done).await;
    assert_eq!(store.purge_expired(SystemTime::now()).await.unwrap(), 0);
}

#[test]
fn redis_server_stops_and_starts_again_on_its_port() {
    let mut redis = RedisServer::start();
    let port = redis.port();
    assert_eq!(redis.url(), format!("redis://127.0.0.1:{port}/"));
    let ping = || {
        let mut stream = std::net::TcpStream::connect(("127.0.0.1", port))?;
        std::io::Write::write_all(&mut stream, b"PING\r\n")?;
        let mut reply = [0_u8; 7];
        std::io::Read::read_exact(&mut stream, &mut reply)?;
        Ok::<_, std::io::Error>(reply)
    };
    assert_eq!(&ping().unwrap(), b"+PONG\r\n");
    redis.stop();
    assert!(ping().is_err());
    redis.start_again();
    assert_eq!(redis.port(), port);
    assert_eq!(&ping().unwrap(), b"+PONG\r\n");
}
