struct Area(f64);

/// Returns a type that is not a tool result.
#[mcp_runtime::mcp_tool]
async fn area(side: f64) -> Area {
    Area(side * side)
}

fn main() {}
