/// Today's notes.
#[mcp_resource(
    uri = "notes://today",
    mime_type = "text/markdown",
    size = 1024,
    audience = ["user", "assistant"],
    priority = 0.8,
    last_modified = "2025-01-12T15:00:58Z"
)]
async fn today(db: State<Database>) -> String {
    db.today()
}
