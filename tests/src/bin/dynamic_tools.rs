//! A server whose tool list changes while it runs, for the end-to-end tests of `ToolSet`:
//! tools that disable, enable, add and remove tools.

use mcp_runtime::{DynamicTool, Server, State, ToolSet, mcp_tool};
use serde_json::{Value, json};

/// A tool that can be hidden.
#[mcp_tool(tags = ["hidden", "admin"])]
async fn secret() -> &'static str {
    "the secret"
}

/// Enable or disable a tool by name.
#[mcp_tool]
async fn set_enabled(
    /// The tool's name.
    name: String,
    /// Whether it should be listed.
    enabled: bool,
    tools: State<ToolSet>,
) -> Result<String, String> {
    let known = if enabled {
        tools.enable(&name)
    } else {
        tools.disable(&name)
    };
    if known {
        Ok(format!("{name} enabled: {enabled}"))
    } else {
        Err(format!("no tool is called {name}"))
    }
}

/// Another admin tool.
#[mcp_tool(tags = ["admin"])]
async fn reset() -> &'static str {
    "reset"
}

/// Enable or disable every tool with a tag; says how many carry it.
#[mcp_tool]
async fn set_tag_enabled(
    /// The tag.
    tag: String,
    /// Whether its tools should be listed.
    enabled: bool,
    tools: State<ToolSet>,
) -> String {
    let tagged = if enabled {
        tools.enable_tag(&tag)
    } else {
        tools.disable_tag(&tag)
    };
    format!("{tagged} tools tagged {tag}")
}

/// Add a tool `name` that takes a 2020-12 schema with `$defs` and echoes its point.
#[mcp_tool]
async fn add_point_tool(
    /// The new tool's name.
    name: String,
    tools: State<ToolSet>,
) -> Result<String, String> {
    let schema = json!({
        "type": "object",
        "$defs": {
            "coordinate": { "type": "number", "minimum": -1000, "maximum": 1000 },
        },
        "properties": {
            "x": { "$ref": "#/$defs/coordinate" },
            "y": { "$ref": "#/$defs/coordinate" },
        },
        "required": ["x", "y"],
        "additionalProperties": false,
    });
    let tool = DynamicTool::new(name.clone(), schema, |arguments, _ctx| async move {
        mcp_runtime::CallToolResult::structured(Value::Object(arguments))
    })
    .description("Echo a point.")
    .output_schema(json!({
        "type": "object",
        "properties": { "x": { "type": "number" }, "y": { "type": "number" } },
    }))
    .read_only(true);
    tools
        .add(tool)
        .map(|()| format!("added {name}"))
        .map_err(|error| error.to_string())
}

/// Remove a tool added at run time.
#[mcp_tool]
async fn remove_tool(
    /// The tool's name.
    name: String,
    tools: State<ToolSet>,
) -> String {
    format!("removed: {}", tools.remove(&name))
}

#[tokio::main]
async fn main() -> Result<(), mcp_runtime::Error> {
    let server = Server::new("dynamic-tools", "1.0.0");
    let tools = server.tool_set();
    server.state(tools).serve_stdio().await
}
