#[derive(serde::Serialize)]
struct Summary {
    words: usize,
}

/// The structured output type lacks JsonSchema.
#[mcp_runtime::mcp_tool]
async fn summarize(text: String) -> mcp_runtime::Json<Summary> {
    mcp_runtime::Json(Summary {
        words: text.split_whitespace().count(),
    })
}

fn main() {}
