//! Task support the attribute refuses, each with its error on the value: a value it does
//! not know, one in the wrong case, not a string, no value, a list; set twice, on a function
//! and on a method; `task` on a resource or a prompt, which cannot run as tasks; and
//! `input_before_task` on a tool that never runs as a task.

use mcp_runtime::{mcp_prompt, mcp_resource, mcp_tool, mcp_tools};

#[mcp_tool(task = "sometimes")]
async fn unknown() {}

#[mcp_tool(task = "Optional")]
async fn capitalised() {}

#[mcp_tool(task = true)]
async fn not_a_string() {}

#[mcp_tool(task)]
async fn bare() {}

#[mcp_tool(task("optional"))]
async fn list() {}

#[mcp_tool(task = "optional", task = "required")]
async fn twice() {}

#[mcp_tool(input_before_task)]
async fn asks_first() {}

#[mcp_tool(task = "forbidden", input_before_task)]
async fn never_a_task() {}

struct Archive;

#[mcp_tools]
impl Archive {
    #[mcp_tool(task = "always")]
    async fn rebuild(&self) {}

    #[mcp_tool(task = "optional", task = "optional")]
    async fn compact(&self) {}
}

#[mcp_resource(uri = "notes://today", task = "optional")]
fn today() -> String {
    String::new()
}

#[mcp_prompt(task = "optional")]
fn greet() -> String {
    String::new()
}

fn main() {}
