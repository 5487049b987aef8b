/// `#[mcp_tools]`: `&self` from the server's value of the type, methods without `self`,
/// async and plain `fn`, extractors and a `Self` in a signature; the block stays as written.
#[mcp_tools]
impl Notes {
    /// The most notes a page holds.
    const PAGE: usize = 20;

    /// Add a note.
    #[mcp_tool(destructive = false)]
    async fn add(
        &self,
        /// The text.
        text: String,
    ) -> usize {
        let mut db = self.db.lock().unwrap();
        db.push(text);
        db.len()
    }

    /// Count notes.
    #[mcp_tool(read_only)]
    fn count(&self) -> usize {
        self.db.lock().unwrap().len()
    }

    /// A method without self works too.
    #[mcp_tool]
    async fn version() -> &'static str {
        "1"
    }

    /// List notes.
    #[mcp_runtime::mcp_tool(read_only, name = "notes.list")]
    fn list(&self, #[mcp(default = Self::PAGE)] limit: usize, ctx: Context) -> Json<Vec<String>> {
        let _ = ctx;
        Json(self.db.lock().unwrap().iter().take(limit).cloned().collect())
    }

    fn helper(&self) {}
}
