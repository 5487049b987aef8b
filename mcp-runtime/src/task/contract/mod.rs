//! [`check_task_store`]: the [`TaskStore`] contract as a test any store can run.
//!
//! Each rule is a function of its own on a fresh store, so a store that breaks one rule
//! fails with that rule's name, not with the confusion it leaves for the next one.

use std::collections::HashSet;
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use futures_util::StreamExt;
use serde_json::json;

use crate::task::store::{
    Created, TaskOutcome, TaskPage, TaskRecord, TaskStatus, TaskStore, TaskUpdate, Updated,
};

mod helpers;

use helpers::*;

/// Runs the [`TaskStore`] contract against stores made by `make_store`, panicking with the
/// rule a store breaks.
///
/// `make_store` is called once for each rule, and each store it makes must hold no task that
/// has expired or will soon (a store over a database can use a fresh schema, or clear it),
/// since `purge_expired` must count only what the check made. Task ids and owners are
/// random, so stores may share one database otherwise. Times in the records are whole
/// milliseconds, so a store that keeps no finer ones passes; one that keeps coarser ones
/// does not.
///
/// Run it under a runtime with several threads (`#[tokio::test(flavor = "multi_thread")]`)
/// for its check of concurrent creates to mean something; it needs a Tokio runtime for
/// spawning them and timing out watches whatever the flavor.
///
/// ```
/// use mcp_runtime::InMemoryTaskStore;
/// use mcp_runtime::testing::check_task_store;
///
/// #[tokio::test(flavor = "multi_thread")]
/// async fn my_store_keeps_the_contract() {
///     check_task_store(InMemoryTaskStore::new).await;
/// }
/// # // A doc test is a program, where `#[tokio::test]` functions are left out: run it here.
/// # fn main() {
/// #     let runtime = tokio::runtime::Runtime::new().unwrap();
/// #     runtime.block_on(check_task_store(InMemoryTaskStore::new));
/// # }
/// ```
pub async fn check_task_store<S: TaskStore>(make_store: impl Fn() -> S) {
    round_trip(&make_store()).await;
    unknown_ids(&make_store()).await;
    duplicate_ids(&make_store()).await;
    owner_limit(&make_store()).await;
    finished_tasks_refuse_updates(&make_store()).await;
    input_round(&make_store()).await;
    finishing_clears_input(&make_store()).await;
    last_updated_at(&make_store()).await;
    expiry(&make_store()).await;
    pagination(&make_store()).await;
    pages_while_tasks_come_and_go(&make_store()).await;
    watch(&make_store()).await;
    concurrent_creates(Arc::new(make_store())).await;
}

// ---- the rules --------------------------------------------------------------------------

async fn round_trip(store: &impl TaskStore) {
    let rule = "get and list return a created task exactly as given";
    let owner = fresh_owner();
    let created_at = now() - Duration::from_secs(5);
    let mut waiting = task_at(&owner, created_at);
    waiting.protocol_version = "2026-07-28".to_owned();
    waiting.tool = "contract.round_trip".to_owned();
    waiting.status = TaskStatus::InputRequired;
    waiting.status_message = message("waiting for an answer");
    waiting.last_updated_at = created_at + Duration::from_millis(1500);
    waiting.ttl = Some(Duration::from_millis(90_500));
    waiting.poll_interval = Some(Duration::from_millis(250));
    waiting.input_requests = map(&[(
        "ask",
        json!({ "method": "elicitation/create", "params": { "message": "sure?", "n": [1, 2.5] } }),
    )]);
    waiting.input_responses = map(&[("earlier", json!({ "action": "decline" }))]);
    let mut done = task_at(&owner, created_at + Duration::from_millis(1));
    done.status = TaskStatus::Failed;
    done.ttl = None;
    done.outcome = Some(TaskOutcome::Error {
        code: -32000,
        message: "gave up".to_owned(),
        data: Some(json!({ "attempts": 3 })),
    });
    let mut result = task_at(&owner, created_at + Duration::from_millis(2));
    result.status = TaskStatus::Completed;
    result.outcome = Some(TaskOutcome::Result(json!({
        "content": [{ "type": "text", "text": "ok" }],
        "structuredContent": { "ok": true },
    })));
    let given = [waiting, done, result];
    for task in &given {
        create(store, task, rule).await;
        let stored = get(store, &task.id, rule).await;
        ensure(
            stored.as_ref() == Some(task),
            rule,
            format_args!("created {task:?}, got {stored:?}"),
        );
    }
    let page = succeeded(store.list(&owner, None, 10).await, rule);
    ensure(
        page == TaskPage {
            tasks: given.to_vec(),
            next: None,
        },
        rule,
        format_args!("created {given:?}, listed {page:?}"),
    );
}

