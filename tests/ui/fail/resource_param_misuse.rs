use mcp_runtime::{Context, mcp_resource};

/// A variable is always given.
#[mcp_resource(uri = "notes://{id}")]
fn optional(id: Option<String>) -> String {
    id.unwrap_or_default()
}

/// No defaults on a resource's parameters.
#[mcp_resource(uri = "pages://{page}")]
fn defaulted(#[mcp(default = 1)] page: u32, #[mcp(default)] ctx: Context) -> String {
    let _ = ctx;
    page.to_string()
}

fn main() {}
