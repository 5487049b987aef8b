//! An MCP client connected to a [`Server`] in the same process, shared by the command line
//! (`MCP_CLI`) and [`testing::TestClient`](crate::testing).
//!
//! It speaks real JSON-RPC lines through an in-memory pipe into [`Server::serve_io`], so
//! whatever uses it goes through exactly the code a remote client reaches: framing,
//! sessions, argument validation, result shaping for the revision in use.

mod core;
mod primitives;
mod results;
mod skills;
mod tasks;

pub use results::{Notification, Progress, ResponseError, Tool, ToolResult};
#[cfg_attr(not(feature = "testing"), allow(unused_imports))]
pub use skills::{Skill, SkillResource, SkillResources};
#[cfg_attr(not(feature = "testing"), allow(unused_imports))]
pub(crate) use tasks::TASKS_EXTENSION;
pub use tasks::TaskInfo;

#[cfg_attr(not(feature = "testing"), allow(unused_imports))]
pub(crate) use self::core::{ClientCore, Handler, Introduction, Observer, handler};
// The command line uses some of these; `testing` re-exports them all.
#[cfg_attr(not(feature = "testing"), allow(unused_imports))]
pub use primitives::{
    Completion, CompletionTarget, Prompt, PromptArgument, PromptMessages, ReadResult,
    RenderedMessage, Resource, ResourceContent, ResourceTemplate,
};
