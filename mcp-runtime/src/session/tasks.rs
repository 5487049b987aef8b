//! Tasks in both eras: whether a `tools/call` runs as one, and the `tasks/*` methods.
//!
//! - 2025-11-25 (core, experimental): the `tasks` capability; a call with `params.task`
//!   is answered with `CreateTaskResult`; `tasks/get`, `tasks/result`, `tasks/list`,
//!   `tasks/cancel`; status notifications on the connection or the session's stream.
//! - 2026-07-28 (the `io.modelcontextprotocol/tasks` extension): a client that declares
//!   the extension gets a task for a task-capable tool, written as flat fields with
//!   `resultType: "task"`; `tasks/get` carries the result inline, `tasks/update` the
//!   answers to what the task asks, `tasks/cancel` stops it.

use std::collections::HashSet;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::Poll;
use std::time::Duration;

use serde_json::{Map, Value, json};

use super::body::Body;
use super::params::required_string;
use super::reply::Answer;
use super::{Era, Session};
use crate::context::client_requests::InputRound;
use crate::context::{ClientLink, RequestHandle};
use crate::protocol::jsonrpc::{RpcError, code};
use crate::protocol::meta::{self, RequestMeta};
use crate::protocol::outbox::Outbox;
use crate::protocol::random_id::random_id;
use crate::protocol::version::ProtocolVersion;
use crate::task::TaskSupport;
use crate::task::engine::TaskWork;
use crate::task::engine::{Finished, task_payload, unknown_task};
use crate::task::input::TaskClient;
use crate::task::store::{TaskOutcome, TaskOwner, TaskRecord, TaskStatus, TaskUpdate, Updated};
use crate::task::wire::{self, EXTENSION};
use crate::tool::shape::ShapedResult;

/// A `tools/call` that runs as a task.
pub(super) struct TaskRequest {
    /// The ttl the client asked for (2025-11-25 `params.task.ttl`).
    pub ttl: Option<Duration>,
}

impl Session {
    /// 2026-07-28: `tasks/get`, `tasks/update` and `tasks/cancel` are for clients that declared
    /// the extension, which the extension says to tell the others with -32021.
    pub(super) fn require_tasks_extension(
        method: &str,
        meta: Option<&RequestMeta>,
    ) -> Result<(), RpcError> {
        if client_declares_tasks(meta) {
            return Ok(());
        }
        Err(missing_extension(format!(
            "`{method}` is one of the extension's methods"
        )))
    }

    /// The task ids a 2026-07-28 `subscriptions/listen` filter asks status notifications
    /// for (`notifications.taskIds`), without repeats, in the order asked; none from a server
    /// that runs no tool as a task. Asking needs the extension (-32021 without it, as for
    /// `tasks/get`), and at most the per-client limit of unfinished tasks may be named, as
    /// no client can have more running (more is -32602, so none is missed unawares).
    pub(super) fn listened_task_ids(
        &self,
        filter: &Map<String, Value>,
        meta: Option<&RequestMeta>,
    ) -> Result<Vec<String>, RpcError> {
        let Some(asked) = filter.get("taskIds") else {
            return Ok(Vec::new());
        };
        if !self.offers_tasks() {
            return Ok(Vec::new());
        }
        if !client_declares_tasks(meta) {
            return Err(missing_extension(
                "`subscriptions/listen` asks for `taskIds`, the extension's notifications"
                    .to_owned(),
            ));
        }
        let invalid = || {
            RpcError::invalid_params(
                "Invalid params: `notifications.taskIds` must be an array of task ids (strings).",
            )
        };
        let asked = asked.as_array().ok_or_else(invalid)?;
        let mut seen = HashSet::new();
        let mut ids: Vec<String> = Vec::new();
        for id in asked {
            let id = id.as_str().ok_or_else(invalid)?;
            if seen.insert(id) {
                ids.push(id.to_owned());
            }
        }
        let limit = self.core.tasks.settings.max_unfinished_per_owner;
        if ids.len() > limit {
            return Err(RpcError::invalid_params(format!(
                "Invalid params: `notifications.taskIds` names {} tasks; one listen request may \
                 name at most {limit} (the server's limit of unfinished tasks per client).",
                ids.len()
            )));
        }
        Ok(ids)
    }

    /// Whether this server runs any tool as a task (then it declares tasks).
    pub(super) fn offers_tasks(&self) -> bool {
        self.core.tools.offers_tasks()
    }

