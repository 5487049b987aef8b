//! Tool names must be unique within a crate, which is checked at compile time; names that
//! only look alike (`a.b`, `a-b`, `a_b`, and names spelling their escapes) are distinct, and
//! tools may live in modules and function bodies — without a single warning.

#![deny(warnings)]

use mcp_runtime::__private::{ToolDescriptor, inventory};
use mcp_runtime::mcp_tool;

#[mcp_tool(name = "a.b")]
fn dotted() {}

#[mcp_tool(name = "a-b")]
fn dashed() {}

#[mcp_tool(name = "a_b")]
fn underscored() {}

#[mcp_tool(name = "a_dot_b")]
fn spelled_dot() {}

#[mcp_tool(name = "a_u_b")]
fn spelled_underscore() {}

#[mcp_tool(name = "A.B")]
fn upper() {}

mod nested {
    pub mod deeper {
        #[mcp_runtime::mcp_tool]
        pub fn in_a_module() {}
    }
}

fn main() {
    #[mcp_tool]
    fn in_a_function_body() {}

    let mut names: Vec<&str> = inventory::iter::<ToolDescriptor>
        .into_iter()
        .map(|tool| tool.name)
        .collect();
    names.sort();
    assert_eq!(
        names,
        ["A.B", "a-b", "a.b", "a_b", "a_dot_b", "a_u_b", "in_a_function_body", "in_a_module"]
    );
    dotted();
    dashed();
    underscored();
    spelled_dot();
    spelled_underscore();
    upper();
    nested::deeper::in_a_module();
    in_a_function_body();
}
