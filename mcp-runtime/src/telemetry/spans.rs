//! The span and the clock of one request, as the MCP semantic conventions describe the server
//! side: a `tracing` span (so a tool's own spans and events nest under it) that
//! tracing-opentelemetry turns into a SERVER span named `{mcp.method.name} {target}`, whose
//! parent is the trace context the client sent. When the request is answered the span ends
//! and `mcp.server.operation.duration` is recorded with the same attributes.

use std::borrow::Cow;
use std::fmt;
use std::sync::Arc;
use std::time::Instant;

use opentelemetry::trace::{Status, TraceContextExt as _};
use opentelemetry::{Context, KeyValue};
use serde_json::Value;
use tracing::Span;
use tracing::span::EnteredSpan;
use tracing_opentelemetry::OpenTelemetrySpanExt as _;

use super::attributes as key;
use super::metrics::Metrics;
use super::propagation;
use crate::protocol::meta::RequestMeta;
use crate::protocol::version::ProtocolVersion;

/// How a connection's messages travel (`network.transport`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Transport {
    /// stdio (and in-process connections): `pipe`.
    Pipe,
    /// Streamable HTTP: `tcp`.
    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    Tcp,
}

impl Transport {
    fn as_str(self) -> &'static str {
        match self {
            Transport::Pipe => "pipe",
            Transport::Tcp => "tcp",
        }
    }

    /// `network.protocol.name`, where there is one.
    fn protocol(self) -> Option<&'static str> {
        match self {
            Transport::Pipe => None,
            Transport::Tcp => Some("http"),
        }
    }
}

/// What one connection (stdio) or session (HTTP) tells the spans of its requests, and how
/// long it has lived.
#[derive(Debug)]
pub(crate) struct Connection {
    transport: Transport,
    /// The HTTP session's id (handshake era); stdio and 2026-07-28 requests have none.
    session_id: Option<Arc<str>>,
    /// The trace context of the HTTP request carrying the message being handled.
    http_parent: Option<Context>,
    started: Instant,
    ended: bool,
}

impl Connection {
    pub(crate) fn new() -> Connection {
        Connection {
            transport: Transport::Pipe,
            session_id: None,
            http_parent: None,
            started: Instant::now(),
            ended: false,
        }
    }

    /// The messages handled next came in an HTTP request with these headers, in the session
    /// with this id (none for 2026-07-28 and `initialize`).
    #[cfg(feature = "http")]
    pub(crate) fn http(&mut self, headers: &axum::http::HeaderMap, session_id: Option<&str>) {
        self.transport = Transport::Tcp;
        if self.session_id.as_deref() != session_id {
            self.session_id = session_id.map(Arc::from);
        }
        self.http_parent = propagation::from_headers(headers);
    }

    /// Records `mcp.server.session.duration`, once.
    pub(crate) fn ended(&mut self, metrics: &Metrics, version: Option<ProtocolVersion>) {
        if std::mem::replace(&mut self.ended, true) {
            return;
        }
        let mut attributes = vec![KeyValue::new(key::TRANSPORT, self.transport.as_str())];
        if let Some(protocol) = self.transport.protocol() {
            attributes.push(KeyValue::new(key::PROTOCOL_NAME, protocol));
        }
        if let Some(version) = version {
            attributes.push(KeyValue::new(key::PROTOCOL_VERSION, version.as_str()));
        }
        metrics.session_ended(self.started.elapsed().as_secs_f64(), &attributes);
    }
}

/// What a request names, for its span's name and attributes. `known` is the catalog's
/// copy of the name when the tool or prompt exists: only a known name goes into the span's
/// name and the metrics, whose cardinality a client must not be able to blow up.
pub(crate) enum Target<'a> {
    None,
    Tool {
        name: &'a str,
        known: Option<Cow<'static, str>>,
    },
    Prompt {
        name: &'a str,
        known: Option<Cow<'static, str>>,
    },
    Resource(&'a str),
}

/// Everything known about a request when it arrives.
pub(crate) struct Arrival<'a> {
    pub id: &'a Value,
    pub method: &'a str,
    pub target: Target<'a>,
    /// The request's `params._meta`.
    pub meta: Option<&'a RequestMeta>,
}

/// How a request ended.
pub(crate) enum Outcome<'a> {
    Success,
    /// A JSON-RPC error response.
    Error {
        code: i64,
        message: &'a str,
    },
    /// A tool result with `isError`.
    ToolError,
    /// Dropped before it was answered: cancelled, or its connection closed.
    Cancelled,
}

/// A request being served, its span entered: the dispatcher works inside it.
pub(crate) struct Started {
    entered: EnteredSpan,
    request: Request,
}

impl Started {
    /// The dispatcher is done with the request; its answer may still be on the way.
    pub(crate) fn exit(self) -> Request {
        drop(self.entered);
        self.request
    }
}