    /// Whether the call runs as a task: the client asks for one (2025-11-25 `params.task`)
    /// or declared the extension (2026-07-28), and the tool allows it. A task asked of a
    /// tool that forbids one, or a tool that requires one called without, is refused.
    pub(super) fn task_request(
        &self,
        era: Era,
        version: ProtocolVersion,
        tool: &str,
        support: TaskSupport,
        params: &Map<String, Value>,
        meta: Option<&RequestMeta>,
    ) -> Result<Option<TaskRequest>, RpcError> {
        if version.is_stateless() {
            let declared = client_declares_tasks(meta);
            return match (support, declared) {
                (TaskSupport::Forbidden, _) | (TaskSupport::Optional, false) => Ok(None),
                (TaskSupport::Optional | TaskSupport::Required, true) => {
                    Ok(Some(TaskRequest { ttl: None }))
                }
                (TaskSupport::Required, false) => Err(missing_extension(format!(
                    "tool `{tool}` runs only as a task"
                ))),
            };
        }
        // Older revisions never see a task: their calls run as they always have.
        if !matches!(era, Era::Handshake(_)) || !version.has_task_support_listing() {
            return Ok(None);
        }
        let requested = match params.get("task") {
            None | Some(Value::Null) => None,
            Some(Value::Object(task)) => Some(match task.get("ttl") {
                None | Some(Value::Null) => None,
                Some(ttl) => Some(ttl.as_u64().map(Duration::from_millis).ok_or_else(|| {
                    RpcError::invalid_params(
                        "Invalid params: `task.ttl` must be a whole number of milliseconds.",
                    )
                })?),
            }),
            Some(_) => {
                return Err(RpcError::invalid_params(
                    "Invalid params: `task` must be an object (`{\"ttl\": 60000}` or `{}`).",
                ));
            }
        };
        // The common case first: no task asked, none needed.
        if requested.is_none() && support != TaskSupport::Required {
            return Ok(None);
        }
        // A server that declares no tasks ignores `task`, as the spec says.
        if !self.offers_tasks() {
            return Ok(None);
        }
        match (support, requested) {
            (TaskSupport::Forbidden | TaskSupport::Optional, None) => Ok(None),
            (TaskSupport::Optional | TaskSupport::Required, Some(ttl)) => {
                Ok(Some(TaskRequest { ttl }))
            }
            (TaskSupport::Forbidden, Some(_)) => Err(RpcError::new(
                code::METHOD_NOT_FOUND,
                format!(
                    "Tool `{tool}` does not run as a task (its execution.taskSupport is \
                     \"forbidden\"): call it without `task`."
                ),
            )),
            (TaskSupport::Required, None) => Err(RpcError::new(
                code::METHOD_NOT_FOUND,
                format!(
                    "Tool `{tool}` runs only as a task (its execution.taskSupport is \
                     \"required\"): call it with `task`, e.g. `\"task\": {{}}`."
                ),
            )),
        }
    }

    /// Who owns the tasks a request makes or may see: the authenticated principal's key
    /// (`Server::task_owner`), else the connection or session; a 2026-07-28 request without
    /// either shares one owner, its tasks guarded by their unguessable ids.
    pub(super) fn task_owner(&self, era: Era) -> TaskOwner {
        if let (Some(principal), Some(owner_of)) = (&self.principal, &self.core.task_owner)
            && let Some(key) = owner_of(principal.as_ref())
        {
            return TaskOwner(format!("principal:{key}"));
        }
        match era {
            Era::Stateless(_) => TaskOwner("anonymous".to_owned()),
            Era::Handshake(_) | Era::Unknown => self.connection_owner().clone(),
        }
    }

    /// The owner of this connection's or session's tasks, minted with its first task.
    pub(super) fn connection_owner(&self) -> &TaskOwner {
        self.task_owner
            .get_or_init(|| TaskOwner(format!("connection:{}", random_id())))
    }

