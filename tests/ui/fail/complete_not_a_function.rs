use mcp_runtime::{mcp_prompt, mcp_resource};

fn wrong(prefix: u32) -> Vec<String> {
    vec![prefix.to_string()]
}

fn not_strings(_prefix: &str) -> Vec<u32> {
    vec![1]
}

#[mcp_prompt]
fn hello(#[mcp(complete = wrong)] name: String) -> String {
    name
}

#[mcp_resource(uri = "users://{id}")]
fn user(#[mcp(complete = not_strings)] id: String) -> String {
    id
}

fn main() {}
