//! `task`: a tool run as a task — started, watched until it ends (its status changes, progress
//! and log messages on stderr), then its result printed as `call` prints one.
//!
//! One command is one process, whose in-memory server stops with it: a task is only useful
//! watched to its end, so there is no command that only starts one.

use std::io::Write as _;
use std::time::{Duration, Instant};

use super::call::listed_and_arguments;
use super::output::{
    FAILURE, fail, print_notification, print_progress, print_queued_notifications, print_result,
};
use super::words::CLI_ENV;
use crate::client::{ClientCore, Progress, ResponseError, TaskInfo, ToolResult};
use crate::task::TaskStatus;

/// How often to poll a task whose server gives no poll interval.
const DEFAULT_POLL_INTERVAL: Duration = Duration::from_millis(500);
/// The shortest pause between polls, whatever the server says.
const MIN_POLL_INTERVAL: Duration = Duration::from_millis(5);

/// What `task` was asked to do.
pub(super) struct TaskCommand<'a> {
    pub tool: &'a str,
    pub arguments: &'a [String],
    /// The ttl to ask for, in milliseconds (2025-11-25).
    pub ttl: Option<u64>,
    /// Cancel the task if it has not ended after this many milliseconds.
    pub timeout: Option<u64>,
}

/// The last status shown on stderr, so each change is shown once (a 2025-11-25 status
/// notification and the next poll say the same).
#[derive(Default)]
struct Shown(Option<(TaskStatus, Option<String>)>);

impl Shown {
    fn show(&mut self, task: &TaskInfo) {
        let now = (task.status, task.status_message.clone());
        if self.0.as_ref() == Some(&now) {
            return;
        }
        match &task.status_message {
            Some(message) => eprintln!(
                "task {}: {} ({message})",
                task.task_id,
                task.status.as_str()
            ),
            None => eprintln!("task {}: {}", task.task_id, task.status.as_str()),
        }
        self.0 = Some(now);
    }
}

pub(super) async fn run_task(
    client: &ClientCore,
    command: TaskCommand<'_>,
) -> Result<i32, ResponseError> {
    let TaskCommand {
        tool,
        arguments,
        ttl,
        timeout,
    } = command;
    let (listed, arguments) = match listed_and_arguments(client, tool, arguments).await? {
        Ok(parsed) => parsed,
        Err(status) => return Ok(status),
    };
    let listed = listed.as_ref();
    if ttl.is_some() && client.revision().is_stateless() {
        eprintln!(
            "note: --ttl is not sent under {}: the server picks",
            client.revision()
        );
    }
    let token = client.progress_token();
    let (progress, mut reports) = tokio::sync::mpsc::unbounded_channel();
    client.route_progress(&token, progress);
    let ttl = ttl.map(Duration::from_millis);
    let task = match client.start_task(tool, arguments, ttl, Some(&token)).await {
        Ok(task) => task,
        Err(error) if error.code == ResponseError::NOT_A_TASK => {
            eprintln!("note: `{tool}` ran as a plain call, not as a task (it does not run as one)");
            drain(client, &mut reports);
            let result: ToolResult = serde_json::from_value(error.data.unwrap_or_default())
                .map_err(|error| {
                    ResponseError::new(ResponseError::CONNECTION_CLOSED, error.to_string())
                })?;
            return Ok(print_result(&result));
        }
        Err(error) => {
            drain(client, &mut reports);
            let status = fail(&error);
            // Listed without `taskSupport`, a tool forbids tasks.
            let forbidden =
                listed.is_some_and(|tool| matches!(tool.task_support(), None | Some("forbidden")));
            if error.code == ResponseError::METHOD_NOT_FOUND && forbidden {
                eprintln!("hint: `{tool}` does not run as a task: {CLI_ENV}='call {tool} ...'");
            }
            return Ok(status);
        }
    };
    let mut shown = Shown::default();
    shown.show(&task);
    let deadline = timeout.map(|ms| (Instant::now() + Duration::from_millis(ms), ms));
    let mut task = task;
    while !task.is_terminal() {
        if let Some(methods) = unanswerable(client, &task) {
            eprintln!("the task asks for {methods}, which {CLI_ENV} cannot answer: cancelling it");
            return cancel(client, &task.task_id, &mut shown).await;
        }
        let pause = task
            .poll_interval
            .unwrap_or(DEFAULT_POLL_INTERVAL)
            .max(MIN_POLL_INTERVAL);
        let pause = deadline.map_or(pause, |(at, _)| {
            pause.min(at.saturating_duration_since(Instant::now()))
        });
        watch(client, &mut reports, &task.task_id, &mut shown, pause).await;
        if let Some((at, ms)) = deadline
            && Instant::now() >= at
        {
            eprintln!(
                "task {}: not ended after {ms} ms: cancelling it",
                task.task_id
            );
            match cancel(client, &task.task_id, &mut shown).await {
                // It ended meanwhile: its result stands.
                Err(error) if error.code == ResponseError::INVALID_PARAMS => {}
                ended => return ended,
            }
        }
        task = client.get_task(&task.task_id).await?;
        shown.show(&task);
    }
    if task.status == TaskStatus::Cancelled {
        drain(client, &mut reports);
        eprintln!("task {} was cancelled", task.task_id);
        return Ok(FAILURE);
    }
    let result = client.finished_result(&task).await;
    drain(client, &mut reports);
    match result {
        Ok(result) => Ok(print_result(&result)),
        Err(error) => Ok(fail(&error)),
    }
}

/// Waits `pause`, printing the progress and notifications that arrive meanwhile; the task's
/// own status notifications (2025-11-25) show its status.
async fn watch(
    client: &ClientCore,
    reports: &mut tokio::sync::mpsc::UnboundedReceiver<Progress>,
    task_id: &str,
    shown: &mut Shown,
    pause: Duration,
) {
    let sleep = tokio::time::sleep(pause);
    tokio::pin!(sleep);
    loop {
        tokio::select! {
            biased;
            Some(report) = reports.recv() => print_progress(&report),
            Some(notification) = client.next_notification() => {
                let params = &notification.params;
                let ours = notification.method == "notifications/tasks/status"
                    && params["taskId"] == task_id;
                match TaskInfo::from_json(params) {
                    Ok(task) if ours => shown.show(&task),
                    _ => print_notification(&notification),
                }
            }
            () = &mut sleep => return,
        }
    }
}

/// Cancels the task, shows how the cancel left it, and fails.
async fn cancel(
    client: &ClientCore,
    task_id: &str,
    shown: &mut Shown,
) -> Result<i32, ResponseError> {
    let task = client.cancel_task(task_id).await?;
    print_queued_notifications(client);
    shown.show(&task);
    Ok(FAILURE)
}

/// The methods a 2026-07-28 task asks for that this command cannot answer (it answers
/// none), if it asks any.
fn unanswerable(client: &ClientCore, task: &TaskInfo) -> Option<String> {
    if !client.revision().is_stateless() || task.input_requests.is_empty() {
        return None;
    }
    let methods: Vec<&str> = task
        .input_requests
        .values()
        .map(|request| request["method"].as_str().unwrap_or("?"))
        .collect();
    Some(format!("`{}`", methods.join("`, `")))
}

/// Prints what is still queued: progress, then notifications.
fn drain(client: &ClientCore, reports: &mut tokio::sync::mpsc::UnboundedReceiver<Progress>) {
    while let Ok(report) = reports.try_recv() {
        print_progress(&report);
    }
    print_queued_notifications(client);
    let _ = std::io::stderr().lock().flush();
}