    /// `tasks/*`: each reads the store (which may be remote), so each answers later.
    pub(super) fn task_method(
        &self,
        era: Era,
        version: ProtocolVersion,
        method: &str,
        params: Map<String, Value>,
        related: &Outbox,
    ) -> Answer {
        let core = Arc::clone(&self.core);
        let owner = self.task_owner(era);
        let result: Pin<Box<dyn Future<Output = Result<Value, RpcError>> + Send>> = match method {
            "tasks/get" => Box::pin(methods::get(core, owner, version, params)),
            "tasks/result" => Box::pin(methods::result(core, owner, params, related.clone())),
            "tasks/list" => Box::pin(methods::list(core, owner, params)),
            "tasks/cancel" => Box::pin(methods::cancel(core, owner, version, params)),
            "tasks/update" => Box::pin(methods::update(core, owner, params)),
            other => return Answer::Ready(Err(RpcError::method_not_found(other))),
        };
        Answer::Pending {
            result: Box::pin(async move {
                match result.await {
                    Ok(result) => Body::Json(result),
                    Err(error) => Body::Failure(error),
                }
            }),
            request: None,
            server_info: None,
        }
    }

    /// The link a task's `Context` asks the client through (after the input rounds of a
    /// tool that asks for its input first).
    pub(super) fn task_client(
        &self,
        era: Era,
        record: &TaskRecord,
        rounds: Option<&Arc<InputRound>>,
    ) -> ClientLink {
        let connection = match era {
            Era::Stateless(_) => None,
            Era::Handshake(_) | Era::Unknown => Some(Arc::clone(self.client_requests())),
        };
        let task = TaskClient::new(
            record.id.clone(),
            Arc::clone(&self.core.tasks),
            connection,
            self.core.client_request_timeout,
        );
        match rounds {
            Some(round) => ClientLink::RoundsThenTask(Arc::clone(round), task),
            None => ClientLink::Task(task),
        }
    }

    /// Stores the task and starts its work; the call is answered with the task once it is
    /// stored (or with the error that kept it from being made).
    ///
    /// With `rounds` (a tool that asks for its input first), the call is first an input
    /// round: polled once here, it is answered `input_required` if the tool asked for
    /// input the request did not carry; else it becomes a task, its work going on as the
    /// task's, further requests through the task.
    pub(super) fn start_task(
        &self,
        record: TaskRecord,
        version: ProtocolVersion,
        work: Pin<Box<dyn Future<Output = Body> + Send + 'static>>,
        request: Option<RequestHandle>,
        rounds: Option<Arc<InputRound>>,
    ) -> Answer {
        #[cfg(feature = "otel")]
        let work = super::telemetry::traced_task(work, &record);
        let tasks = Arc::clone(&self.core.tasks);
        // 2025-11-25 status notifications go where the task's other messages go.
        let notify = match (version.is_stateless(), &self.background) {
            (false, Some(background)) => Some(background.clone()),
            _ => None,
        };
        Answer::Pending {
            result: Box::pin(async move {
                let mut work = work;
                if let Some(round) = rounds {
                    let first = std::future::poll_fn(|cx| Poll::Ready(work.as_mut().poll(cx)));
                    match first.await {
                        // The only JSON a call's pipeline answers with is `input_required`.
                        Poll::Ready(input_required @ Body::Json(_)) => {
                            if let Some(request) = request {
                                request.finish_and_release();
                            }
                            return input_required;
                        }
                        Poll::Ready(done) => work = Box::pin(std::future::ready(done)),
                        Poll::Pending => {}
                    }
                    round.become_task();
                }
                if let Err(error) = tasks.create(&record).await {
                    if let Some(request) = &request {
                        request.abandon();
                    }
                    return Body::Failure(error);
                }
                let created = Session::task_created(&record, version);
                let finishing = request.clone();
                let work: TaskWork = Box::pin(async move {
                    let result = work.await;
                    // Nothing about the request may be sent after its result.
                    if let Some(request) = finishing {
                        request.finish_and_release();
                    }
                    finished(result, version)
                });
                tasks.run(record, work, request, notify);
                created
            }),
            // Cancelling the `tools/call` request does not cancel the task: `tasks/cancel`
            // does.
            request: None,
            server_info: None,
        }
    }

    /// The answer to a call that became a task, in its era's shape.
    pub(super) fn task_created(record: &TaskRecord, version: ProtocolVersion) -> Body {
        if version.is_stateless() {
            let mut members = wire::flat_task(record);
            members.insert("resultType".into(), "task".into());
            Body::Json(Value::Object(members))
        } else {
            Body::Json(json!({ "task": wire::task_object(record) }))
        }
    }
}

