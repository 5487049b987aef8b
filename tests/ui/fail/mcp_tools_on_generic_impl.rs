use mcp_runtime::{mcp_tool, mcp_tools};

struct Store<T>(Vec<T>);

#[mcp_tools]
impl<T: Send + Sync + 'static> Store<T> {
    /// How many items.
    #[mcp_tool]
    fn size(&self) -> usize {
        self.0.len()
    }
}

struct Cache<T>(T);

#[mcp_tools]
impl Cache<u8>
where
    u8: Copy,
{
    /// Reads the cache.
    #[mcp_tool]
    fn get(&self) -> u8 {
        self.0
    }
}

fn main() {}
