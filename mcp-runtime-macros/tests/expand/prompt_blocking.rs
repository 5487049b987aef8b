/// Greets someone.
#[mcp_prompt(name = "greet")]
fn greeting(#[mcp(complete = names)] name: String) -> String {
    format!("Say hello to {name}")
}
