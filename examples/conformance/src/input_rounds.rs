//! The fixtures of the suite's `input-required-result-*` scenarios (SEP-2322): tools and a
//! prompt that ask the client for input. Under 2026-07-28 each question ends the request
//! with an `input_required` result and the client's retry runs the function again with the
//! answers; in the handshake era the same code sends the requests and waits.

use mcp_runtime::{Context, Elicitation, SamplingRequest, ToolError, mcp_prompt, mcp_tool};
use serde::Deserialize;
use serde_json::json;

/// What the name questions ask for.
#[derive(Deserialize, schemars::JsonSchema)]
struct Name {
    name: String,
}

/// What the second round of the multi-round fixture asks for.
#[derive(Deserialize, schemars::JsonSchema)]
struct Colour {
    color: String,
}

/// What the prompt fixture asks for.
#[derive(Deserialize, schemars::JsonSchema)]
struct PromptContext {
    context: String,
}

/// Asks for the user's name; anything but an accepted form is a tool error.
async fn ask_name(ctx: &Context) -> Result<String, ToolError> {
    name_of(ctx.elicit::<Name>("What is your name?").await?)
}

/// The name the user gave.
fn name_of(answer: Elicitation<Name>) -> Result<String, ToolError> {
    match answer {
        Elicitation::Accepted(Name { name }) => Ok(name),
        Elicitation::Declined | Elicitation::Cancelled => {
            Err(ToolError::new("the user did not give a name"))
        }
    }
}

/// Tests an input_required round with one elicitation (SEP-2322)
#[mcp_tool]
async fn test_input_required_result_elicitation(ctx: Context) -> Result<String, ToolError> {
    // The suite answers under the key it expects the question to have.
    let asked = ctx.keyed("user_name").elicit::<Name>("What is your name?");
    Ok(format!("Hello, {}!", name_of(asked.await?)?))
}

/// Tests an input_required round with one sampling request (SEP-2322)
#[mcp_tool]
async fn test_input_required_result_sampling(ctx: Context) -> Result<String, ToolError> {
    let answer = ctx
        .sample(SamplingRequest::new(100).user("What is the capital of France?"))
        .await?;
    Ok(format!(
        "The model answered: {}",
        answer.text().unwrap_or("(no text)")
    ))
}

/// Tests an input_required round with one roots/list request (SEP-2322)
#[mcp_tool]
async fn test_input_required_result_list_roots(ctx: Context) -> Result<String, ToolError> {
    let roots = ctx.list_roots().await?;
    let uris: Vec<&str> = roots.iter().map(|root| root.uri.as_str()).collect();
    Ok(format!("Client roots: {}", uris.join(", ")))
}

/// Tests that requestState round-trips through an input_required round (SEP-2322)
#[mcp_tool]
async fn test_input_required_result_request_state(ctx: Context) -> Result<String, ToolError> {
    // The runtime checks the echoed requestState before the tool runs again, so reaching
    // here with an answer means the state was valid.
    let name = ask_name(&ctx).await?;
    Ok(format!("state-ok: Hello, {name}!"))
}

/// Tests several input requests in one input_required round (SEP-2322)
#[mcp_tool]
async fn test_input_required_result_multiple_inputs(ctx: Context) -> Result<String, ToolError> {
    // Joined, so that all three questions go out in the same round.
    let (name, greeting, roots) = tokio::join!(
        ask_name(&ctx),
        ctx.sample(SamplingRequest::new(50).user("Generate a greeting")),
        ctx.list_roots(),
    );
    let greeting = greeting?;
    Ok(format!(
        "{} {}! ({} roots)",
        greeting.text().unwrap_or("Hello"),
        name?,
        roots?.len()
    ))
}

/// Tests an input_required flow over several rounds (SEP-2322)
#[mcp_tool]
async fn test_input_required_result_multi_round(ctx: Context) -> Result<String, ToolError> {
    let name = ask_name(&ctx).await?;
    let colour = match ctx
        .elicit::<Colour>(format!("{name}, what is your favourite colour?"))
        .await?
    {
        Elicitation::Accepted(Colour { color }) => color,
        Elicitation::Declined | Elicitation::Cancelled => "unknown".to_owned(),
    };
    Ok(format!("{name} likes {colour}"))
}

/// Tests that a tampered requestState is refused (SEP-2322)
#[mcp_tool]
async fn test_input_required_result_tampered_state(ctx: Context) -> Result<String, ToolError> {
    let answer = ctx
        .elicit_with_schema(
            "Confirm to continue",
            json!({"type": "object", "properties": {"ok": {"type": "boolean"}}, "required": ["ok"]}),
        )
        .await?;
    Ok(format!("confirmed: {}", answer.accepted().is_some()))
}

/// Tests that input requests name only capabilities the client declared (SEP-2322)
#[mcp_tool]
async fn test_input_required_result_capabilities(ctx: Context) -> Result<String, ToolError> {
    // Asks whichever the client can answer: the runtime refuses the others without sending.
    let name = match ask_name(&ctx).await {
        Ok(name) => name,
        Err(_) => {
            let answer = ctx
                .sample(SamplingRequest::new(20).user("Make up a name"))
                .await?;
            answer.text().unwrap_or("someone").to_owned()
        }
    };
    Ok(format!("Hello, {name}!"))
}

/// Tests an input_required round on prompts/get (SEP-2322)
#[mcp_prompt]
async fn test_input_required_result_prompt(ctx: Context) -> Result<String, ToolError> {
    let answer = ctx
        .elicit::<PromptContext>("What context should the prompt use?")
        .await?;
    let context = match answer {
        Elicitation::Accepted(PromptContext { context }) => context,
        Elicitation::Declined | Elicitation::Cancelled => "none".to_owned(),
    };
    Ok(format!("Answer with this context in mind: {context}"))
}
