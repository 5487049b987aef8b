use mcp_runtime::{mcp_tool, mcp_tools};

struct Notes;

trait Describe {
    fn describe(&self) -> String;
}

#[mcp_tools]
impl Describe for Notes {
    /// Describes the notes.
    #[mcp_tool]
    fn describe(&self) -> String {
        "notes".to_owned()
    }
}

fn main() {}
