use mcp_runtime::{mcp_tool, mcp_tools};

struct Session {
    name: String,
}

#[mcp_tools]
impl Session {
    /// Ends the session.
    #[mcp_tool]
    fn close(self) -> String {
        self.name
    }

    /// Ends it, mutably.
    #[mcp_tool]
    fn rename(mut self, name: String) -> String {
        self.name = name;
        self.name
    }

    /// Through a box.
    #[mcp_tool]
    fn boxed(self: Box<Self>) -> String {
        self.name
    }
}

fn main() {}
