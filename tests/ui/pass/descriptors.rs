//! What the macro registers: names, descriptions from doc comments, hints, required
//! arguments. Read back from the registry, which every tool in the binary is submitted to.

use mcp_runtime::__private::{ToolDescriptor, ToolHints, inventory};
use mcp_runtime::mcp_tool;

/// First line,
/// second line.
///
///
/// Second paragraph:
///     indented.
#[mcp_tool(read_only, destructive = false, title = "Documented")]
async fn documented(
    /// The only
    /// argument.
    #[allow(unused_variables)]
    r#type: Option<String>,
    undocumented: i64,
) {
    let _ = undocumented;
}

#[doc = " From an attribute."]
#[doc = ""]
#[doc = " Still the description."]
#[mcp_tool(name = "renamed.tool-v2", description = "Given explicitly.")]
fn overridden() {}

#[mcp_tool]
fn r#undocumented() {}

fn tool(name: &str) -> &'static ToolDescriptor {
    inventory::iter::<ToolDescriptor>
        .into_iter()
        .find(|tool| tool.name == name)
        .unwrap_or_else(|| panic!("no tool named {name}"))
}

fn main() {
    let tool_documented = tool("documented");
    assert_eq!(tool_documented.title, Some("Documented"));
    assert_eq!(
        tool_documented.description,
        Some("First line,\nsecond line.\n\nSecond paragraph:\n    indented.")
    );
    assert_eq!(
        tool_documented.hints,
        ToolHints { read_only: Some(true), destructive: Some(false), idempotent: None, open_world: None }
    );
    let [first, second] = tool_documented.params else { panic!("two params") };
    assert_eq!((first.name, first.description, first.required), ("type", Some("The only\nargument."), false));
    assert_eq!((second.name, second.description, second.required), ("undocumented", None, true));
    assert_eq!(tool_documented.location.line, 13);
    assert!(tool_documented.location.file.ends_with("descriptors.rs"));

    let tool_overridden = tool("renamed.tool-v2");
    assert_eq!(tool_overridden.description, Some("Given explicitly."));
    assert_eq!(tool_overridden.title, None);
    assert_eq!(tool_overridden.hints, ToolHints::default());

    let tool_undocumented = tool("undocumented");
    assert_eq!(tool_undocumented.description, None);
    assert!(tool_undocumented.params.is_empty());

    // The functions stay as written.
    drop(documented(None, 1));
    overridden();
    r#undocumented();
}
