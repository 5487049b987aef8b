use std::rc::Rc;

/// Holds an Rc across an await.
#[mcp_runtime::mcp_tool]
async fn count(n: u32) -> u32 {
    let shared = Rc::new(n);
    tokio::task::yield_now().await;
    *shared
}

fn main() {}
