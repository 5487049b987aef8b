/// `rename`: the published name differs from the Rust name, here an unused `_units`.
#[mcp_tool(read_only)]
async fn convert(
    amount: f64,
    /// The unit to convert to.
    #[mcp(rename = "units")]
    _units: Option<String>,
    #[mcp(rename = "precision", default = 2)] digits: u32,
) -> String {
    format!("{amount:.*}", digits as usize)
}
