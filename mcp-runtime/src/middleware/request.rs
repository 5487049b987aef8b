//! What layers see: a tool call ([`ToolRequest`]), or a read, a prompt or a completion
//! ([`ServedRequest`]), and how the latter fail ([`RequestError`]).

use std::borrow::Cow;
use std::sync::Arc;

use serde_json::{Map, Value};

use crate::context::Context;
use crate::protocol::jsonrpc::{RpcError, code};
use crate::protocol::version::ProtocolVersion;
use crate::tool::hints::ToolHints;

/// One `tools/call` as layers see it: which tool, with which (validated) arguments, for
/// whom. The tool runs with the arguments this holds when the last layer passes it on.
pub struct ToolRequest {
    pub(crate) tool: Arc<dyn ToolFacts>,
    pub(crate) name: Cow<'static, str>,
    pub(crate) arguments: Map<String, Value>,
    pub(crate) context: Context,
    pub(crate) version: ProtocolVersion,
}

impl ToolRequest {
    /// The method: `tools/call`.
    pub fn method(&self) -> &'static str {
        "tools/call"
    }

    /// The tool's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The call's arguments, valid against the tool's input schema.
    pub fn arguments(&self) -> &Map<String, Value> {
        &self.arguments
    }

    /// The call's arguments, to change before the tool gets them. They were validated
    /// before the first layer; what a layer changes is not validated again, so keep them
    /// valid (a value the tool cannot decode fails the call with an invalid-arguments error).
    pub fn arguments_mut(&mut self) -> &mut Map<String, Value> {
        &mut self.arguments
    }

    /// The request's context: its id, the session, the principal
    /// ([`Context::principal`]), progress and log messages.
    pub fn context(&self) -> &Context {
        &self.context
    }

    /// The protocol revision the call is served under.
    pub fn protocol_version(&self) -> ProtocolVersion {
        self.version
    }

    /// Whether the tool says it only reads (`read_only`).
    pub fn is_read_only(&self) -> bool {
        self.tool.hints().read_only == Some(true)
    }

    /// Whether the tool says calling it twice with the same arguments does nothing more
    /// (`idempotent`).
    pub fn is_idempotent(&self) -> bool {
        self.tool.hints().idempotent == Some(true)
    }

    /// Whether the tool says it may destroy data (`destructive`).
    pub fn is_destructive(&self) -> bool {
        self.tool.hints().destructive == Some(true)
    }

    /// Whether the tool has this tag (`tags = [...]`).
    pub fn has_tag(&self, tag: &str) -> bool {
        self.tool.has_tag(tag)
    }

    /// The scopes the tool requires (`scopes = [...]`); the caller holds them all.
    pub fn required_scopes(&self) -> Vec<&str> {
        self.tool.required_scopes()
    }
}

/// What layers may learn of the tool a call is for: what it states of itself. The catalog's
/// tool answers; middleware names no more of it, because the catalog holds each tool's
/// layers and so imports middleware.
pub(crate) trait ToolFacts: Send + Sync {
    /// Its behaviour hints.
    fn hints(&self) -> ToolHints;

    /// Whether it has this tag.
    fn has_tag(&self, tag: &str) -> bool;

    /// The scopes a caller must hold.
    fn required_scopes(&self) -> Vec<&str>;
}

/// A `resources/read`, `prompts/get` or `completion/complete` as layers see it (through
/// [`Layer::serve`](super::Layer::serve)): the method, what it names, its arguments, its
/// context. The user's function has been prepared with these arguments already, so they
/// are read-only here.
pub struct ServedRequest {
    pub(crate) method: &'static str,
    pub(crate) name: String,
    pub(crate) arguments: Map<String, Value>,
    pub(crate) context: Context,
    pub(crate) version: ProtocolVersion,
}

impl ServedRequest {
    /// The method: `resources/read`, `prompts/get` or `completion/complete`.
    pub fn method(&self) -> &'static str {
        self.method
    }

    /// What the request names: the resource's URI, the prompt's name, or for a completion
    /// the prompt's name or the template's URI.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Its arguments: a prompt's arguments, a template's variables, or for a completion
    /// `{"argument": name, "value": partial}`.
    pub fn arguments(&self) -> &Map<String, Value> {
        &self.arguments
    }

    /// The request's context: its id, the principal ([`Context::principal`]), progress and
    /// log messages.
    pub fn context(&self) -> &Context {
        &self.context
    }

    /// The protocol revision the request is served under.
    pub fn protocol_version(&self) -> ProtocolVersion {
        self.version
    }
}

/// How a read, a prompt or a completion failed, as its JSON-RPC error: a code and a
/// message. Layers get it from [`Next::run`](super::Next::run) and may return their own.
#[derive(Clone, Debug, PartialEq)]
pub struct RequestError(pub(crate) RpcError);

impl RequestError {
    /// An error with this JSON-RPC code and message.
    pub fn new(code: i64, message: impl Into<String>) -> Self {
        RequestError(RpcError::new(code, message))
    }

    /// `-32600`: the request may not be served (e.g. refused by a layer).
    pub fn invalid_request(message: impl Into<String>) -> Self {
        RequestError::new(code::INVALID_REQUEST, message)
    }

    /// `-32602`: something in the request's parameters is wrong.
    pub fn invalid_params(message: impl Into<String>) -> Self {
        RequestError::new(code::INVALID_PARAMS, message)
    }

    /// `-32603`: serving it failed.
    pub fn internal(message: impl Into<String>) -> Self {
        RequestError::new(code::INTERNAL_ERROR, message)
    }

    /// The JSON-RPC error code.
    pub fn code(&self) -> i64 {
        self.0.code
    }

    /// The message the client reads.
    pub fn message(&self) -> &str {
        &self.0.message
    }
}

impl std::fmt::Display for RequestError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} ({})", self.0.message, self.0.code)
    }
}

impl std::error::Error for RequestError {}