async fn unknown_ids(store: &impl TaskStore) {
    let rule = "a task never created is unknown to get, update, watch and list";
    create(store, &task(&fresh_owner()), rule).await;
    let id = crate::protocol::random_id::random_id();
    ensure(get(store, &id, rule).await.is_none(), rule, "get found it");
    for update in every_update() {
        let updated = succeeded(store.update(&id, update).await, rule);
        ensure(
            updated == Updated::Unknown,
            rule,
            format_args!("update said {updated:?}"),
        );
    }
    let watched = succeeded(store.watch(&id).await, rule);
    ensure(watched.is_none(), rule, "watch found it");
    let page = succeeded(store.list(&fresh_owner(), None, 10).await, rule);
    ensure(
        page == TaskPage::default(),
        rule,
        format_args!("an owner with no tasks listed {page:?}"),
    );
}

async fn duplicate_ids(store: &impl TaskStore) {
    let rule = "create refuses, as an error, a task whose id is stored already";
    let first = task(&fresh_owner());
    create(store, &first, rule).await;
    let mut again = task(&fresh_owner());
    again.id = first.id.clone();
    let created = store.create(again, usize::MAX).await;
    ensure(
        created.is_err(),
        rule,
        format_args!("the second create said {created:?}"),
    );
    let stored = get(store, &first.id, rule).await;
    ensure(
        stored.as_ref() == Some(&first),
        rule,
        format_args!("the first task is now {stored:?}"),
    );
}

async fn owner_limit(store: &impl TaskStore) {
    let rule = "create refuses a task beyond the owner's limit of unfinished tasks, and only then";
    let limit = 3;
    let owner = fresh_owner();
    let try_create = |task: TaskRecord| async move {
        let created = succeeded(store.create(task.clone(), limit).await, rule);
        let stored = get(store, &task.id, rule).await;
        match created {
            Created::Stored if stored.as_ref() == Some(&task) => true,
            Created::OwnerAtLimit(n) if n == limit && stored.is_none() => false,
            _ => broken(
                rule,
                format_args!("create said {created:?} and then get found {stored:?}"),
            ),
        }
    };
    let mut running = Vec::new();
    for status in [TaskStatus::Working, TaskStatus::InputRequired] {
        for _ in 0..2 {
            let mut new = task(&owner);
            new.status = status;
            ensure(
                try_create(new.clone()).await == (running.len() < limit),
                rule,
                format_args!("{} unfinished tasks, limit {limit}", running.len()),
            );
            running.push(new);
        }
    }
    running.truncate(limit);
    ensure(
        try_create(task(&fresh_owner())).await,
        rule,
        "another owner's tasks counted",
    );
    for (finish, finished) in finishes().into_iter().zip(&running) {
        applied(store, &finished.id, finish, rule).await;
        ensure(
            try_create(task(&owner)).await,
            rule,
            "a finished task still counted",
        );
        ensure(
            !try_create(task(&owner)).await,
            rule,
            format_args!("stored beyond the limit of {limit}"),
        );
    }
    let at_zero = succeeded(store.create(task(&fresh_owner()), 0).await, rule);
    ensure(
        at_zero == Created::OwnerAtLimit(0),
        rule,
        format_args!("with a limit of 0, create said {at_zero:?}"),
    );
}

