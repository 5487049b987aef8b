//! `rate = "..."` in each unit, alone and with the other limits; read back from the registry.

use mcp_runtime::__private::{ToolDescriptor, inventory};
use mcp_runtime::{Rate, mcp_tool};

#[mcp_tool(rate = "10/s")]
async fn per_second() {}

#[mcp_tool(rate = "100/min", timeout = "5s", max_concurrency = 2)]
fn per_minute(query: String) -> String {
    query
}

#[mcp_tool(rate = " 1 / h ")]
async fn per_hour() {}

fn rate_of(name: &str) -> Option<Rate> {
    inventory::iter::<ToolDescriptor>
        .into_iter()
        .find(|tool| tool.name == name)
        .expect("registered")
        .policy
        .rate
}

fn main() {
    assert_eq!(rate_of("per_second"), Some(Rate::per_second(10)));
    assert_eq!(rate_of("per_minute"), Some(Rate::per_minute(100)));
    assert_eq!(rate_of("per_hour"), Some(Rate::per_hour(1)));
}
