use mcp_runtime::mcp_prompt;

#[mcp_prompt(name = "bad name", read_only, uri = "x://y")]
fn bad() -> String {
    String::new()
}

/// Not a function.
#[mcp_prompt]
struct Prompt;

#[mcp_prompt]
fn pattern((a, b): (String, String), reference: &str) -> String {
    a + &b + reference
}

fn main() {}
