//! `#[mcp(rename = "...")]`: the name clients see differs from the Rust name, so an unused
//! parameter can take rustc's `_` without changing the tool's API.

use mcp_runtime::__private::{ToolDescriptor, inventory};
use mcp_runtime::mcp_tool;

/// Convert an amount.
///
/// # Arguments
///
/// * `amount` - How much.
/// * `_units` - Named by its Rust name.
/// * `precision` - Named by its published name.
#[mcp_tool(read_only)]
async fn convert(
    amount: f64,
    #[mcp(rename = "units")] _units: Option<String>,
    #[mcp(rename = "precision", default = 2)] digits: u32,
    /// Renamed to a name other names may not take.
    #[mcp(rename = "output.format-v2")]
    format: Option<String>,
) -> String {
    let _ = format;
    format!("{amount:.*}", digits as usize)
}

/// Two parameters that swap names.
#[mcp_tool]
fn swapped(#[mcp(rename = "b")] a: u32, #[mcp(rename = "a")] b: u32) -> u32 {
    a - b
}

fn tool(name: &str) -> &'static ToolDescriptor {
    inventory::iter::<ToolDescriptor>
        .into_iter()
        .find(|tool| tool.name == name)
        .unwrap_or_else(|| panic!("no tool named {name}"))
}

fn main() {
    let convert_tool = tool("convert");
    let params: Vec<_> = convert_tool
        .params
        .iter()
        .map(|param| (param.name, param.description, param.required))
        .collect();
    assert_eq!(
        params,
        [
            ("amount", Some("How much."), true),
            ("units", Some("Named by its Rust name."), false),
            ("precision", Some("Named by its published name."), false),
            ("output.format-v2", Some("Renamed to a name other names may not take."), false),
        ]
    );
    let names: Vec<_> = tool("swapped").params.iter().map(|param| param.name).collect();
    assert_eq!(names, ["b", "a"]);

    // The function keeps its Rust names.
    assert_eq!(swapped(3, 1), 2);
    drop(convert(1.0, None, 2, None));
}