/// -32021 naming the tasks extension, with `why` the request needs it.
fn missing_extension(why: String) -> RpcError {
    RpcError::new(
        code::MISSING_REQUIRED_CLIENT_CAPABILITY,
        format!(
            "Missing required client capability: {why}, and the client did not declare the \
             `{EXTENSION}` extension."
        ),
    )
    .with_data(json!({
        "requiredCapabilities": { "extensions": { EXTENSION: {} } }
    }))
}

/// Whether a 2026-07-28 request's client declared the tasks extension.
fn client_declares_tasks(meta: Option<&RequestMeta>) -> bool {
    meta.and_then(|meta| meta.get(meta::CLIENT_CAPABILITIES))
        .and_then(|capabilities| capabilities.get("extensions"))
        .and_then(|extensions| extensions.get(EXTENSION))
        .is_some_and(Value::is_object)
}

/// How a task's call ended, from the pipeline's answer. Under 2025-11-25 a tool result with
/// `isError` fails the task (its result still given by `tasks/result`); under 2026-07-28
/// it completes it, as the extension says.
pub(super) fn finished(body: Body, version: ProtocolVersion) -> Finished {
    match body {
        Body::ToolResult(result) => {
            let failed = result.is_error() && !version.is_stateless();
            task_result(&result, version, failed)
        }
        Body::Failure(error) => Finished {
            status: TaskStatus::Failed,
            message: Some(error.message.clone()),
            outcome: TaskOutcome::Error {
                code: error.code,
                message: error.message,
                data: error.data,
            },
        },
        other => Finished {
            status: TaskStatus::Completed,
            outcome: TaskOutcome::Result(serde_json::to_value(&other).unwrap_or(Value::Null)),
            message: None,
        },
    }
}

fn task_result(result: &ShapedResult, version: ProtocolVersion, failed: bool) -> Finished {
    let mut value = serde_json::to_value(result).expect("a tool result always serializes");
    // A 2026-07-28 task's `result` is the call's result as that revision writes it, and
    // every 2026-07-28 result says what it is.
    if version.is_stateless()
        && let Value::Object(members) = &mut value
    {
        members
            .entry("resultType")
            .or_insert_with(|| "complete".into());
    }
    Finished {
        status: if failed {
            TaskStatus::Failed
        } else {
            TaskStatus::Completed
        },
        message: failed.then(|| "The tool reported an error (isError).".to_owned()),
        outcome: TaskOutcome::Result(value),
    }
}

/// What a `tasks/list` cursor starts with: the store's position follows.
const CURSOR_PREFIX: &str = "tasks:";

/// The task-owner-scoped methods, as futures: each reads the store, which may be remote.
pub(super) mod methods {
    use std::sync::Arc;

    use super::*;
    use crate::session::ServerCore;

