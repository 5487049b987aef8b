/// Reviews code.
///
/// # Arguments
///
/// * `code` - The code to review.
#[mcp_prompt(title = "Code review", icon(src = "https://example.com/review.png", sizes = ["48x48"], theme = "dark"))]
async fn review(
    code: String,
    /// The language the code is in.
    #[mcp(complete = languages)]
    language: Option<String>,
    #[mcp(default = 3, rename = "max-findings")]
    max_findings: u32,
    ctx: Context,
) -> Vec<PromptMessage> {
    ctx.log(LogLevel::Info, "reviewing");
    vec![PromptMessage::user(format!("Review this {language:?} code, at most {max_findings} findings:\n{code}"))]
}