async fn finished_tasks_refuse_updates(store: &impl TaskStore) {
    let rule = "update refuses every change to a finished task and changes nothing";
    for finish in finishes() {
        let new = task(&fresh_owner());
        create(store, &new, rule).await;
        let asking = TaskUpdate::InputRequired {
            requests: map(&[("q", json!({}))]),
            message: None,
        };
        applied(store, &new.id, asking, rule).await;
        let finished = applied(store, &new.id, finish, rule).await;
        for update in every_update() {
            let described = format!("{update:?}");
            let updated = succeeded(store.update(&new.id, update).await, rule);
            ensure(
                updated == Updated::Refused(finished.clone()),
                rule,
                format_args!("{described} to {finished:?} said {updated:?}"),
            );
            let stored = get(store, &new.id, rule).await;
            ensure(
                stored.as_ref() == Some(&finished),
                rule,
                format_args!("after {described}, {finished:?} became {stored:?}"),
            );
        }
    }
    let rule = "update applies no Finished whose status is neither completed nor failed";
    let new = task(&fresh_owner());
    create(store, &new, rule).await;
    for status in [
        TaskStatus::Working,
        TaskStatus::InputRequired,
        TaskStatus::Cancelled,
    ] {
        let finish = TaskUpdate::Finished {
            outcome: TaskOutcome::Result(json!({})),
            status,
            message: None,
        };
        let updated = store.update(&new.id, finish).await;
        ensure(
            !matches!(updated, Ok(Updated::Applied(_))),
            rule,
            format_args!("finishing as {} was applied", status.as_str()),
        );
        let stored = get(store, &new.id, rule).await;
        ensure(
            stored.as_ref() == Some(&new),
            rule,
            format_args!("the task became {stored:?}"),
        );
    }
}

async fn input_round(store: &impl TaskStore) {
    let rule = "InputRequired sets its status and adds requests, InputResponses moves answered \
                requests to the answers (working once none is left, answers to nothing ignored), \
                InputTaken removes both, Working sets its status and clears the requests";
    let new = task(&fresh_owner());
    create(store, &new, rule).await;
    let a = json!({ "method": "elicitation/create", "params": { "message": "a?" } });
    let b = json!({ "method": "sampling/createMessage", "params": {} });
    let yes = json!({ "action": "accept" });
    let asking = TaskStatus::InputRequired;
    let working = TaskStatus::Working;
    // Each update, then the status, message, requests and responses it must leave.
    #[rustfmt::skip]
    let steps = [
        (TaskUpdate::InputRequired { requests: map(&[("a", a.clone())]), message: message("1") },
            asking, message("1"), map(&[("a", a.clone())]), map(&[])),
        (TaskUpdate::InputRequired { requests: map(&[("b", b.clone())]), message: None },
            asking, None, map(&[("a", a), ("b", b.clone())]), map(&[])),
        (TaskUpdate::InputResponses(map(&[("a", yes.clone())])),
            asking, None, map(&[("b", b.clone())]), map(&[("a", yes.clone())])),
        (TaskUpdate::InputTaken(vec!["a".to_owned()]),
            asking, None, map(&[("b", b.clone())]), map(&[])),
        // The last request answered: nothing waits on the client any more.
        (TaskUpdate::InputResponses(map(&[("b", yes.clone())])),
            working, None, map(&[]), map(&[("b", yes.clone())])),
        (TaskUpdate::Working { message: message("2") },
            working, message("2"), map(&[]), map(&[("b", yes.clone())])),
        // An answer to nothing asked (again, or never) is not kept.
        (TaskUpdate::InputResponses(map(&[("b", json!({})), ("late", yes.clone())])),
            working, message("2"), map(&[]), map(&[("b", yes)])),
        (TaskUpdate::InputRequired { requests: map(&[("c", b.clone())]), message: None },
            asking, None, map(&[("c", b)]), map(&[("b", json!({ "action": "accept" }))])),
        (TaskUpdate::InputTaken(vec!["b".to_owned()]),
            asking, None, map(&[("c", json!({ "method": "sampling/createMessage", "params": {} }))]), map(&[])),
        // `Working` clears the requests.
        (TaskUpdate::Working { message: None },
            working, None, map(&[]), map(&[])),
    ];
    for (update, status, message, requests, responses) in steps {
        let described = format!("{update:?}");
        let record = applied(store, &new.id, update, rule).await;
        ensure(
            record.status == status
                && record.status_message == message
                && record.input_requests == requests
                && record.input_responses == responses
                && record.outcome.is_none(),
            rule,
            format_args!(
                "after {described}, expected status {}, message {message:?}, requests \
                 {requests:?}, responses {responses:?}; got {record:?}",
                status.as_str()
            ),
        );
    }
}

