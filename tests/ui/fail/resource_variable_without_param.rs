use mcp_runtime::{Context, mcp_resource};

#[mcp_resource(uri = "notes://{folder}/{id}")]
fn note(id: String, ctx: Context) -> String {
    let _ = ctx;
    id
}

#[mcp_resource(uri = "users://{user}")]
fn user() -> String {
    String::new()
}

fn main() {}
