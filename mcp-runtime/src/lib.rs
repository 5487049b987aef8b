#![doc = include_str!("manual.md")]
#![deny(missing_docs)]

mod blocking;
mod catalog;
#[cfg(feature = "cli")]
mod cli;
#[cfg(any(feature = "cli", feature = "testing"))]
// The command line uses only part of what `testing::TestClient` offers.
#[cfg_attr(not(feature = "testing"), allow(dead_code))]
mod client;
mod client_log_layer;
mod client_requests;
mod connection;
mod content;
mod context;
mod error;
mod extract;
mod frames;
#[cfg(feature = "http")]
mod http;
mod invoke;
mod jsonrpc;
mod outbox;
mod rate_limit;
mod registry;
mod result;
pub mod sanitize;
mod schema;
mod server;
mod session;
mod shape;
mod stdio;
#[cfg(feature = "testing")]
pub mod testing;
mod tool_set;
mod version;

#[doc(hidden)]
#[path = "private.rs"]
pub mod __private;

/// The README's Rust examples, compiled as doc tests so they stay true. (One of them uses
/// `testing`, which the workspace's test crates turn on.)
#[cfg(all(doctest, feature = "testing"))]
#[doc = include_str!("../../README.md")]
struct ReadmeExamples;

pub use client_log_layer::ClientLogLayer;
pub use client_requests::{
    ClientRequestError, Elicitation, Root, SamplingRequest, SamplingResponse,
};
pub use content::{
    Annotations, Content, ContentBody, EmbeddedResource, ResourceContents, ResourceLink, Role,
};
pub use context::{Context, LogLevel};
pub use error::Error;
pub use extract::{Extract, Principal, Rejection, State, States, ToolCall};
#[cfg(feature = "http")]
pub use http::{
    AuthRejection, Authenticate, DEFAULT_ENDPOINT, DEFAULT_SESSION_IDLE_TIMEOUT, DEFAULT_SSE_RETRY,
    HeaderMap, HttpServer, ProtectedResource, bearer_token,
};
pub use mcp_macros::mcp_tool;
pub use rate_limit::{ParseRateError, Rate, RateLimitMode};
pub use registry::{SourceLocation, ToolHints};
pub use result::{CallToolResult, IntoCallToolResult, Json, ToolError};
pub use server::{
    DEFAULT_CLIENT_REQUEST_TIMEOUT, DEFAULT_LIST_TTL, DEFAULT_MAX_IN_FLIGHT,
    DEFAULT_MAX_MESSAGE_SIZE, DEFAULT_PAGE_SIZE, DEFAULT_SHUTDOWN_GRACE, Server,
};
pub use tool_set::{DynamicTool, ToolSet};
pub use version::ProtocolVersion;
