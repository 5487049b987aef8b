//! How a task is written in Redis (JSON, times in whole milliseconds since the epoch) and
//! how an update changes it.

use std::borrow::Cow;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::protocol::jsonrpc::code;
use crate::task::store::{StoreError, TaskOutcome, TaskOwner, TaskRecord, TaskStatus, TaskUpdate};

/// What a task whose runner stopped says, as its status message and as its error.
pub(crate) const RUNNER_GONE: &str =
    "The server instance running the task stopped before it finished.";

/// A [`TaskRecord`] as Redis keeps it. Borrowed to write (an outcome can be large), owned
/// once read.
#[derive(Serialize, Deserialize)]
struct Stored<'a> {
    id: Cow<'a, str>,
    owner: Cow<'a, str>,
    protocol_version: Cow<'a, str>,
    tool: Cow<'a, str>,
    status: TaskStatus,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    status_message: Option<Cow<'a, str>>,
    created_at: i64,
    last_updated_at: i64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    ttl: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    poll_interval: Option<u64>,
    #[serde(default)]
    input_requests: Cow<'a, Map<String, Value>>,
    #[serde(default)]
    input_responses: Cow<'a, Map<String, Value>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    outcome: Option<Cow<'a, TaskOutcome>>,
}

/// The task as JSON, for the `record` field of its hash.
pub(super) fn encode(record: &TaskRecord) -> Result<String, StoreError> {
    let stored = Stored {
        id: Cow::Borrowed(&record.id),
        owner: Cow::Borrowed(&record.owner.0),
        protocol_version: Cow::Borrowed(&record.protocol_version),
        tool: Cow::Borrowed(&record.tool),
        status: record.status,
        status_message: record.status_message.as_deref().map(Cow::Borrowed),
        created_at: millis(record.created_at),
        last_updated_at: millis(record.last_updated_at),
        ttl: record.ttl.map(duration_millis),
        poll_interval: record.poll_interval.map(duration_millis),
        input_requests: Cow::Borrowed(&record.input_requests),
        input_responses: Cow::Borrowed(&record.input_responses),
        outcome: record.outcome.as_ref().map(Cow::Borrowed),
    };
    serde_json::to_string(&stored)
        .map_err(|error| StoreError(format!("cannot write task {} as JSON: {error}", record.id)))
}

/// The task `id` from the `record` field of its hash.
pub(super) fn decode(id: &str, json: &str) -> Result<TaskRecord, StoreError> {
    let stored: Stored<'_> = serde_json::from_str(json)
        .map_err(|error| StoreError(format!("task {id} in Redis is malformed: {error}")))?;
    Ok(TaskRecord {
        id: stored.id.into_owned(),
        owner: TaskOwner(stored.owner.into_owned()),
        protocol_version: stored.protocol_version.into_owned(),
        tool: stored.tool.into_owned(),
        status: stored.status,
        status_message: stored.status_message.map(Cow::into_owned),
        created_at: time_at(stored.created_at),
        last_updated_at: time_at(stored.last_updated_at),
        ttl: stored.ttl.map(Duration::from_millis),
        poll_interval: stored.poll_interval.map(Duration::from_millis),
        input_requests: stored.input_requests.into_owned(),
        input_responses: stored.input_responses.into_owned(),
        outcome: stored.outcome.map(Cow::into_owned),
    })
}

/// Milliseconds since the epoch (negative before it), saturating.
pub(super) fn millis(time: SystemTime) -> i64 {
    match time.duration_since(UNIX_EPOCH) {
        Ok(since) => i64::try_from(since.as_millis()).unwrap_or(i64::MAX),
        Err(before) => i64::try_from(before.duration().as_millis()).map_or(i64::MIN, |ms| -ms),
    }
}

fn time_at(millis: i64) -> SystemTime {
    let offset = Duration::from_millis(millis.unsigned_abs());
    if millis >= 0 {
        UNIX_EPOCH + offset
    } else {
        UNIX_EPOCH - offset
    }
}

fn duration_millis(duration: Duration) -> u64 {
    u64::try_from(duration.as_millis()).unwrap_or(u64::MAX)
}

/// `time` in whole milliseconds: what the store keeps, so a record an update returns is
/// the record a later read finds.
pub(super) fn whole_millis(time: SystemTime) -> SystemTime {
    time_at(millis(time))
}

/// The update that fails a task whose runner stopped.
pub(super) fn runner_gone() -> TaskUpdate {
    TaskUpdate::Finished {
        outcome: TaskOutcome::Error {
            code: code::INTERNAL_ERROR,
            message: RUNNER_GONE.to_owned(),
            data: None,
        },
        status: TaskStatus::Failed,
        message: Some(RUNNER_GONE.to_owned()),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_record_survives_the_round_trip() {
        let created_at = time_at(1_700_000_000_123);
        let record = TaskRecord {
            id: "a".to_owned(),
            owner: TaskOwner("o".to_owned()),
            protocol_version: "2025-11-25".to_owned(),
            tool: "t".to_owned(),
            status: TaskStatus::Failed,
            status_message: Some("m".to_owned()),
            created_at,
            last_updated_at: created_at + Duration::from_millis(5),
            ttl: Some(Duration::from_millis(90_500)),
            poll_interval: None,
            input_requests: Map::new(),
            input_responses: json!({ "k": [1, 2.5, "x"] }).as_object().unwrap().clone(),
            outcome: Some(TaskOutcome::Error {
                code: -1,
                message: "no".to_owned(),
                data: Some(json!({ "n": 1 })),
            }),
        };
        assert_eq!(decode("a", &encode(&record).unwrap()).unwrap(), record);
    }

    #[test]
    fn times_before_the_epoch_survive() {
        for millis_since in [-1_500, -1, 0, 1, 1_700_000_000_000] {
            assert_eq!(millis(time_at(millis_since)), millis_since);
        }
    }
}
