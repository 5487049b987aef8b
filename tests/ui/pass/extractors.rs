use mcp_runtime::{Context, Extract, LogLevel, Rejection, State, ToolCall, mcp_tool};

struct Db;

struct Principal(String);

impl Extract for Principal {
    fn extract(call: &mut ToolCall, _parameter: &'static str) -> Result<Self, Rejection> {
        let name = call.context().client_info().and_then(|info| info["name"].as_str()).ok_or_else(|| Rejection::new("anonymous"))?;
        Ok(Principal(name.to_owned()))
    }
}

/// Extractors mixed with arguments, in any order.
#[mcp_tool]
async fn mixed(ctx: Context, who: Principal, query: String, db: State<Db>, limit: Option<u32>) -> String {
    let _ = (&*db, limit);
    ctx.log(LogLevel::Info, "querying");
    ctx.progress(1.0, None, None);
    format!("{} asked {query}", who.0)
}

/// A sync tool with a context.
#[mcp_tool]
fn sync_context(ctx: Context) -> bool {
    ctx.is_cancelled()
}

fn main() {}
