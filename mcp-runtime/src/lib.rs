//! mcp-runtime (work in progress)
mod content;
mod invoke;
mod registry;
mod result;

#[doc(hidden)]
#[path = "private.rs"]
pub mod __private;

pub use content::{Annotations, Content, ContentBody, EmbeddedResource, ResourceContents, ResourceLink, Role};
pub use mcp_macros::mcp_tool;
pub use result::{CallToolResult, IntoCallToolResult, Json};
