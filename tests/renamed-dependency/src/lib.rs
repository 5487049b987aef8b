//! Tools of a crate whose `Cargo.toml` names `mcp-runtime` `mcp`: neither attribute says
//! `crate = "..."`, and the generated code still finds the runtime, as `::mcp`.

use std::sync::atomic::{AtomicU64, Ordering};

/// Repeat a text.
#[mcp::mcp_tool(read_only)]
pub async fn repeat(
    /// The text.
    text: String,
    /// How many times.
    #[mcp(default = 2)]
    times: usize,
) -> String {
    text.repeat(times)
}

/// A counter shared by its tools.
#[derive(Default)]
pub struct Counter {
    count: AtomicU64,
}

#[mcp::mcp_tools]
impl Counter {
    /// Add to the counter; answers the new count.
    #[mcp::mcp_tool]
    pub fn increment(
        &self,
        /// How much to add.
        by: u64,
    ) -> u64 {
        self.count.fetch_add(by, Ordering::Relaxed) + by
    }
}
