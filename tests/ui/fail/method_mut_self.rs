use mcp_runtime::{mcp_tool, mcp_tools};

struct Counter {
    count: u64,
}

#[mcp_tools]
impl Counter {
    /// Count one more.
    #[mcp_tool]
    fn increment(&mut self) -> u64 {
        self.count += 1;
        self.count
    }

    /// Start again, `&mut self` written out.
    #[mcp_tool]
    fn reset(self: &mut Self) {
        self.count = 0;
    }
}

fn main() {}
