struct Calculator;

impl Calculator {
    /// A method.
    #[mcp_runtime::mcp_tool]
    async fn add(&self, a: i64) -> i64 {
        a
    }
}

fn main() {}