    /// The `taskId` every `tasks/*` request names.
    fn task_id<'a>(params: &'a Map<String, Value>, method: &str) -> Result<&'a str, RpcError> {
        required_string(params, "taskId", &format!("`{method}` needs the `taskId`."))
    }

    /// `tasks/result` (2025-11-25): waits for the task to finish, then gives the call's own
    /// result or error.
    pub async fn result(
        core: Arc<ServerCore>,
        owner: TaskOwner,
        params: Map<String, Value>,
        related: Outbox,
    ) -> Result<Value, RpcError> {
        let id = task_id(&params, "tasks/result")?;
        let record = core.tasks.get_owned(&owner, id).await?;
        // While this waits, the task's requests to the client come on its stream.
        let _stream =
            (!record.status.is_terminal()).then(|| core.tasks.attach_result_stream(id, related));
        task_payload(&core.tasks.wait_finished(&owner, id).await?)
    }

    /// `tasks/get`.
    pub async fn get(
        core: Arc<ServerCore>,
        owner: TaskOwner,
        version: ProtocolVersion,
        params: Map<String, Value>,
    ) -> Result<Value, RpcError> {
        let record = core
            .tasks
            .get_owned(&owner, task_id(&params, "tasks/get")?)
            .await?;
        Ok(Value::Object(if version.is_stateless() {
            wire::detailed_task(&record)
        } else {
            wire::task_object(&record)
        }))
    }

    /// `tasks/list` (2025-11-25): the owner's tasks, a page at a time.
    pub async fn list(
        core: Arc<ServerCore>,
        owner: TaskOwner,
        params: Map<String, Value>,
    ) -> Result<Value, RpcError> {
        // The store's position, behind a prefix of the runtime's: a cursor this server did
        // not give is refused as the spec asks, whatever the store would make of it.
        let after = match params.get("cursor") {
            None | Some(Value::Null) => None,
            Some(Value::String(cursor)) => match cursor.strip_prefix(CURSOR_PREFIX) {
                Some(position) => Some(position.to_owned()),
                None => {
                    return Err(RpcError::invalid_params(format!(
                        "Invalid params: the cursor `{cursor}` is not one this server gave."
                    )));
                }
            },
            Some(_) => {
                return Err(RpcError::invalid_params(
                    "Invalid params: `cursor` must be a string.",
                ));
            }
        };
        let page = core
            .tasks
            .store()
            .list(&owner, after.as_deref(), core.page_size)
            .await
            .map_err(|error| {
                tracing::error!(%error, "the task store failed to list tasks");
                RpcError::new(
                    code::INTERNAL_ERROR,
                    "Internal error: the task store is unavailable.",
                )
            })?;
        let tasks: Vec<Value> = page
            .tasks
            .iter()
            .map(|task| Value::Object(wire::task_object(task)))
            .collect();
        let mut result = Map::new();
        result.insert("tasks".into(), tasks.into());
        if let Some(next) = page.next {
            result.insert("nextCursor".into(), format!("{CURSOR_PREFIX}{next}").into());
        }
        Ok(Value::Object(result))
    }

    /// `tasks/cancel`: stops a running task; a finished one stays as it ended (refused under
    /// 2025-11-25; acknowledged under 2026-07-28, whose cancellation is only a request).
    pub async fn cancel(
        core: Arc<ServerCore>,
        owner: TaskOwner,
        version: ProtocolVersion,
        params: Map<String, Value>,
    ) -> Result<Value, RpcError> {
        let id = task_id(&params, "tasks/cancel")?;
        let update = TaskUpdate::Cancelled {
            message: Some("Cancelled at the client's request.".to_owned()),
        };
        match core.tasks.update_owned(&owner, id, update).await? {
            Updated::Applied(record) => Ok(if version.is_stateless() {
                json!({})
            } else {
                Value::Object(wire::task_object(&record))
            }),
            Updated::Refused(_) if version.is_stateless() => Ok(json!({})),
            Updated::Refused(record) => Err(RpcError::invalid_params(format!(
                "Invalid params: task `{id}` cannot be cancelled: it has already {}.",
                finished_word(record.status)
            ))),
            Updated::Unknown => Err(unknown_task(id)),
        }
    }

    /// `tasks/update` (2026-07-28): the client's answers to what the task asked.
    pub async fn update(
        core: Arc<ServerCore>,
        owner: TaskOwner,
        params: Map<String, Value>,
    ) -> Result<Value, RpcError> {
        let id = task_id(&params, "tasks/update")?;
        let Some(Value::Object(responses)) = params.get("inputResponses") else {
            return Err(RpcError::invalid_params(
                "Invalid params: `tasks/update` needs `inputResponses`, an object of answers by key.",
            ));
        };
        if let Some((key, _)) = responses.iter().find(|(_, answer)| !answer.is_object()) {
            return Err(RpcError::invalid_params(format!(
                "Invalid params: `inputResponses.{key}` must be an object."
            )));
        }
        // Answers to nothing the task asks are ignored, as the extension says (kept, they
        // would sit in the store until the task ends).
        let record = core.tasks.get_owned(&owner, id).await?;
        let mut responses = responses.clone();
        if !record.status.is_terminal() {
            responses.retain(|key, _| record.input_requests.contains_key(key));
            if responses.is_empty() {
                return Ok(json!({}));
            }
        }
        let update = TaskUpdate::InputResponses(responses);
        match core.tasks.update_owned(&owner, id, update).await? {
            Updated::Applied(_) => Ok(json!({})),
            Updated::Refused(record) => Err(RpcError::invalid_params(format!(
                "Invalid params: task `{id}` takes no input: it has already {}.",
                finished_word(record.status)
            ))),
            Updated::Unknown => Err(unknown_task(id)),
        }
    }

    fn finished_word(status: TaskStatus) -> &'static str {
        match status {
            TaskStatus::Completed => "completed",
            TaskStatus::Failed => "failed",
            TaskStatus::Cancelled => "been cancelled",
            TaskStatus::Working | TaskStatus::InputRequired => "finished",
        }
    }
}
