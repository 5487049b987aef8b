/// The configuration, read from disk.
#[mcp_resource(uri = "file:///etc/app.toml", icon = "https://example.com/config.svg")]
fn config() -> std::io::Result<String> {
    std::fs::read_to_string("/etc/app.toml")
}
