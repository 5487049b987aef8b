use mcp_runtime::mcp_tool;

#[derive(schemars::JsonSchema)]
struct Point {
    x: f64,
    y: f64,
}

/// `Point` has no `Deserialize`.
#[mcp_tool]
async fn norm(point: Point) -> f64 {
    point.x.hypot(point.y)
}

fn main() {}
