//! How a task is written on the wire, era by era: the 2025-11-25 `Task` object (core,
//! experimental) and the flat fields of the 2026-07-28 `io.modelcontextprotocol/tasks`
//! extension.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde_json::{Map, Value, json};

use super::store::{TaskOutcome, TaskRecord, TaskStatus};

/// The extension's identifier (2026-07-28), in `capabilities.extensions`.
pub(crate) const EXTENSION: &str = "io.modelcontextprotocol/tasks";
/// The `_meta` key that ties a message to the task it belongs to.
pub(crate) const RELATED_TASK: &str = "io.modelcontextprotocol/related-task";

/// An ISO 8601 timestamp in UTC with milliseconds, e.g. `2026-11-26T07:15:02.123Z`.
pub(crate) fn timestamp(at: SystemTime) -> String {
    let since_epoch = at.duration_since(UNIX_EPOCH).unwrap_or(Duration::ZERO);
    let seconds = since_epoch.as_secs();
    let millis = since_epoch.subsec_millis();
    let days = i64::try_from(seconds / 86_400).unwrap_or(i64::MAX);
    let of_day = seconds % 86_400;
    let (year, month, day) = civil_from_days(days);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{millis:03}Z",
        of_day / 3600,
        of_day % 3600 / 60,
        of_day % 60
    )
}

/// The proleptic Gregorian date of a day counted from 1970-01-01 (Howard Hinnant's
/// `civil_from_days`): no date crate needed for one format.
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z.rem_euclid(146_097);
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let shifted_month = (5 * day_of_year + 2) / 153;
    let day = u32::try_from(day_of_year - (153 * shifted_month + 2) / 5 + 1).unwrap_or(1);
    let month = u32::try_from(if shifted_month < 10 {
        shifted_month + 3
    } else {
        shifted_month - 9
    })
    .unwrap_or(1);
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

fn millis(duration: Duration) -> Value {
    u64::try_from(duration.as_millis())
        .unwrap_or(u64::MAX)
        .into()
}

/// The members every era's task has: id, status, message, timestamps, poll interval. The
/// ttl is written by the caller, its name depending on the era.
fn common(task: &TaskRecord) -> Map<String, Value> {
    let mut members = Map::new();
    members.insert("taskId".into(), task.id.clone().into());
    members.insert("status".into(), task.status.as_str().into());
    if let Some(message) = &task.status_message {
        members.insert("statusMessage".into(), message.clone().into());
    }
    members.insert("createdAt".into(), timestamp(task.created_at).into());
    members.insert(
        "lastUpdatedAt".into(),
        timestamp(task.last_updated_at).into(),
    );
    members
}

/// 2025-11-25: the `Task` object (in `CreateTaskResult.task`, and as the whole of
/// `tasks/get`, `tasks/cancel` and status notification params).
pub(crate) fn task_object(task: &TaskRecord) -> Map<String, Value> {
    let mut members = common(task);
    members.insert("ttl".into(), task.ttl.map_or(Value::Null, millis));
    if let Some(interval) = task.poll_interval {
        members.insert("pollInterval".into(), millis(interval));
    }
    members
}

/// 2026-07-28: the flat task fields (`tools/call`'s `resultType: "task"` result).
pub(crate) fn flat_task(task: &TaskRecord) -> Map<String, Value> {
    let mut members = common(task);
    members.insert("ttlMs".into(), task.ttl.map_or(Value::Null, millis));
    if let Some(interval) = task.poll_interval {
        members.insert("pollIntervalMs".into(), millis(interval));
    }
    members
}

/// 2026-07-28: the detailed task `tasks/get` answers with — the flat fields, and by status
/// what the task waits for, its result, or its error.
pub(crate) fn detailed_task(task: &TaskRecord) -> Map<String, Value> {
    let mut members = flat_task(task);
    match (task.status, &task.outcome) {
        (TaskStatus::InputRequired, _) => {
            members.insert(
                "inputRequests".into(),
                Value::Object(task.input_requests.clone()),
            );
        }
        (TaskStatus::Completed, Some(TaskOutcome::Result(result))) => {
            members.insert("result".into(), result.clone());
        }
        (TaskStatus::Failed, Some(outcome)) => {
            members.insert("error".into(), error_object(outcome));
        }
        _ => {}
    }
    members
}

/// A failed task's outcome as a JSON-RPC error object. A 2025-11-25 tool result with
/// `isError` fails its task but is not a JSON-RPC error: it is reported as an internal one
/// carrying the result, for the era that has no result on failed tasks.
fn error_object(outcome: &TaskOutcome) -> Value {
    match outcome {
        TaskOutcome::Error {
            code,
            message,
            data,
        } => {
            let mut error = json!({ "code": code, "message": message });
            if let Some(data) = data {
                error["data"] = data.clone();
            }
            error
        }
        TaskOutcome::Result(result) => json!({
            "code": crate::protocol::jsonrpc::code::INTERNAL_ERROR,
            "message": "The task failed.",
            "data": result,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timestamps_are_iso_8601_utc_with_milliseconds() {
        assert_eq!(timestamp(UNIX_EPOCH), "1970-01-01T00:00:00.000Z");
        let at = UNIX_EPOCH + Duration::from_millis(1_795_677_902_123);
        assert_eq!(timestamp(at), "2026-11-26T07:25:02.123Z");
        let leap = UNIX_EPOCH + Duration::from_secs(951_782_400);
        assert_eq!(timestamp(leap), "2000-02-29T00:00:00.000Z");
    }
}
