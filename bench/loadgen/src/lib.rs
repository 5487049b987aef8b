//! Load generator for stdio MCP servers.
//!
//! The `mcp-loadgen` binary spawns a server command, measures its start-up, `tools/list`
//! latency and memory, then drives `tools/call` over the one connection with a fixed number
//! of requests in flight. This library holds the pieces the benchmark driver shares: the
//! report format and CPU list parsing.

pub mod cpus;
pub mod report;

pub use cpus::CpuList;
pub use report::{ListReport, PhaseReport, Report};
