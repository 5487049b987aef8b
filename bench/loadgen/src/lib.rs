//! Load generator for stdio MCP servers.
//!
//! The `mcp-loadgen` binary spawns a server command, measures its start-up, `tools/list`
//! latency and memory, then drives `tools/call` over the one connection with a fixed number
//! of requests in flight. This library holds the pieces the benchmark driver shares: the
//! report formats, CPU list parsing, and what `/proc` says about a process (CPU
//! time, memory, pinning).

pub mod cpus;
pub mod procfs;
pub mod report;

pub use cpus::CpuList;
pub use report::{HttpReport, ListReport, PhaseReport, Report};
