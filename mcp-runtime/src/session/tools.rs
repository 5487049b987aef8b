//! `tools/list` and `tools/call`: the request read and checked (the tool looked up, its
//! arguments decoded for it by `tool::arguments` and validated, its context readied), then
//! handed to the call pipeline (`call`).

use std::sync::Arc;
use std::time::Duration;

use serde_json::{Map, Value};

use super::body::Body;
use super::call::{
    CallSlots, Guards, LayeredWork, ResultShaping, ToolCallPipeline, ToolWork, invoke,
};
use super::reply::Answer;
use super::{Era, Session};
use crate::access::refusal_message;
use crate::context::Context;
use crate::middleware::ToolRequest;
use crate::protocol::cursor;
use crate::protocol::jsonrpc::{MetaMember, Params, RequestId, RpcError, StringMember};
use crate::protocol::outbox::Outbox;
use crate::protocol::version::ProtocolVersion;
use crate::tool::arguments::ToolArguments;
use crate::tool::catalog::Catalog;
use crate::tool::extract::CallContext;
use crate::tool::result::CallToolResult;
use crate::tool::shape::ShapedResult;

impl Session {
    pub(super) fn list_tools(
        &self,
        version: ProtocolVersion,
        params: &Map<String, Value>,
    ) -> Result<Body, RpcError> {
        let cursor = cursor::from_params(params)?;
        let catalog = self.core.tools.catalog();
        // The scopes the caller holds, when the listing leaves out what it may not call.
        let permitted = (self.core.access.hide_forbidden_tools && catalog.has_scoped_tools())
            .then(|| self.core.access.granted(self.principal.as_ref()));
        let page = Catalog::page(catalog, version, cursor, self.core.page_size, permitted)?;
        Ok(Body::Page {
            page,
            // What `insert_cache_hints` adds to the other lists.
            ttl_ms: version.is_stateless().then_some(self.core.list_ttl_ms),
            // Added by `Body::decorated`, as to every 2026-07-28 result.
            server_info: None,
        })
    }

