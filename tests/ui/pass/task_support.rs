//! `task = "..."` with each value, on a free function and on a method, and a tool without
//! it (forbidden); read back from the registry.

use mcp_runtime::__private::{ToolDescriptor, inventory};
use mcp_runtime::{Context, TaskSupport, mcp_tool, mcp_tools};

#[mcp_tool(task = "optional")]
async fn report(ctx: Context) -> String {
    ctx.progress(1.0, Some(1.0), None);
    "done".to_owned()
}

#[mcp_tool(task = "required", timeout = "1h")]
fn export(format: String) -> String {
    format
}

#[mcp_tool(task = "forbidden")]
async fn ping() {}

#[mcp_tool]
async fn plain() {}

struct Archive;

#[mcp_tools]
impl Archive {
    #[mcp_tool(read_only, task = "optional")]
    async fn rebuild(&self) -> usize {
        0
    }
}

fn task_of(name: &str) -> TaskSupport {
    inventory::iter::<ToolDescriptor>
        .into_iter()
        .find(|tool| tool.name == name)
        .expect("registered")
        .policy
        .task
}

fn main() {
    assert_eq!(task_of("report"), TaskSupport::Optional);
    assert_eq!(task_of("export"), TaskSupport::Required);
    assert_eq!(task_of("ping"), TaskSupport::Forbidden);
    assert_eq!(task_of("plain"), TaskSupport::Forbidden);
    assert_eq!(task_of("rebuild"), TaskSupport::Optional);
}
