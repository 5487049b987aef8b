//! `task = "..."`: a tool that may run as a task, and a method that must and asks for its
//! input first (`input_before_task`); the policy says which (every other tool's says
//! `Forbidden`).

use mcp_runtime::{mcp_tool, mcp_tools};

/// Build the monthly report.
#[mcp_tool(task = "optional")]
async fn report(
    /// The month, `YYYY-MM`.
    month: String,
) -> String {
    month
}

struct Archive;

#[mcp_tools]
impl Archive {
    /// Rebuild the index (takes hours).
    #[mcp_tool(task = "required", input_before_task, timeout = "6h")]
    async fn rebuild(&self) -> usize {
        0
    }
}

fn main() {}
