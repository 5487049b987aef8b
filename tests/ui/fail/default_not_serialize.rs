use mcp_runtime::mcp_tool;

#[derive(serde::Deserialize, schemars::JsonSchema, Default)]
struct Filter {
    prefix: String,
}

/// The default goes into the schema, so it must serialize.
#[mcp_tool]
async fn list(#[mcp(default)] filter: Filter) -> String {
    filter.prefix
}

fn main() {}
