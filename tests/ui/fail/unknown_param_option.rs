use mcp_runtime::mcp_tool;

/// Misspelled and misused parameter options, all reported at once.
#[mcp_tool]
async fn list(
    #[mcp(defualt = 10)] limit: u32,
    #[mcp(default(5))] offset: u32,
    #[mcp(default = 1, default = 2)] page: u32,
    #[mcp(alias = "q")] query: String,
    #[mcp = 3] other: u32,
) -> String {
    format!("{limit} {offset} {page} {query} {other}")
}

fn main() {}
