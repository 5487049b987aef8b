use mcp_runtime::{Context, Extract, Rejection, ToolCall, mcp_prompt, mcp_resource, mcp_tool};

struct Caller;

impl Extract for Caller {
    fn extract(_call: &mut ToolCall, _parameter: &'static str) -> Result<Self, Rejection> {
        Ok(Caller)
    }
}

fn names(prefix: &str) -> Vec<String> {
    vec![prefix.to_owned()]
}

/// Tools have no completions.
#[mcp_tool]
fn greet(#[mcp(complete = names)] name: String) -> String {
    name
}

/// Only a variable of the uri can be completed.
#[mcp_resource(uri = "users://{id}")]
fn user(id: String, #[mcp(complete = names)] who: Caller) -> String {
    let _ = who;
    id
}

/// A fixed uri has no variables.
#[mcp_resource(uri = "users://me")]
fn me(#[mcp(complete = names)] who: Caller) -> String {
    let _ = who;
    String::new()
}

/// An extractor is no argument.
#[mcp_prompt]
fn hello(name: String, #[mcp(complete = names)] ctx: Context) -> String {
    let _ = ctx;
    name
}

/// `complete` takes a path.
#[mcp_prompt]
fn bye(#[mcp(complete = "names")] name: String, #[mcp(complete)] other: String) -> String {
    name + &other
}

fn main() {}
