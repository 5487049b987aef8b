//! A `# Arguments` list in the function's doc comment describes the parameters (a `///` on
//! the parameter wins) and is left out of the tool's description.

use mcp_runtime::__private::{ToolDescriptor, inventory};
use mcp_runtime::mcp_tool;

/// Copy a file.
///
/// # Arguments
///
/// * `from` - The source,
///   relative to the root.
/// - `to`: The destination.
/// * overwrite - Ignored: the parameter's own comment wins.
/// * `r#type` — The kind of copy.
///
/// # Errors
///
/// When the source is missing.
#[mcp_tool]
async fn copy(
    from: String,
    to: String,
    /// Replace an existing destination.
    overwrite: Option<bool>,
    r#type: Option<String>,
    undocumented: Option<u8>,
) {
    let _ = (from, to, overwrite, r#type, undocumented);
}

fn main() {
    let tool = inventory::iter::<ToolDescriptor>
        .into_iter()
        .find(|tool| tool.name == "copy")
        .expect("registered");
    assert_eq!(
        tool.description,
        Some("Copy a file.\n\n# Errors\n\nWhen the source is missing.")
    );
    let descriptions: Vec<_> = tool.params.iter().map(|param| (param.name, param.description)).collect();
    assert_eq!(
        descriptions,
        [
            ("from", Some("The source, relative to the root.")),
            ("to", Some("The destination.")),
            ("overwrite", Some("Replace an existing destination.")),
            ("type", Some("The kind of copy.")),
            ("undocumented", None),
        ]
    );
}