    pub(super) fn call_tool(
        &mut self,
        era: Era,
        version: ProtocolVersion,
        id: &RequestId,
        params: Params<'_>,
        related: &Outbox,
    ) -> Answer {
        let Params {
            name,
            arguments,
            meta,
            others: params,
        } = params;
        let mut meta = meta.and_then(MetaMember::into_object);
        let name = match name {
            Some(StringMember::Text(name)) => name,
            Some(StringMember::Other(_)) => {
                return Answer::Ready(Err(RpcError::invalid_params(
                    "Invalid params: `name` must be a string.",
                )));
            }
            None => {
                return Answer::Ready(Err(RpcError::invalid_params(
                    "Invalid params: `tools/call` needs the tool's `name`.",
                )));
            }
        };
        let catalog = self.core.tools.seen(&mut self.tools_seen);
        let Some(tool) = catalog.get(&name).cloned() else {
            return Answer::Ready(Err(RpcError::invalid_params(format!(
                "Unknown tool: {name}"
            ))));
        };
        // The catalog's copy of the name: shared, where the request's may be borrowed.
        let name = tool.shared_name();
        let task = match self.task_request(
            era,
            version,
            &name,
            tool.policy().task,
            &params,
            meta.as_ref(),
        ) {
            Ok(task) => task.map(|task| {
                let owner = self.task_owner(era);
                self.core.tasks.new_record(owner, version, &name, task.ttl)
            }),
            Err(error) => return Answer::Ready(Err(error)),
        };
        // Decoded by the tool's own shape; refused (not an object) only after the checks
        // above, which answer first.
        let shape = tool.argument_shape(&self.core.layers);
        let arguments = ToolArguments::decode(shape, arguments);
        // A task asks through itself, unless the tool asks for its input first.
        let input_before_task = task.is_some() && tool.policy().input_before_task;
        let round = match &task {
            Some(_) if !input_before_task => None,
            _ => match self.input_round(era, name.clone(), &params) {
                Ok(round) => round,
                Err(error) => return Answer::Ready(Err(error)),
            },
        };
        let arguments = match arguments {
            Ok(arguments) => arguments,
            Err(error) => return Answer::Ready(Err(error)),
        };
        let wraps_output = tool.wraps_output();
        // Refused before the tool runs: a caller without the tool's scopes (HTTP answers
        // 403 before this; stdio and in-process clients get the `isError`), or invalid
        // arguments.
        let missing = self
            .core
            .access
            .missing(tool.scopes(), self.principal.as_ref());
        let (arguments, refused) = if !missing.is_empty() {
            let refused = refusal_message(
                &format!("Tool `{name}`"),
                &missing,
                self.principal.is_some(),
            );
            (arguments, Err(refused))
        } else {
            match arguments {
                ToolArguments::Map(mut arguments) => {
                    tool.drop_null_optionals(&mut arguments);
                    let arguments = Value::Object(arguments);
                    let checked = tool.validate_arguments(&arguments).map_err(|problems| {
                        format!("Invalid arguments for tool `{name}`: {problems}")
                    });
                    let Value::Object(arguments) = arguments else {
                        unreachable!("arguments were built as an object")
                    };
                    (ToolArguments::Map(arguments), checked)
                }
                typed @ ToolArguments::Typed(_) => (typed, Ok(())),
            }
        };
        if let Err(message) = refused {
            let result = CallToolResult::error(message);
            let result = Body::ToolResult(ShapedResult::new(result, version, wraps_output));
            return match task {
                // The client asked for a task, so it gets one, finished at once.
                Some(record) => {
                    self.start_task(record, version, Box::pin(async { result }), None, None)
                }
                None => Answer::Ready(Ok(result)),
            };
        }
        let tool_timeout = tool.policy().timeout_ms.map(Duration::from_millis);
        let admission = self.core.rate_limits.admission(tool.rate_limiter.clone());
        let (tool_slots, layers) = (tool.slots.clone(), tool.layers(&self.core.layers));
        let forward_tracing = self.core.forward_tracing;
        // The handle the transport cancels the call by, once its context is made.
        let mut request = None;
        let mut make_context = || {
            let client = match &task {
                Some(record) => self.task_client(era, record, round.as_ref()),
                None => self.client_link(&round),
            };
            let info = self.request_info(era, version, id, name.clone(), meta.as_mut(), client);
            // A task's messages outlive the request's stream: they go where messages
            // unrelated to a request go (2025-11-25), or nowhere (2026-07-28 has no stream
            // for them).
            let outbox = match (&task, era) {
                (None, _) => related.clone(),
                (Some(_), Era::Stateless(_)) => Outbox::discarding(),
                (Some(_), _) => self.background.clone().unwrap_or_else(|| related.clone()),
            };
            let (context, handle) = Context::new(info, outbox);
            request = Some(handle);
            context
        };
        // A layer, a task and forwarded `tracing` need the context before the call; else it
        // is made when a parameter asks for it.
        let work = if !layers.is_empty() {
            let ToolArguments::Map(arguments) = arguments else {
                unreachable!("a tool with layers has no argument shape, so no typed decoding")
            };
            ToolWork::Layered(Box::new(LayeredWork {
                layers: Arc::clone(layers),
                call: ToolRequest {
                    name: name.clone(),
                    tool: tool.clone(),
                    arguments,
                    context: make_context(),
                    version,
                },
                tool,
                states: Arc::clone(&self.core.states),
                forward_tracing,
            }))
        } else {
            let context = if task.is_some() || forward_tracing {
                CallContext::Made(make_context())
            } else {
                CallContext::on_request(&name, &mut make_context)
            };
            let running = invoke(
                &tool,
                arguments,
                context,
                &self.core.states,
                forward_tracing,
            );
            ToolWork::Direct(running)
        };
        // A task is meant to outlive a call's time limit: only the tool's own applies.
        let timeout = if task.is_some() {
            tool_timeout
        } else {
            tool_timeout.or(self.core.call_timeout)
        };
        let guards = Guards {
            admission,
            slots: CallSlots::new(tool_slots, Arc::clone(&self.core.call_slots)),
            timeout,
            cancel_on_timeout: timeout.and_then(|_| request.clone()),
        };
        let shaping = ResultShaping {
            name,
            version,
            wraps_output,
            round: round.clone(),
            mask_errors: self.core.mask_error_details,
            in_task: task.is_some(),
        };
        let call = ToolCallPipeline::new(work, guards, shaping);
        match task {
            Some(record) => self.start_task(record, version, Box::pin(call), request, round),
            // The transport polls it once where it stands, and spawns it if it is not done.
            None => Answer::Pending {
                result: Box::pin(call),
                request,
                server_info: None,
            },
        }
    }
}