async fn finishing_clears_input(store: &impl TaskStore) {
    let rule = "Finished and Cancelled set the status, message and outcome, and clear the input";
    for finish in finishes() {
        let new = task(&fresh_owner());
        create(store, &new, rule).await;
        let asking = TaskUpdate::InputRequired {
            requests: map(&[("a", json!({})), ("b", json!({}))]),
            message: message("asking"),
        };
        applied(store, &new.id, asking, rule).await;
        let answer = TaskUpdate::InputResponses(map(&[("a", json!({ "action": "accept" }))]));
        applied(store, &new.id, answer, rule).await;
        let (status, message, outcome) = match &finish {
            TaskUpdate::Finished {
                outcome,
                status,
                message,
            } => (*status, message.clone(), Some(outcome.clone())),
            _ => (TaskStatus::Cancelled, None, None),
        };
        let described = format!("{finish:?}");
        let record = applied(store, &new.id, finish, rule).await;
        ensure(
            record.status == status
                && record.status_message == message
                && record.outcome == outcome
                && record.input_requests.is_empty()
                && record.input_responses.is_empty(),
            rule,
            format_args!("after {described}, {record:?}"),
        );
    }
}

async fn last_updated_at(store: &impl TaskStore) {
    let rule = "update stamps last_updated_at with the time of the change, never going back";
    let created_at = now() - Duration::from_secs(10);
    let new = task_at(&fresh_owner(), created_at);
    create(store, &new, rule).await;
    let mut previous = new.last_updated_at;
    for update in every_update() {
        // A second's slack: a store may take the time from its own server's clock.
        let before = SystemTime::now() - Duration::from_secs(1);
        let described = format!("{update:?}");
        let record = applied(store, &new.id, update, rule).await;
        let stamped = record.last_updated_at;
        ensure(
            stamped >= previous && stamped > created_at && stamped >= before,
            rule,
            format_args!(
                "after {described}, last_updated_at is {stamped:?}; before it was {previous:?}, \
                 and the update was made after {before:?}"
            ),
        );
        previous = stamped;
        if record.status.is_terminal() {
            break;
        }
    }
}

