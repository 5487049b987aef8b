use mcp_runtime::mcp_tool;

/// Runs a query where a gateway routes it.
#[mcp_tool]
async fn route(
    /// The region, mirrored into `Mcp-Param-Region`.
    #[mcp(header = "Region")]
    region: String,
    query: String,
) -> String {
    format!("{query} in {region}")
}
