#![doc = include_str!("../docs/overview.md")]
#![deny(missing_docs)]

// The modules are layers, each meant to use only those below it: ARCHITECTURE.md draws them
// and follows one `tools/call` through them, and `bash scripts/import-circles.sh` lists the
// files that still reach back.
mod access;
pub mod apps;
mod backoff;
mod changes;
mod completion;
mod content;
mod context;
mod error;
#[cfg(feature = "http")]
pub mod fleet;
mod icon;
mod json_schema;
mod location;
pub mod middleware;
mod prompt;
mod protocol;
mod registry;
mod resource;
pub mod sanitize;
mod server;
mod session;
mod skill;
pub mod task;
#[cfg(feature = "otel")]
pub mod telemetry;
mod tool;
mod transport;

// The in-process client: the command line uses only part of what `testing::TestClient`
// offers.
#[cfg(any(feature = "cli", feature = "testing"))]
#[cfg_attr(not(feature = "testing"), allow(dead_code))]
mod client;
#[cfg(feature = "testing")]
pub mod testing;

#[doc(hidden)]
#[path = "private.rs"]
pub mod __private;

pub mod manual;

/// The READMEs' Rust examples (the quick start), compiled as doc tests so they stay true,
/// and without a warning, since a reader copies them first.
#[cfg(doctest)]
#[doc(test(attr(deny(warnings))))]
#[doc = include_str!("../../README.md")]
#[doc = include_str!("../README.md")]
struct ReadmeExamples;

pub use changes::Notifier;
pub use completion::Completing;
pub use content::{
    Annotations, Content, ContentBody, EmbeddedResource, ResourceContents, ResourceLink, Role,
};
pub use context::client_requests::{
    ClientRequestError, Elicitation, Root, SamplingRequest, SamplingResponse,
};
pub use context::log_layer::ClientLogLayer;
pub use context::{Context, Keyed, LogLevel};
pub use error::Error;
pub use icon::Icon;
pub use location::SourceLocation;
pub use mcp_runtime_macros::{mcp_prompt, mcp_resource, mcp_tool, mcp_tools, skill};
pub use prompt::dynamic::DynamicPrompt;
pub use prompt::message::{IntoPromptMessages, PromptMessage, RenderedPrompt};
pub use prompt::set::PromptSet;
pub use protocol::version::ProtocolVersion;
pub use resource::contents::IntoResourceContents;
pub use resource::dynamic::{DynamicResource, ReadRequest};
pub use resource::set::ResourceSet;
#[cfg(feature = "http")]
pub use server::fleet::DEFAULT_REDIS_KEY_PREFIX;
#[cfg(feature = "http")]
pub use server::http::{
    DEFAULT_BODY_TIMEOUT, DEFAULT_ENDPOINT, DEFAULT_HEADER_TIMEOUT, DEFAULT_MAX_CALLS_PER_SESSION,
    DEFAULT_MAX_CONNECTIONS, DEFAULT_MAX_READING_BYTES, DEFAULT_MAX_SESSIONS,
    DEFAULT_MAX_SESSIONS_PER_PRINCIPAL, DEFAULT_SESSION_IDLE_TIMEOUT, DEFAULT_SSE_RETRY, HeaderMap,
    HttpServer,
};
pub use server::{
    DEFAULT_CLIENT_REQUEST_TIMEOUT, DEFAULT_LIST_TTL, DEFAULT_MAX_IN_FLIGHT,
    DEFAULT_MAX_MESSAGE_SIZE, DEFAULT_MAX_OUTPUT_BACKLOG, DEFAULT_MAX_WAITING_CALLS,
    DEFAULT_PAGE_SIZE, DEFAULT_SHUTDOWN_GRACE, Server,
};
pub use skill::dynamic::DynamicSkill;
pub use skill::set::SkillSet;
pub use task::{InMemoryTaskStore, TaskStore, TaskSupport};
pub use tool::dynamic::DynamicTool;
pub use tool::extract::{Extract, Principal, Rejection, State, States, ToolCall};
pub use tool::hints::ToolHints;
pub use tool::rate::{ParseRateError, Rate, RateLimitMode};
pub use tool::result::{CallToolResult, IntoCallToolResult, Json, ToolError};
pub use tool::set::ToolSet;
#[cfg(feature = "http")]
pub use transport::http::{AuthRejection, Authenticate, ProtectedResource, bearer_token};
#[cfg(feature = "jwt")]
pub use transport::http::{
    DEFAULT_INTROSPECTION_CACHE_TTL, DEFAULT_JWKS_MAX_AGE, DEFAULT_JWKS_REFETCH_INTERVAL,
    DEFAULT_JWT_LEEWAY, DEFAULT_MAX_CACHED_TOKENS, JwtAlgorithm, JwtVerifier, TokenClaims,
    TokenIntrospector,
};
