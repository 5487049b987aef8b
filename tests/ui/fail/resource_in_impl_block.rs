use mcp_runtime::{mcp_prompt, mcp_resource, mcp_tools};

struct Notes;

impl Notes {
    /// A resource written as an associated function.
    #[mcp_resource(uri = "notes://today")]
    fn today() -> String {
        String::new()
    }

    /// A prompt written as an associated function.
    #[mcp_prompt]
    fn summarize() -> String {
        String::new()
    }
}

struct Store;

#[mcp_tools]
impl Store {
    /// Methods are for tools only.
    #[mcp_resource(uri = "store://count")]
    fn count(&self) -> String {
        String::new()
    }
}

fn main() {}
