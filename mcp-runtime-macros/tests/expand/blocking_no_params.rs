/// A plain `fn` without parameters or return type: `call_blocking`, `struct Arguments {}`.
#[mcp_tool(destructive = false, open_world = false)]
pub(crate) fn reset() {}
