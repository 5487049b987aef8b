#[derive(serde::Deserialize)]
struct Point {
    x: f64,
}

/// The argument type lacks JsonSchema.
#[mcp_runtime::mcp_tool]
async fn norm(point: Point) -> f64 {
    point.x
}

fn main() {}
