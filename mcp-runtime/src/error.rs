//! The errors a server can fail with. Errors inside a single request never end the server:
//! they become JSON-RPC errors or `isError` results for that request alone.

use std::fmt;

use crate::location::SourceLocation;

/// Why a server could not start or stopped serving.
///
/// Its `Debug` output is its message, so `fn main() -> Result<(), mcp_runtime::Error>`
/// prints a sentence rather than a struct.
#[derive(thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// Two tools linked into the binary share a name. Tool names must be unique, so the
    /// server refuses to start rather than let one silently shadow the other.
    #[error(
        "two tools are named `{name}`: one is defined at {first}, the other at {second}; \
         rename one of them with #[mcp_tool(name = \"...\")]"
    )]
    DuplicateTool {
        /// The shared name.
        name: String,
        /// One definition.
        first: SourceLocation,
        /// The other definition.
        second: SourceLocation,
    },
    /// Two resources (or resource templates) linked into the binary share a URI.
    #[error(
        "two resources have the URI `{uri}`: one is defined at {first}, the other at {second}; \
         give each its own `uri` in #[mcp_resource(uri = \"...\")]"
    )]
    DuplicateResource {
        /// The shared URI (or URI template).
        uri: String,
        /// One definition.
        first: SourceLocation,
        /// The other definition.
        second: SourceLocation,
    },
    /// A tool names an MCP Apps view (`ui = "ui://..."`) that no resource serves.
    #[error(
        "tool `{tool}` (defined at {location}) names the view `{uri}`, but no resource has that \
         URI; define it with #[mcp_resource(uri = \"{uri}\")] returning an `apps::View`, or \
         fix `ui` in #[mcp_tool]"
    )]
    MissingView {
        /// The tool's name.
        tool: String,
        /// Where the tool is defined.
        location: SourceLocation,
        /// The `ui://` URI it names.
        uri: String,
    },
    /// Two prompts linked into the binary share a name.
    #[error(
        "two prompts are named `{name}`: one is defined at {first}, the other at {second}; \
         rename one of them with #[mcp_prompt(name = \"...\")]"
    )]
    DuplicatePrompt {
        /// The shared name.
        name: String,
        /// One definition.
        first: SourceLocation,
        /// The other definition.
        second: SourceLocation,
    },
    /// A resource's or a prompt's parameter cannot be supplied, e.g. a `State<T>` whose `T`
    /// was never registered with `Server::state`.
    #[error("{what} (defined at {location}) cannot be served: parameter `{parameter}`: {problem}")]
    Unservable {
        /// What cannot be served: "resource `docs://readme`", "prompt `review`".
        what: String,
        /// The parameter.
        parameter: String,
        /// Where it is defined.
        location: SourceLocation,
        /// What is missing, and how to fix it.
        problem: String,
    },
    /// A tool's parameter cannot be supplied, e.g. a `State<T>` whose `T` was never
    /// registered with `Server::state`.
    #[error(
        "tool `{tool}` (defined at {location}) cannot be served: parameter `{parameter}`: {problem}"
    )]
    Extractor {
        /// The tool.
        tool: String,
        /// The parameter.
        parameter: String,
        /// Where the tool is defined.
        location: SourceLocation,
        /// What is missing, and how to fix it.
        problem: String,
    },
    /// A tool mirrors a parameter into a header (`#[mcp(header = ...)]`) that clients
    /// cannot take (a number, an object, an array).
    #[error("tool `{tool}` (defined at {location}) cannot be served: {problem}")]
    InvalidHeader {
        /// The tool.
        tool: String,
        /// Where the tool is defined.
        location: SourceLocation,
        /// What is wrong, and how to fix it.
        problem: String,
    },
    /// A tool added at run time ([`DynamicTool`](crate::DynamicTool)) was refused.
    #[error("tool `{name}` cannot be added: {problem}")]
    InvalidTool {
        /// The tool's name.
        name: String,
        /// What is wrong.
        problem: String,
    },
    /// A resource added at run time ([`DynamicResource`](crate::DynamicResource)) was refused.
    #[error("resource `{uri}` cannot be added: {problem}")]
    InvalidResource {
        /// The resource's URI.
        uri: String,
        /// What is wrong.
        problem: String,
    },
    /// A prompt added at run time ([`DynamicPrompt`](crate::DynamicPrompt)) was refused.
    #[error("prompt `{name}` cannot be added: {problem}")]
    InvalidPrompt {
        /// The prompt's name.
        name: String,
        /// What is wrong.
        problem: String,
    },
    /// Two skills linked into the binary (`skill!`) share a name.
    #[error(
        "two skills are named `{name}`: one is embedded at {first}, the other at {second}; \
         rename one of their folders (and the `name` in its SKILL.md), or serve one under a \
         prefix with skill!(\"...\", prefix = \"...\")"
    )]
    DuplicateSkill {
        /// The shared name.
        name: String,
        /// One `skill!`.
        first: SourceLocation,
        /// The other `skill!`.
        second: SourceLocation,
    },
    /// A skill cannot be served: one embedded by `skill!` whose frontmatter the runtime
    /// cannot read, or a [`DynamicSkill`](crate::DynamicSkill) refused when added.
    #[error("skill `{uri}` cannot be served: {problem}")]
    InvalidSkill {
        /// The URI of its `SKILL.md`.
        uri: String,
        /// What is wrong.
        problem: String,
    },
    /// The store a fleet of instances shares (Redis) cannot be reached at start-up, so
    /// the server refuses to start rather than serve requests it would have to fail.
    #[error("the server cannot start: {0}")]
    StoreUnavailable(String),
    /// The [`JwtVerifier`](crate::JwtVerifier) given to
    /// [`HttpServer::verify_jwt`](crate::HttpServer::verify_jwt) cannot be used (an issuer
    /// that is not https, no algorithm).
    #[cfg(feature = "jwt")]
    #[error("the JWT verifier cannot be used: {0}")]
    InvalidJwtVerifier(String),
    /// The [`TokenIntrospector`](crate::TokenIntrospector) given to
    /// [`HttpServer::introspect_tokens`](crate::HttpServer::introspect_tokens) cannot be used
    /// (an issuer that is not https).
    #[cfg(feature = "jwt")]
    #[error("the token introspector cannot be used: {0}")]
    InvalidTokenIntrospector(String),
    /// Reading from or writing to the transport failed.
    #[error("transport I/O failed: {0}")]
    Io(#[from] std::io::Error),
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}
