use mcp_runtime::mcp_resource;

#[mcp_resource(
    uri = "notes://{id}",
    size = 10,
    audience = ["user", "robot", "user"],
    priority = 1.5,
    last_modified = "2025-01-12 15:00",
    mime_type = text,
    read_only,
    titel = "Notes",
    name = "a",
    name = "b",
)]
fn note(id: String) -> String {
    id
}

#[mcp_resource(uri = "notes://today", size = -1, audience = "user", priority = "high")]
fn today() -> String {
    String::new()
}

#[mcp_resource(uri = "notes://x", name = "not valid")]
fn invalid_name() -> String {
    String::new()
}

fn main() {}
