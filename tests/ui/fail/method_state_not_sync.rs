use std::cell::Cell;

use mcp_runtime::{mcp_tool, mcp_tools};

struct Counter {
    count: Cell<u64>,
}

#[mcp_tools]
impl Counter {
    /// Count one more.
    #[mcp_tool]
    fn increment(&self) -> u64 {
        self.count.set(self.count.get() + 1);
        self.count.get()
    }

    /// Read the count.
    #[mcp_tool]
    async fn read(&self) -> u64 {
        self.count.get()
    }
}

fn main() {}