/// A request until it is answered: its span, its clock, the attributes of its metrics.
/// Dropped unanswered, it ends as [`Outcome::Cancelled`].
pub(crate) struct Request {
    span: Span,
    started: Instant,
    method: &'static str,
    /// `gen_ai.tool.name` or `gen_ai.prompt.name`, for the metrics: known names only.
    named: Option<(&'static str, Cow<'static, str>)>,
    execute_tool: bool,
    version: Option<&'static str>,
    transport: Transport,
    metrics: Metrics,
    finished: bool,
}

impl Request {
    /// Opens the request's span and enters it, starts its clock, and counts it as active.
    pub(crate) fn start(
        arrival: Arrival<'_>,
        connection: &Connection,
        metrics: &Metrics,
    ) -> Started {
        let started = Instant::now();
        let method = known_method(arrival.method);
        let (tool, prompt, uri, known) = match arrival.target {
            Target::None => (None, None, None, None),
            Target::Tool { name, known } => {
                (Some(name), None, None, known.map(|k| (key::TOOL_NAME, k)))
            }
            Target::Prompt { name, known } => {
                (None, Some(name), None, known.map(|k| (key::PROMPT_NAME, k)))
            }
            Target::Resource(uri) => (None, None, Some(uri), None),
        };
        let execute_tool = method == "tools/call";
        let span = tracing::info_span!(
            "mcp.request",
            otel.name = %SpanName(method, known.as_ref().map(|(_, name)| &**name)),
            otel.kind = "server",
            mcp.method.name = method,
            jsonrpc.request.id = %IdText(arrival.id),
            gen_ai.tool.name = tool,
            gen_ai.prompt.name = prompt,
            gen_ai.operation.name = execute_tool.then_some("execute_tool"),
            mcp.resource.uri = uri,
            mcp.session.id = connection.session_id.as_deref(),
            network.transport = connection.transport.as_str(),
            network.protocol.name = connection.transport.protocol(),
        );
        if !span.is_disabled() {
            adopt_parent(&span, arrival.meta, connection);
        }
        metrics.operation_started(method);
        let request = Request {
            span: span.clone(),
            started,
            method,
            named: known,
            execute_tool,
            version: arrival
                .meta
                .and_then(|meta| meta.get(crate::protocol::meta::PROTOCOL_VERSION))
                .and_then(Value::as_str)
                .and_then(ProtocolVersion::parse)
                .map(ProtocolVersion::as_str),
            transport: connection.transport,
            metrics: metrics.clone(),
            finished: false,
        };
        Started {
            entered: span.entered(),
            request,
        }
    }

    /// The revision the request is served under, once the dispatcher knows it: the one its
    /// `_meta` names (2026-07-28), else the one `initialize` negotiated.
    pub(crate) fn served_under(&mut self, negotiated: Option<ProtocolVersion>) {
        if self.version.is_none() {
            self.version = negotiated.map(ProtocolVersion::as_str);
        }
    }

    /// The request's span, for the work still to come (`Answer::Pending`).
    pub(crate) fn span(&self) -> &Span {
        &self.span
    }

    /// The request was answered: its span ends, its duration is recorded.
    pub(crate) fn finish(mut self, outcome: Outcome<'_>) {
        self.record(outcome);
    }

    fn record(&mut self, outcome: Outcome<'_>) {
        self.finished = true;
        let seconds = self.started.elapsed().as_secs_f64();
        let span = &self.span;
        if let Some(version) = self.version {
            span.set_attribute(key::PROTOCOL_VERSION, version);
        }
        let mut attributes = Vec::with_capacity(8);
        attributes.push(KeyValue::new(key::METHOD, self.method));
        if let Some((name_key, name)) = &self.named {
            attributes.push(KeyValue::new(*name_key, name.clone()));
        }
        if self.execute_tool {
            attributes.push(KeyValue::new(key::OPERATION_NAME, "execute_tool"));
        }
        if let Some(version) = self.version {
            attributes.push(KeyValue::new(key::PROTOCOL_VERSION, version));
        }
        attributes.push(KeyValue::new(key::TRANSPORT, self.transport.as_str()));
        if let Some(protocol) = self.transport.protocol() {
            attributes.push(KeyValue::new(key::PROTOCOL_NAME, protocol));
        }
        match outcome {
            Outcome::Success => {}
            Outcome::Error { code, message } => {
                let code = code.to_string();
                mark_error(span, code.clone(), message);
                span.set_attribute(key::STATUS_CODE, code.clone());
                attributes.push(KeyValue::new(key::ERROR_TYPE, code.clone()));
                attributes.push(KeyValue::new(key::STATUS_CODE, code));
            }
            Outcome::ToolError => {
                mark_error(
                    span,
                    "tool_error".to_owned(),
                    "the tool reported an error (isError)",
                );
                attributes.push(KeyValue::new(key::ERROR_TYPE, "tool_error"));
            }
            Outcome::Cancelled => {
                mark_error(span, "cancelled".to_owned(), "the request was not answered");
                attributes.push(KeyValue::new(key::ERROR_TYPE, "cancelled"));
            }
        }
        self.metrics
            .operation_ended(self.method, seconds, &attributes);
    }
}