async fn expiry(store: &impl TaskStore) {
    let rule = "a finished task is forgotten once its ttl has passed since its creation, by \
                every method, before and after purge_expired";
    let owner = fresh_owner();
    let past = now() - Duration::from_secs(2);
    let ttl = Some(Duration::from_secs(1));
    let expiring = TaskRecord {
        ttl,
        ..task_at(&owner, past)
    };
    let running = TaskRecord {
        ttl,
        ..task_at(&owner, past)
    };
    let waiting = TaskRecord {
        ttl,
        status: TaskStatus::InputRequired,
        ..task_at(&owner, past)
    };
    let kept = TaskRecord {
        ttl: None,
        status: TaskStatus::Completed,
        outcome: Some(TaskOutcome::Result(json!({}))),
        ..task_at(&owner, now() - Duration::from_secs(86_400))
    };
    for task in [&expiring, &running, &waiting, &kept] {
        create(store, task, rule).await;
    }
    let mut changes = succeeded(store.watch(&expiring.id).await, rule)
        .unwrap_or_else(|| broken(rule, "watch did not find a running task"));
    finish_into_expiry(store, &expiring.id, rule).await;
    let visible = [&running, &waiting, &kept];
    let only_visible = async |when: &str| {
        ensure(
            get(store, &expiring.id, rule).await.is_none(),
            rule,
            format_args!("{when}, get found it"),
        );
        let updated = succeeded(store.update(&expiring.id, completed()).await, rule);
        ensure(
            updated == Updated::Unknown,
            rule,
            format_args!("{when}, update said {updated:?}"),
        );
        ensure(
            succeeded(store.watch(&expiring.id).await, rule).is_none(),
            rule,
            format_args!("{when}, watch found it"),
        );
        let listed = all_pages(store, &owner, 10).await;
        ensure(
            ids(&listed) == visible.map(|task| task.id.as_str()),
            rule,
            format_args!("{when}, list returned {:?}", ids(&listed)),
        );
        for task in visible {
            ensure(
                get(store, &task.id, rule).await.as_ref() == Some(task),
                "a running task is never forgotten, and a task without a ttl is kept",
                format_args!("{when}, get did not return {task:?}"),
            );
        }
    };
    only_visible("before purge_expired").await;
    let purged = succeeded(store.purge_expired(SystemTime::now()).await, rule);
    ensure(
        purged == 1,
        "purge_expired counts the tasks it forgets",
        format_args!("one expired task, purge_expired said {purged}"),
    );
    only_visible("after purge_expired").await;
    let again = succeeded(store.purge_expired(SystemTime::now()).await, rule);
    ensure(
        again == 0,
        "purge_expired counts the tasks it forgets",
        format_args!("nothing left to purge, purge_expired said {again}"),
    );
    let rule = "a watch stream ends when its task is forgotten";
    for _ in 0..3 {
        if next_change(&mut changes, rule).await.is_none() {
            return;
        }
    }
    broken(rule, "it still yields after the task was purged");
}

async fn pagination(store: &impl TaskStore) {
    let rule = "list returns only the owner's tasks, oldest first, in pages of the limit, \
                with next exactly when more remain";
    let owner = fresh_owner();
    let other = fresh_owner();
    let base = now() - Duration::from_secs(60);
    let mut tasks = Vec::new();
    for i in 0..7 {
        let mine = task_at(&owner, base + Duration::from_millis(20 * i));
        create(store, &mine, rule).await;
        tasks.push(mine);
        let theirs = task_at(&other, base + Duration::from_millis(20 * i + 10));
        create(store, &theirs, rule).await;
    }
    let mut after = None;
    let pages = tasks.chunks(3).count();
    for (index, expected) in tasks.chunks(3).enumerate() {
        let page = succeeded(store.list(&owner, after.as_deref(), 3).await, rule);
        ensure(
            page.tasks == expected,
            rule,
            format_args!(
                "expected the page {:?}, got {:?}",
                ids(expected),
                ids(&page.tasks)
            ),
        );
        ensure(
            page.next.is_none() == (index + 1 == pages),
            rule,
            format_args!("the page {:?} has next {:?}", ids(&page.tasks), page.next),
        );
        after = page.next;
    }
    let whole = succeeded(store.list(&owner, None, 7).await, rule);
    ensure(
        whole == TaskPage { tasks, next: None },
        rule,
        format_args!("with a limit of all 7, got {whole:?}"),
    );
}

