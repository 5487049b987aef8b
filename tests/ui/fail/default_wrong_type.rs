use mcp_runtime::mcp_tool;

#[derive(serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
struct NoDefault {
    prefix: String,
}

/// A default of the wrong type, and `#[mcp(default)]` on a type without `Default`.
#[mcp_tool]
async fn list(
    #[mcp(default = "ten")] limit: u32,
    #[mcp(default)] filter: NoDefault,
) -> String {
    format!("{limit} {}", filter.prefix)
}

fn main() {}
