//! `call`: a tool called, its progress and log messages on stderr while it runs, then its
//! result printed; and the tool's arguments read against its schema, as `task` reads them too.

use serde_json::Value;

use super::output::{
    USAGE, fail, print_notification, print_progress, print_queued_notifications, print_result,
};
use super::words::{CLI_ENV, parse_arguments};
use crate::client::{ClientCore, ResponseError, TASKS_EXTENSION, Tool};
use crate::protocol::jsonrpc::code::MISSING_REQUIRED_CLIENT_CAPABILITY;

/// The tool as the server lists it (if it does) and the `key=value` words read against its
/// schema; `Err(USAGE)` once what is wrong with the words is said.
pub(super) async fn listed_and_arguments(
    client: &ClientCore,
    tool: &str,
    arguments: &[String],
) -> Result<Result<(Option<Tool>, Value), i32>, ResponseError> {
    let tools = client.list_tools().await?;
    let listed = tools.into_iter().find(|candidate| candidate.name == tool);
    let schema = listed.as_ref().map(|tool| &tool.input_schema);
    Ok(match parse_arguments(tool, arguments, schema) {
        Ok(arguments) => Ok((listed, arguments)),
        Err(problem) => {
            eprintln!("error: {problem}");
            Err(USAGE)
        }
    })
}

pub(super) async fn call(
    client: &ClientCore,
    tool: &str,
    arguments: &[String],
) -> Result<i32, ResponseError> {
    let (listed, arguments) = match listed_and_arguments(client, tool, arguments).await? {
        Ok(parsed) => parsed,
        Err(status) => return Ok(status),
    };
    let listed = listed.as_ref();
    let token = client.progress_token();
    let (progress, mut reports) = tokio::sync::mpsc::unbounded_channel();
    client.route_progress(&token, progress);
    let (_, answer) = client.start_call(tool, arguments, Some(&token));
    tokio::pin!(answer);
    // Progress and log messages go to stderr while the tool runs. They come before the
    // response on the wire, so once it is in, whatever is still queued is printed first.
    let result = loop {
        tokio::select! {
            biased;
            Some(report) = reports.recv() => print_progress(&report),
            Some(notification) = client.next_notification() => print_notification(&notification),
            result = &mut answer => match result {
                Ok(result) => break result,
                Err(error) => {
                    print_queued_notifications(client);
                    let status = fail(&error);
                    hint_task(tool, listed.and_then(Tool::task_support), &error);
                    return Ok(status);
                }
            },
        }
    };
    while let Ok(report) = reports.try_recv() {
        print_progress(&report);
    }
    while let Some(notification) = client.try_next_notification() {
        print_notification(&notification);
    }
    Ok(print_result(&result))
}

/// After a `call` refused because the tool runs only as a task, says how to run it.
fn hint_task(tool: &str, task_support: Option<&str>, error: &ResponseError) {
    let asks_for_tasks = error.code == MISSING_REQUIRED_CLIENT_CAPABILITY
        && error.data.as_ref().is_some_and(|data| {
            data["requiredCapabilities"]["extensions"]
                .get(TASKS_EXTENSION)
                .is_some()
        });
    let required =
        error.code == ResponseError::METHOD_NOT_FOUND && task_support == Some("required");
    if asks_for_tasks || required {
        eprintln!("hint: `{tool}` runs only as a task: {CLI_ENV}='task {tool} ...'");
    }
}