async fn pages_while_tasks_come_and_go(store: &impl TaskStore) {
    let rule = "list pages neither repeat nor skip a task while tasks are added and purged";
    let owner = fresh_owner();
    let base = now() - Duration::from_secs(60);
    let mut tasks: Vec<TaskRecord> = (0..7)
        .map(|i| task_at(&owner, base + Duration::from_millis(10 * i)))
        .collect();
    // The second finishes and expires once the first page (which ends with it) is read.
    tasks[1].ttl = Some(Duration::from_secs(1));
    for task in &tasks {
        create(store, task, rule).await;
    }
    let first = succeeded(store.list(&owner, None, 2).await, rule);
    ensure(
        ids(&first.tasks) == ids(&tasks[..2]) && first.next.is_some(),
        rule,
        format_args!("the first page is {first:?}"),
    );
    finish_into_expiry(store, &tasks[1].id, rule).await;
    let purged = succeeded(store.purge_expired(SystemTime::now()).await, rule);
    ensure(
        purged == 1,
        rule,
        format_args!("purge_expired said {purged}"),
    );
    let added = task(&owner);
    create(store, &added, rule).await;
    let mut seen: Vec<TaskRecord> = first.tasks;
    let mut after = first.next;
    while let Some(position) = after {
        let page = succeeded(store.list(&owner, Some(&position), 2).await, rule);
        seen.extend(page.tasks);
        after = page.next;
        if seen.len() > 100 {
            broken(rule, format_args!("pages go on: {:?}", ids(&seen)));
        }
    }
    let expected: Vec<&str> = ids(&tasks).into_iter().chain([added.id.as_str()]).collect();
    let unique: HashSet<&str> = ids(&seen).into_iter().collect();
    ensure(
        ids(&seen) == expected && unique.len() == seen.len(),
        rule,
        format_args!(
            "expected {expected:?} across the pages, got {:?}",
            ids(&seen)
        ),
    );
}

async fn watch(store: &impl TaskStore) {
    let rule = "watch yields the task as it is, then as each update leaves it";
    let new = task(&fresh_owner());
    create(store, &new, rule).await;
    let working = TaskUpdate::Working {
        message: message("before watching"),
    };
    let current = applied(store, &new.id, working, rule).await;
    let mut changes = succeeded(store.watch(&new.id).await, rule)
        .unwrap_or_else(|| broken(rule, "watch did not find the task"));
    let first = next_change(&mut changes, rule).await;
    ensure(
        first.as_ref() == Some(&current),
        rule,
        format_args!("expected {current:?} first, got {first:?}"),
    );
    let asking = TaskUpdate::InputRequired {
        requests: map(&[("q", json!({}))]),
        message: None,
    };
    for update in [asking, completed()] {
        let after = applied(store, &new.id, update, rule).await;
        // Intermediate states may be skipped, the latest never: read until it comes.
        let deadline = tokio::time::Instant::now() + WAIT;
        loop {
            let change = tokio::time::timeout_at(deadline, changes.next()).await;
            match change {
                Ok(Some(record)) if record == after => break,
                Ok(Some(_)) => continue,
                Ok(None) => broken(rule, format_args!("it ended before yielding {after:?}")),
                Err(_) => broken(rule, format_args!("{after:?} did not come within {WAIT:?}")),
            }
        }
    }
}

async fn concurrent_creates<S: TaskStore>(store: Arc<S>) {
    let rule = "create checks the owner's limit and stores in one step";
    let owner = fresh_owner();
    let limit = 10;
    let creates: Vec<_> = (0..32)
        .map(|_| {
            let store = Arc::clone(&store);
            let task = task(&owner);
            tokio::spawn(async move { store.create(task, limit).await })
        })
        .collect();
    let mut stored = 0;
    for create in creates {
        match succeeded(create.await.expect("a create panicked"), rule) {
            Created::Stored => stored += 1,
            Created::OwnerAtLimit(n) if n == limit => {}
            other => broken(rule, format_args!("create said {other:?}")),
        }
    }
    let listed = all_pages(&*store, &owner, 100).await;
    ensure(
        stored == limit && listed.len() == limit,
        rule,
        format_args!(
            "32 concurrent creates with a limit of {limit}: {stored} said stored, {} listed",
            listed.len()
        ),
    );
}
