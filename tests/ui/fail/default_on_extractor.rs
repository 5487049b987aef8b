use mcp_runtime::{Context, Extract, Rejection, State, ToolCall, mcp_tool};

struct Database;

struct Caller;

impl Extract for Caller {
    fn extract(_call: &mut ToolCall, _parameter: &'static str) -> Result<Self, Rejection> {
        Ok(Caller)
    }
}

/// The server supplies these: no defaults.
#[mcp_tool]
async fn import(
    #[mcp(default)] ctx: Context,
    #[mcp(default = State::new(Database))] db: State<Database>,
) {
    let _ = (ctx, db);
}

/// An extractor not known by name: the type check refuses it.
#[mcp_tool]
async fn whoami(#[mcp(default = Caller)] caller: Caller) {
    let _ = caller;
}

fn main() {}
