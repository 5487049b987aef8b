/// A file of a repository.
#[mcp_resource(uri = "repo://{owner}/files/{+path}", name = "repository-file", title = "Repository file")]
async fn file(
    /// The repository's owner.
    #[mcp(complete = owners)]
    owner: String,
    path: String,
    ctx: Context,
    who: Caller,
) -> Result<Vec<u8>, ToolError> {
    ctx.read(&owner, &path, &who).await
}
