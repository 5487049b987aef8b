//! A server whose every call takes the general path to its arguments (a map, checked
//! against the input schema, then extracted): a tool behind a layer sees its arguments as a
//! map, so a layer that passes every call on is all it takes. The tests that hold the
//! typed path to the general one send the same calls to a server with it and one without.

use mcp_runtime::Server;
use mcp_runtime::middleware::{Next, ToolRequest, from_fn};

/// `server` behind a layer that passes every call on unchanged.
pub fn general_path(server: Server) -> Server {
    server.layer(from_fn(|call: ToolRequest, next: Next| next.run(call)))
}
