use mcp_runtime::mcp_resource;

#[mcp_resource(uri = "numbers://one")]
async fn one() -> u32 {
    1
}

#[mcp_resource(uri = "numbers://two")]
fn two() -> Vec<u32> {
    vec![2]
}

fn main() {}
