/// Arguments and extractors, in any order.
#[mcp_tool]
async fn import(
    /// Rows to import.
    rows: Vec<String>,
    db: State<Database>,
    ctx: Context,
) -> Result<String, String> {
    ctx.progress(1.0, None, None);
    Ok(format!("{} rows into {:?}", rows.len(), &*db))
}
