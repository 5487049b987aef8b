//! Rates the attribute refuses, each with its own error on the string: no unit, a unit
//! spelled out, zero calls, not a number, and not a string; and several mistakes in one
//! attribute, all reported in one compile.

#[mcp_runtime::mcp_tool(rate = "10")]
async fn no_unit() {}

#[mcp_runtime::mcp_tool(rate = "10/sec")]
async fn long_unit() {}

#[mcp_runtime::mcp_tool(rate = "0/min")]
async fn zero() {}

#[mcp_runtime::mcp_tool(rate = "many/h")]
async fn not_a_number() {}

#[mcp_runtime::mcp_tool(rate = 10)]
async fn not_a_string() {}

#[mcp_runtime::mcp_tool(rate = "5/day", max_concurrency = 0, rate = "1/s", rate = "2/s")]
async fn several() {}

fn main() {}
