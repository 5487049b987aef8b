//! The fixtures of the suite's `tasks-*` scenarios (the `io.modelcontextprotocol/tasks`
//! extension, SEP-2663): a tool that never runs as a task, tools that may, and one that runs
//! only as a task.

use std::time::Duration;

use mcp_runtime::{Context, Elicitation, ToolError, mcp_tool};
use serde_json::{Map, Value, json};

/// Says hello; never runs as a task
#[mcp_tool]
async fn greet(
    /// Whom to greet
    name: String,
) -> String {
    format!("Hello, {name}!")
}

/// Sleeps for `seconds` seconds, then answers; runs as a task when the client asks
#[mcp_tool(task = "optional")]
async fn slow_compute(
    /// How long to work, in seconds (0 answers at once)
    seconds: u64,
    /// A label echoed in the result
    #[mcp(default)]
    label: String,
) -> String {
    // A `tasks/cancel` drops this future here, so the task ends `cancelled`.
    tokio::time::sleep(Duration::from_secs(seconds)).await;
    format!("computed {label} in {seconds} s")
}

/// Fails as a tool does (an `isError` result) after about a second; runs only as a task
#[mcp_tool(task = "required")]
async fn failing_job() -> Result<String, ToolError> {
    tokio::time::sleep(Duration::from_secs(1)).await;
    Err(ToolError::new("the job failed, as it always does"))
}

/// Panics, which the runtime reports as an internal error; runs as a task when asked
#[mcp_tool(task = "optional")]
async fn protocol_error_job() -> String {
    panic!("protocol_error_job always panics")
}

/// Asks the client to confirm in a form, then answers with what it said
async fn confirm(ctx: &Context, message: String) -> Result<Map<String, Value>, ToolError> {
    let schema = json!({
        "type": "object",
        "properties": {"name": {"type": "string"}, "confirm": {"type": "boolean"}},
    });
    match ctx.elicit_with_schema(message, schema).await? {
        Elicitation::Accepted(content) => Ok(content),
        Elicitation::Declined | Elicitation::Cancelled => Err(ToolError::new("not confirmed")),
    }
}

/// Deletes a file after the user confirms (nothing is deleted); runs as a task when asked
#[mcp_tool(task = "optional")]
async fn confirm_delete(
    /// The file to delete
    filename: String,
    ctx: Context,
) -> Result<String, ToolError> {
    confirm(&ctx, format!("Delete {filename}?")).await?;
    Ok(format!("deleted {filename}"))
}

/// Asks two questions at once; runs as a task when asked
#[mcp_tool(task = "optional")]
async fn multi_input(ctx: Context) -> Result<String, ToolError> {
    let (first, second) = tokio::join!(
        confirm(&ctx, "First question".to_owned()),
        confirm(&ctx, "Second question".to_owned()),
    );
    Ok(format!(
        "answers: {} and {}",
        Value::Object(first?),
        Value::Object(second?)
    ))
}

/// What `test_tool_with_task` asks for.
#[derive(serde::Deserialize, schemars::JsonSchema)]
struct UserName {
    name: String,
}

/// Asks for a name, then greets it as a task: the name is asked before the task is made
#[mcp_tool(task = "required", input_before_task)]
async fn test_tool_with_task(ctx: Context) -> Result<String, ToolError> {
    let asked = ctx
        .keyed("user_name")
        .elicit::<UserName>("What is your name?");
    match asked.await? {
        Elicitation::Accepted(UserName { name }) => Ok(format!("Hello, {name}!")),
        Elicitation::Declined | Elicitation::Cancelled => Err(ToolError::new("no name given")),
    }
}
