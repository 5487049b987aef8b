//! The manual: what you write, what the server does with it, and where to look when
//! something puzzles you, one chapter per module. This module holds documentation only.
//!
//! - [`attribute`]: `#[mcp_tool]`, its options, accepted types and compile errors.
//! - [`parameters`]: argument schemas, descriptions, defaults, and extractors.
//! - [`client_requests`]: asking the client — elicitation, sampling, roots.
//! - [`tool_set`]: tools that change at run time.
//! - [`resources_prompts`]: resources, resource templates, prompts, completions, and telling
//!   clients what changed.
//! - [`skills`]: shipping Agent Skills with `skill!`, the checks, skills that change, what a
//!   client sees (the `io.modelcontextprotocol/skills` extension).
//! - [`apps`]: MCP Apps — tools whose results show as an HTML view in the host, app-only
//!   tools (the `io.modelcontextprotocol/ui` extension).
//! - [`tasks`]: tool calls that outlive their request, in both eras, on a store behind a
//!   trait.
//! - [`return_values`]: what each return type becomes.
//! - [`protocol`]: revisions, errors, concurrency, cancellation, shutdown, rate limits,
//!   sanitizing, stdout.
//! - [`http`]: Streamable HTTP and deployment (feature `http`).
//! - [`jwt`]: JWT access tokens verified by the server against the issuer's published keys,
//!   and opaque tokens by introspection (feature `jwt`).
//! - [`fleet`]: several instances without sticky routing, sharing sessions, streams and
//!   tasks through Redis (feature `redis`).
//! - [`production`]: middleware around every tool call, and scopes per tool.
//! - [`telemetry`]: OpenTelemetry — a span per request and the MCP metrics, exported over OTLP
//!   or scraped by Prometheus (features `otel`, `otlp`).
//! - [`cli`]: `MCP_CLI`, the command line inside every server (feature `cli`).
//! - [`testing`]: testing your server with `mcp_runtime::testing` (feature `testing`).
//! - [`expand`]: debugging with `cargo expand`.
//! - [`features`]: Cargo features.
//! - [`performance`]: what a server costs, how to measure it, and the settings that change it.

// The reference itself is the attribute's own page (one source: `mcp-runtime-macros/docs/mcp_tool.md`,
// on the macro, so an IDE shows it on hover); it is linked rather than included here because
// a published crate can include only files of its own package.
#[doc = include_str!("../docs/attribute.md")]
pub mod attribute {}

#[doc = include_str!("../docs/parameters.md")]
pub mod parameters {}

#[doc = include_str!("../docs/client_requests.md")]
pub mod client_requests {}

#[doc = include_str!("../docs/tool_set.md")]
pub mod tool_set {}

#[doc = include_str!("../docs/resources_prompts.md")]
pub mod resources_prompts {}

#[doc = include_str!("../docs/skills.md")]
pub mod skills {}

#[doc = include_str!("../docs/apps.md")]
pub mod apps {}

#[doc = include_str!("../docs/tasks.md")]
pub mod tasks {}

#[doc = include_str!("../docs/return_values.md")]
pub mod return_values {}

#[doc = include_str!("../docs/protocol.md")]
pub mod protocol {}

#[cfg_attr(feature = "http", doc = include_str!("../docs/http.md"))]
#[cfg_attr(
    not(feature = "http"),
    doc = "HTTP: Streamable HTTP and deployment. This chapter is built with the Cargo \
           feature `http` (docs.rs builds every feature)."
)]
pub mod http {}

#[cfg_attr(feature = "jwt", doc = include_str!("../docs/jwt.md"))]
#[cfg_attr(
    not(feature = "jwt"),
    doc = "JWT access tokens verified by the server. This chapter is built with the Cargo \
           feature `jwt` (docs.rs builds every feature)."
)]
pub mod jwt {}

#[cfg_attr(feature = "redis", doc = include_str!("../docs/fleet.md"))]
#[cfg_attr(
    not(feature = "redis"),
    doc = "A fleet of instances sharing sessions, streams and tasks through Redis. This \
           chapter is built with the Cargo feature `redis` (docs.rs builds every feature)."
)]
pub mod fleet {}

#[cfg_attr(feature = "http", doc = include_str!("../docs/production.md"))]
#[cfg_attr(
    not(feature = "http"),
    doc = "Middleware around every tool call, and scopes per tool. This chapter is built \
           with the Cargo feature `http` (docs.rs builds every feature)."
)]
pub mod production {}

// Its examples use the OTLP exporter, so the chapter is built with `otlp` (which implies
// `otel`).
#[cfg_attr(feature = "otlp", doc = include_str!("../docs/telemetry.md"))]
#[cfg_attr(
    not(feature = "otlp"),
    doc = "Telemetry: OpenTelemetry spans and metrics, OTLP and Prometheus. This chapter is \
           built with the Cargo feature `otlp` (docs.rs builds every feature)."
)]
pub mod telemetry {}

#[doc = include_str!("../docs/cli.md")]
pub mod cli {}

#[cfg_attr(feature = "testing", doc = include_str!("../docs/testing.md"))]
#[cfg_attr(
    not(feature = "testing"),
    doc = "Testing your server with `mcp_runtime::testing`. This chapter is built with the \
           Cargo feature `testing` (docs.rs builds every feature)."
)]
pub mod testing {}

#[doc = include_str!("../docs/expand.md")]
pub mod expand {}

#[doc = include_str!("../docs/features.md")]
pub mod features {}

#[doc = include_str!("../docs/performance.md")]
pub mod performance {}
