//! `tags = [...]` is recorded in the descriptor, in order; no tags is an empty slice.

use mcp_runtime::__private::{ToolDescriptor, inventory};
use mcp_runtime::mcp_tool;

/// Tagged.
#[mcp_tool(tags = ["admin", "files.write", "v-2_beta"], destructive)]
async fn tagged() {}

/// Not tagged.
#[mcp_tool(tags = [])]
async fn empty_list() {}

/// Not tagged either.
#[mcp_tool]
async fn untagged() {}

fn tags(name: &str) -> &'static [&'static str] {
    inventory::iter::<ToolDescriptor>
        .into_iter()
        .find(|tool| tool.name == name)
        .expect("registered")
        .tags
}

fn main() {
    assert_eq!(tags("tagged"), ["admin", "files.write", "v-2_beta"]);
    assert!(tags("empty_list").is_empty());
    assert!(tags("untagged").is_empty());
}
