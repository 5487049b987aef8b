use mcp_runtime::mcp_resource;

/// No uri.
#[mcp_resource(name = "notes")]
fn notes() -> String {
    String::new()
}

fn main() {}