impl Drop for Request {
    fn drop(&mut self) {
        if !self.finished {
            self.record(Outcome::Cancelled);
        }
    }
}

/// `error.type` on a span, and the ERROR status with the error's message.
pub(crate) fn mark_error(span: &Span, error_type: String, message: &str) {
    if span.is_disabled() {
        return;
    }
    span.set_attribute(key::ERROR_TYPE, error_type);
    span.set_status(Status::error(message.to_owned()));
}

/// The span of a call that runs as a task, once its request is answered: an INTERNAL
/// `execute_tool {tool}` span (the GenAI conventions' tool execution span) whose parent is
/// the current span, the request's. It is a span of its own, not the request's, so the
/// request's span ends with its answer (the created task) while the work goes on.
pub(crate) fn task_span(tool: &str, task_id: &str) -> Span {
    let span = tracing::info_span!(
        parent: None,
        "mcp.task",
        otel.name = %ToolSpanName(tool),
        otel.kind = "internal",
        gen_ai.operation.name = "execute_tool",
        gen_ai.tool.name = tool,
        mcp.task.id = task_id,
    );
    if !span.is_disabled() {
        let _ = span.set_parent(Span::current().context());
    }
    span
}

/// The request's remote parent: the trace context in its `_meta`, else its HTTP request's.
/// The context the span would otherwise have had (the HTTP request's, an application's
/// span around the endpoint) is linked, as the conventions ask.
fn adopt_parent(span: &Span, meta: Option<&RequestMeta>, connection: &Connection) {
    let from_meta = propagation::from_meta(meta);
    let parent = from_meta.clone().or_else(|| connection.http_parent.clone());
    let Some(parent) = parent else {
        return;
    };
    if from_meta.is_some()
        && let Some(http) = &connection.http_parent
    {
        span.add_link(http.span().span_context().clone());
    }
    let ambient = Span::current();
    if !ambient.is_none() {
        let ambient = ambient.context().span().span_context().clone();
        if ambient.is_valid() {
            span.add_link(ambient);
        }
    }
    let _ = span.set_parent(parent);
}

/// The method as the metrics name it: one the runtime knows, else `_OTHER`, so a client
/// sending made-up methods cannot make new series.
fn known_method(method: &str) -> &'static str {
    const KNOWN: [&str; 20] = [
        "initialize",
        "ping",
        "tools/list",
        "tools/call",
        "resources/list",
        "resources/templates/list",
        "resources/read",
        "resources/subscribe",
        "resources/unsubscribe",
        "prompts/list",
        "prompts/get",
        "completion/complete",
        "logging/setLevel",
        "tasks/get",
        "tasks/result",
        "tasks/list",
        "tasks/cancel",
        "tasks/update",
        "server/discover",
        "subscriptions/listen",
    ];
    KNOWN
        .iter()
        .find(|known| **known == method)
        .copied()
        .unwrap_or("_OTHER")
}

/// `{mcp.method.name} {target}`, or the method alone.
struct SpanName<'a>(&'static str, Option<&'a str>);

impl fmt::Display for SpanName<'_> {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.1 {
            Some(target) => write!(formatter, "{} {target}", self.0),
            None => formatter.write_str(self.0),
        }
    }
}

struct ToolSpanName<'a>(&'a str);

impl fmt::Display for ToolSpanName<'_> {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(formatter, "execute_tool {}", self.0)
    }
}

/// A request id as the conventions write it: a string as itself, a number in decimal.
struct IdText<'a>(&'a Value);

impl fmt::Display for IdText<'_> {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Value::String(text) => formatter.write_str(text),
            other => write!(formatter, "{other}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_methods_are_other() {
        assert_eq!(known_method("tools/call"), "tools/call");
        assert_eq!(known_method("subscriptions/listen"), "subscriptions/listen");
        assert_eq!(known_method("tools/cal"), "_OTHER");
    }

    #[test]
    fn names_and_ids_are_written_as_the_conventions_say() {
        assert_eq!(
            SpanName("tools/call", Some("add")).to_string(),
            "tools/call add"
        );
        assert_eq!(SpanName("tools/list", None).to_string(), "tools/list");
        assert_eq!(IdText(&serde_json::json!("req-7")).to_string(), "req-7");
        assert_eq!(IdText(&serde_json::json!(10)).to_string(), "10");
    }
}
