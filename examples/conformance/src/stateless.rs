//! The diagnostic fixtures of the suite's `server-stateless` scenario (SEP-2575): a tool that
//! needs a capability the client did not declare, one that asks for input mid-call, one that
//! logs, and two that change the tool and prompt lists for `subscriptions/listen` streams;
//! and a tool with an argument mirrored into an HTTP header (SEP-2243, `http-custom-header-*`).

use std::time::Duration;

use mcp_runtime::{
    Context, DynamicPrompt, DynamicTool, LogLevel, PromptSet, SamplingRequest, State, ToolError,
    ToolSet, mcp_tool,
};
use serde_json::json;

/// The tool and the prompt the change triggers add and remove again at once: each trigger
/// changes the list twice and leaves it as it was, so no other scenario (nor another instance
/// of a fleet, which has its own lists) ever sees them.
const CHANGING_TOOL: &str = "test_list_changed_tool";
const CHANGING_PROMPT: &str = "test_list_changed_prompt";

/// Runs a query in a region, which a gateway can route on without reading the body
#[mcp_tool(read_only)]
async fn test_custom_header(
    /// The region to run the query in, sent as the `Mcp-Param-Region` header too.
    #[mcp(header = "Region")]
    region: String,
    /// The query.
    query: String,
) -> String {
    format!("ran `{query}` in {region}")
}

/// Tests that a request needing an undeclared client capability is refused (SEP-2575)
#[mcp_tool]
async fn test_missing_capability(ctx: Context) -> Result<String, ToolError> {
    // Propagating the runtime's refusal says the call cannot go on without `sampling`.
    let answer = ctx.sample(SamplingRequest::new(10).user("Say hi")).await?;
    Ok(format!("The model said: {}", answer.text().unwrap_or("")))
}

/// Tests that a call asking for input mid-call streams no independent requests (SEP-2575)
#[mcp_tool]
async fn test_streaming_elicitation(ctx: Context) -> Result<String, ToolError> {
    let answer = ctx
        .elicit_with_schema(
            "Continue?",
            json!({"type": "object", "properties": {"go": {"type": "boolean"}}}),
        )
        .await?;
    Ok(format!("accepted: {}", answer.accepted().is_some()))
}

/// Tests that log messages are sent only at a level the request asked for (SEP-2575)
#[mcp_tool]
async fn test_logging_tool(ctx: Context) -> &'static str {
    ctx.log(LogLevel::Info, "Logging tool started");
    tokio::time::sleep(Duration::from_millis(20)).await;
    ctx.log(LogLevel::Info, "Logging tool finished");
    "Logging tool done"
}

/// Tests tools/list_changed on subscriptions/listen streams: adds a tool and removes it again
#[mcp_tool]
async fn test_trigger_tool_change(tools: State<ToolSet>) -> Result<&'static str, ToolError> {
    let tool = DynamicTool::new(CHANGING_TOOL, json!({"type": "object"}), |_, _| async {
        "listed only for a moment"
    })
    .description("A tool test_trigger_tool_change adds and removes");
    tools
        .add(tool)
        .map_err(|error| ToolError::new(error.to_string()))?;
    tools.remove(CHANGING_TOOL);
    Ok("the tool list changed")
}

/// Tests prompts/list_changed on subscriptions/listen streams: adds a prompt and removes it
/// again
#[mcp_tool]
async fn test_trigger_prompt_change(prompts: State<PromptSet>) -> Result<&'static str, ToolError> {
    let prompt = DynamicPrompt::new(CHANGING_PROMPT, |_, _| async { "listed only for a moment" })
        .description("A prompt test_trigger_prompt_change adds and removes");
    prompts
        .add(prompt)
        .map_err(|error| ToolError::new(error.to_string()))?;
    prompts.remove(CHANGING_PROMPT);
    Ok("the prompt list changed")
}
