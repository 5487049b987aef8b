use mcp_runtime::mcp_resource;

/// `id` is not a variable of the uri: the client cannot give it.
#[mcp_resource(uri = "notes://{folder}")]
fn note(folder: String, id: u32) -> String {
    format!("{folder}/{id}")
}

/// A fixed uri has no variables at all.
#[mcp_resource(uri = "notes://today")]
fn today(limit: Option<u32>) -> String {
    format!("{limit:?}")
}

fn main() {}
