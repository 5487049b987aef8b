//! Running the user's function behind a `resources/read`, a `prompts/get` or a
//! `completion/complete` with the same guards as a tool call: a server-wide slot, the
//! server's time limit, panics caught, and under 2026-07-28 stopped with `input_required`
//! when it asks the client for input not given yet. Their outcomes become results or
//! JSON-RPC errors (these methods have no `isError`).

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use serde_json::{Map, Value};

use super::call::{Guarded, describe_duration, panic_message, run_guarded};
use super::reply::Body;
use super::{Era, Session};
use crate::context::client_requests::InputRound;
use crate::context::{Context, RequestHandle};
use crate::protocol::jsonrpc::{RequestId, RpcError, code};
use crate::protocol::outbox::Outbox;
use crate::protocol::version::ProtocolVersion;
use crate::tool::result::ToolError;

/// What the user's function is serving, for messages and logs: "resource `docs://readme`".
pub(super) struct Served {
    pub what: String,
    pub mask_errors: bool,
}

impl Served {
    /// The error for a function that failed with `message`: shown as it is when `public`
    /// or when the server does not mask details; otherwise logged, and the client told only
    /// that it failed.
    pub fn failure(&self, message: &str, public: bool) -> RpcError {
        if self.mask_errors && !public {
            tracing::error!(what = %self.what, error = %message, "a read failed (details masked from the client)");
            return RpcError::new(
                code::INTERNAL_ERROR,
                format!(
                    "{} failed. The details were logged on the server.",
                    capitalized(&self.what)
                ),
            );
        }
        RpcError::new(
            code::INTERNAL_ERROR,
            format!("{} failed: {message}", capitalized(&self.what)),
        )
    }
}

fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_uppercase().chain(chars).collect()
    })
}

/// A request's context for the function, and what runs it under 2026-07-28.
pub(super) struct Prepared {
    pub context: Context,
    pub request: RequestHandle,
    pub round: Option<Arc<InputRound>>,
}

impl Session {
    /// The context of a read, a prompt or a completion: as a tool call's, named `name`.
    pub(super) fn served_context(
        &self,
        era: Era,
        version: ProtocolVersion,
        id: &RequestId,
        name: String,
        params: &Map<String, Value>,
        related: &Outbox,
    ) -> Result<Prepared, RpcError> {
        let (round, client) = self.client_link(era, &name, params)?;
        let info = self.request_info(era, version, id, name.into(), params, client);
        let (context, request) = Context::new(info, related.clone());
        Ok(Prepared {
            context,
            request,
            round,
        })
    }

    /// Runs `running` under the server's guards; `finish` turns its output into the result.
    pub(super) fn run_served<T: Send + 'static>(
        &self,
        served: Served,
        prepared: Prepared,
        running: Pin<Box<dyn Future<Output = T> + Send>>,
        finish: impl FnOnce(&Served, T) -> Result<Body, RpcError> + Send + 'static,
    ) -> Pin<Box<dyn Future<Output = Body> + Send>> {
        let slots = Arc::clone(&self.core.call_slots);
        let timeout = self.core.call_timeout;
        let Prepared { request, round, .. } = prepared;
        Box::pin(async move {
            let outcome = run_guarded(running, round, None, slots, timeout).await;
            let body = match outcome {
                Guarded::Finished(output) => finish(&served, output).unwrap_or_else(Body::Failure),
                Guarded::NeedsInput(round) => Body::Json(round.input_required_result()),
                Guarded::Panicked(panic) => Body::Failure(panicked(&served, panic)),
                Guarded::TimedOut(limit) => {
                    request.cancel();
                    tracing::warn!(what = %served.what, ?limit, "timed out");
                    Body::Failure(RpcError::new(
                        code::INTERNAL_ERROR,
                        format!(
                            "{} timed out after {} and was stopped.",
                            capitalized(&served.what),
                            describe_duration(limit)
                        ),
                    ))
                }
            };
            request.finish();
            body
        })
    }
}

/// A panic with a [`ToolError`] is public; any other is logged, its message kept back.
fn panicked(served: &Served, panic: Box<dyn std::any::Any + Send>) -> RpcError {
    match panic.downcast::<ToolError>() {
        Ok(public) => served.failure(public.message(), true),
        Err(panic) => {
            let message = panic_message(panic.as_ref());
            tracing::error!(what = %served.what, panic = %message, "panicked");
            RpcError::new(
                code::INTERNAL_ERROR,
                format!("{} failed: it panicked.", capitalized(&served.what)),
            )
        }
    }
}
