//! Running the user's function behind a `resources/read`, a `prompts/get` or a
//! `completion/complete` with the same guards as a tool call: a server-wide slot, the
//! server's time limit, panics caught, and under 2026-07-28 stopped with `input_required`
//! when it asks the client for input not given yet. Their outcomes become results or
//! JSON-RPC errors (these methods have no `isError`).

use std::borrow::Cow;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use serde_json::{Map, Value};

use super::body::Body;
use super::call::{CallSlots, Guarded, describe_duration, panic_message, run_guarded};
use super::{Era, Session};
use crate::context::client_requests::InputRound;
use crate::context::{Context, RequestHandle};
use crate::middleware::{RequestError, ServedFuture, ServedRequest, SharedLayer, run_chain};
use crate::protocol::jsonrpc::{RequestId, RpcError, code};
use crate::protocol::meta::RequestMeta;
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
    /// The context of a read, a prompt or a completion: as a tool call's, named `name`,
    /// from the request's `params` and, apart, its `_meta`.
    pub(super) fn served_context(
        &self,
        era: Era,
        version: ProtocolVersion,
        id: &RequestId,
        name: String,
        (params, meta): (&Map<String, Value>, Option<&mut RequestMeta>),
        related: &Outbox,
    ) -> Result<Prepared, RpcError> {
        let name: Cow<'static, str> = Cow::Owned(name);
        let round = self.input_round(era, name.clone(), params)?;
        let client = self.client_link(&round);
        let info = self.request_info(era, version, id, name, meta, client);
        let (context, request) = Context::new(info, related.clone());
        Ok(Prepared {
            context,
            request,
            round,
        })
    }

    /// The request as layers see it, made only when the server has layers: the method,
    /// what it names, and its arguments (made by `arguments`).
    pub(super) fn served_request(
        &self,
        method: &'static str,
        name: &str,
        arguments: impl FnOnce() -> Map<String, Value>,
    ) -> Option<Layered> {
        let layers = self.core.layers.served();
        (!layers.is_empty()).then(|| Layered {
            layers: Arc::clone(layers),
            method,
            name: name.to_owned(),
            arguments: arguments(),
        })
    }

    /// Runs `running` under the server's guards, inside the server's layers when `layered`;
    /// `finish` turns its output into the result.
    pub(super) fn run_served<T: Send + 'static>(
        &self,
        served: Served,
        prepared: Prepared,
        layered: Option<Layered>,
        running: Pin<Box<dyn Future<Output = T> + Send>>,
        finish: impl FnOnce(&Served, T) -> Result<Body, RpcError> + Send + 'static,
    ) -> Pin<Box<dyn Future<Output = Body> + Send>> {
        let slots = Arc::clone(&self.core.call_slots);
        let timeout = self.core.call_timeout;
        let Prepared {
            request,
            round,
            context,
        } = prepared;
        let version = context.protocol_version();
        Box::pin(async move {
            // Finished by the reply once the result is ready, as every request is.
            let handle = request;
            let what = served.what.clone();
            let guarded = async move {
                let outcome =
                    run_guarded(running, round, CallSlots::new(None, slots), timeout).await;
                match outcome {
                    Guarded::Finished(output) => {
                        finish(&served, output).unwrap_or_else(Body::Failure)
                    }
                    Guarded::NeedsInput(round) => Body::Json(round.input_required_result()),
                    Guarded::Panicked(panic) => Body::Failure(panicked(&served, panic)),
                    Guarded::Busy(busy) => {
                        tracing::warn!(what = %served.what, "refused: {}", busy.message());
                        Body::Failure(RpcError::new(code::INTERNAL_ERROR, busy.message()))
                    }
                    Guarded::TimedOut(limit) => {
                        handle.cancel();
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
                }
            };
            match layered {
                None => guarded.await,
                Some(Layered {
                    layers,
                    method,
                    name,
                    arguments,
                }) => {
                    let served_request = ServedRequest {
                        method,
                        name,
                        arguments,
                        context,
                        version,
                    };
                    let innermost = Box::new(move |_: ServedRequest| {
                        Box::pin(async move { into_outcome(guarded.await) }) as ServedFuture
                    });
                    let outcome = run_chain(layers, served_request, innermost, |panic| {
                        let message = panic_message(panic.as_ref());
                        tracing::error!(what = %what, panic = %message, "a layer panicked");
                        Err(RequestError(RpcError::new(
                            code::INTERNAL_ERROR,
                            format!("{} failed: it panicked.", capitalized(&what)),
                        )))
                    })
                    .await;
                    match outcome {
                        Ok(result) => Body::Json(result),
                        Err(RequestError(error)) => Body::Failure(error),
                    }
                }
            }
        })
    }
}

/// A read, a prompt or a completion as the server's layers will see it.
pub(super) struct Layered {
    layers: Arc<[SharedLayer]>,
    method: &'static str,
    name: String,
    arguments: Map<String, Value>,
}

/// A served request's answer as layers see it: its JSON result, or its error.
fn into_outcome(body: Body) -> Result<Value, RequestError> {
    match body {
        Body::Json(result) => Ok(result),
        Body::Failure(error) => Err(RequestError(error)),
        other => serde_json::to_value(&other)
            .map_err(|error| RequestError(RpcError::new(code::INTERNAL_ERROR, error.to_string()))),
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
