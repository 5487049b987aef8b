use mcp_runtime::mcp_prompt;

#[mcp_prompt]
async fn number() -> u32 {
    1
}

#[mcp_prompt]
fn numbers() -> Vec<u32> {
    vec![2]
}

fn main() {}
