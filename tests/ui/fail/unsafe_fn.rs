use mcp_runtime::mcp_tool;

/// Tools are safe to call.
#[mcp_tool]
unsafe fn read(address: usize) -> u8 {
    let _ = address;
    0
}

fn main() {}
