//! Parameter defaults: `#[mcp(default = expr)]` and `#[mcp(default)]`, published as JSON and
//! leaving the parameter out of `required`; the function keeps its plain signature.

use mcp_runtime::__private::{ToolDescriptor, inventory};
use mcp_runtime::{Context, mcp_tool};
use serde_json::json;

const PAGE: u32 = 20;

#[derive(serde::Serialize, serde::Deserialize, schemars::JsonSchema, Default, PartialEq, Debug)]
struct Filter {
    prefix: String,
    hidden: bool,
}

/// Every kind of default.
#[mcp_tool]
fn listing(
    /// Required: no default.
    directory: String,
    #[mcp(default = 10)] limit: u32,
    #[mcp(default = PAGE * 2)] page_size: u32,
    #[mcp(default = "name".to_owned())] sort: String,
    #[mcp(default)] filter: Filter,
    #[mcp(default = vec![1, 2])] #[allow(unused_variables)] pages: Vec<u8>,
    ctx: Context,
) -> String {
    let _ = (limit, page_size, sort, filter, pages, ctx);
    directory
}

fn main() {
    let tool = inventory::iter::<ToolDescriptor>
        .into_iter()
        .find(|tool| tool.name == "listing")
        .expect("registered");
    let defaults: Vec<_> = tool
        .params
        .iter()
        .map(|param| (param.name, param.required, param.default.map(|default| default())))
        .collect();
    assert_eq!(
        defaults,
        [
            ("directory", true, None),
            ("limit", false, Some(json!(10))),
            ("page_size", false, Some(json!(40))),
            ("sort", false, Some(json!("name"))),
            ("filter", false, Some(json!({"prefix": "", "hidden": false}))),
            ("pages", false, Some(json!([1, 2]))),
            ("ctx", true, None),
        ]
    );
}
