use mcp_runtime::mcp_prompt;

#[mcp_prompt]
fn greet() -> String {
    String::new()
}

mod other {
    use mcp_runtime::mcp_prompt;

    #[mcp_prompt(name = "greet")]
    fn hello() -> String {
        String::new()
    }
}

fn main() {}
