use mcp_runtime::mcp_tool;

/// Tools are Rust functions.
#[mcp_tool]
extern "C" fn ping() -> u8 {
    0
}

fn main() {}
