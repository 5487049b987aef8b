//! `scopes = [...]` the attribute refuses: not a list, a scope with a space, one listed
//! twice, an empty list, and an element that is not a string literal.

use mcp_runtime::mcp_tool;

/// Not a list.
#[mcp_tool(scopes = "notes")]
async fn not_a_list() {}

/// A space cannot be in an OAuth scope token.
#[mcp_tool(scopes = ["has space"])]
async fn with_a_space() {}

/// The same scope twice.
#[mcp_tool(scopes = ["a", "a"])]
async fn twice() {}

/// An empty list requires nothing.
#[mcp_tool(scopes = [])]
async fn empty() {}

/// Not a string literal.
#[mcp_tool(scopes = ["notes:read", 42])]
async fn not_a_string() {}

/// Not a value.
#[mcp_tool(scopes)]
async fn no_value() {}

fn main() {}
