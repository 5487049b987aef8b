/// `crate = "..."` sets the root of every path; `r#type` is the argument `type`.
#[mcp_tool(crate = "mcp", name = "files.find", description = "Find files by type.")]
async fn find(
    /// The file type.
    r#type: String,
    limit: Option<u32>,
) -> Result<mcp::Json<Vec<String>>, String> {
    Ok(mcp::Json(vec![r#type; limit.unwrap_or(1) as usize]))
}
