use mcp_runtime::mcp_resource;

#[mcp_resource(uri = "notes/today")]
fn no_scheme() -> String { String::new() }

#[mcp_resource(uri = "notes://{#section}")]
fn fragment() -> String { String::new() }

#[mcp_resource(uri = "notes://x{?page}")]
fn query() -> String { String::new() }

#[mcp_resource(uri = "notes://{a,b}")]
fn list() -> String { String::new() }

#[mcp_resource(uri = "notes://{id*}")]
fn explode() -> String { String::new() }

#[mcp_resource(uri = "notes://{id:3}")]
fn prefix() -> String { String::new() }

#[mcp_resource(uri = "notes://{}")]
fn empty() -> String { String::new() }

#[mcp_resource(uri = "notes://{id")]
fn unclosed() -> String { String::new() }

#[mcp_resource(uri = "notes://id}")]
fn unopened() -> String { String::new() }

#[mcp_resource(uri = "notes://{note-id}")]
fn bad_name() -> String { String::new() }

#[mcp_resource(uri = "notes://{id}/{id}")]
fn twice(id: String) -> String { id }

#[mcp_resource(uri = "notes://{a}{b}")]
fn adjacent(a: String, b: String) -> String { a + &b }

fn main() {}
