use mcp_runtime::{Context, mcp_prompt, mcp_tool};

/// Headers that cannot be.
#[mcp_tool]
async fn route(
    #[mcp(header = "My Region")] region: String,
    #[mcp(header = "")] zone: String,
    #[mcp(header = "Région")] place: String,
    #[mcp(header = "Shard")] shard: u32,
    #[mcp(header = "shard")] replica: u32,
    #[mcp(header = "Score")] score: f64,
    #[mcp(header = "Tags")] tags: Option<Vec<String>>,
    #[mcp(header = "Context")] ctx: Context,
    #[mcp(header = Region)] bare: String,
) -> String {
    let _ = ctx;
    format!("{region} {zone} {place} {shard} {replica} {score} {tags:?} {bare}")
}

/// A prompt has no headers.
#[mcp_prompt]
async fn greet(#[mcp(header = "Name")] name: String) -> String {
    format!("Hello, {name}")
}

fn main() {}
