//! Tools: what `#[mcp_tool]` registers and how the runtime serves it.
//!
//! - `descriptor`: the static descriptors the macro submits to `inventory`, and their
//!   collection at start-up; `hints`: [`ToolHints`](crate::ToolHints), what a tool says of
//!   its behaviour;
//! - `catalog`: the tools a server offers, with prepared schemas and listing pages;
//! - `set`: [`ToolSet`](crate::ToolSet), the tools while the server runs; `dynamic`:
//!   [`DynamicTool`](crate::DynamicTool), tools defined at run time;
//! - `schema`: `inputSchema` and `outputSchema` from Rust types; `problems`: how the check
//!   of arguments against `inputSchema` words what it refuses;
//! - `arguments`: a call's arguments decoded for its tool, straight into its parameters
//!   where their types allow it; `extract`: parameters from arguments and from the server
//!   ([`Extract`](crate::Extract)), and their descriptors; `header`: parameters mirrored
//!   into HTTP headers (`x-mcp-header`);
//! - `invoke` and `blocking`: calling the user's function, async or on a thread of its own;
//! - `result` and `shape`: what a tool returns, and how a result is written per revision;
//! - `rate`: rate values and their limiters.
//!
//! Tools build on `context` (a tool's [`Context`](crate::Context) is one of its parameters),
//! `protocol` and `middleware` (a tool holds its own layers); sessions build on tools.

pub(crate) mod arguments;
pub(crate) mod blocking;
pub(crate) mod catalog;
pub(crate) mod descriptor;
pub(crate) mod dynamic;
pub(crate) mod extract;
pub(crate) mod header;
pub(crate) mod hints;
pub(crate) mod invoke;
pub(crate) mod problems;
pub(crate) mod rate;
pub(crate) mod result;
pub(crate) mod schema;
pub(crate) mod set;
pub(crate) mod shape;
